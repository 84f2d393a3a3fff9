// Map keys of CEL values, as the libraries that build or read maps take them (optional-library.ts,
// two-var-comprehensions.ts): an int, uint, bool or string; a whole double is read as its int, as
// CEL's maps look keys up across numeric types.
import type * as Cel from '@bufbuild/cel';

export type MapKey = string | bigint | boolean | Cel.CelUint;

/** `v` as a map key; throws cel-go's error for a value no map is keyed by. */
export function mapKeyOf(cel: typeof Cel, v: Cel.CelValue): MapKey {
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'string' || typeof v === 'bigint' || typeof v === 'boolean' || cel.isCelUint(v)) return v;
  throw new Error('unsupported key type');
}

/** A key as cel-go's errors print it. */
export const keyText = (cel: typeof Cel, k: Cel.CelValue): string =>
  cel.isCelUint(k) ? `${k.value}u` : typeof k === 'object' ? '(key)' : String(k);

/** A map's entries, in a map new entries can be added to. */
export const entriesOf = (m: Cel.CelMap): Map<MapKey, Cel.CelInput> =>
  new Map(m as ReadonlyMap<MapKey, Cel.CelInput>);
