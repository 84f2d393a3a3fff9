// Small messages of scalar fields read by hand: runtime.Unknown and TypeMeta, and the messages
// behind Time, Duration, IntOrString, Quantity, RawExtension and FieldsV1.
import { readScalar, type ScalarType, type ScalarValue } from './scalars.js';
import { WireReader } from './wire.js';

export interface FlatMessageSpec {
  /** The Go type name kube's errors quote (`Timestamp` for Time and MicroTime). */
  readonly name: string;
  readonly fields: Readonly<Record<number, { readonly goName: string; readonly type: ScalarType }>>;
}

/** Field number → the last value seen for it; unknown fields are skipped, as gogo does. */
export function readFlatMessage(buf: Uint8Array, spec: FlatMessageSpec): Map<number, ScalarValue> {
  const out = new Map<number, ScalarValue>();
  const r = new WireReader(buf, spec.name);
  while (!r.done()) {
    const tag = r.tag();
    const field = spec.fields[tag.field];
    if (field === undefined) {
      r.skip(tag.wireType);
      continue;
    }
    out.set(tag.field, readScalar(r, field.type, { wireType: tag.wireType, goName: field.goName }));
  }
  return out;
}

export function stringField(values: Map<number, ScalarValue>, field: number): string {
  const v = values.get(field);
  return typeof v === 'string' ? v : '';
}

export function bytesField(values: Map<number, ScalarValue>, field: number): Uint8Array | undefined {
  const v = values.get(field);
  return v instanceof Uint8Array ? v : undefined;
}

export function int64Field(values: Map<number, ScalarValue>, field: number): bigint {
  const v = values.get(field);
  return typeof v === 'bigint' ? v : 0n;
}

export function int32Field(values: Map<number, ScalarValue>, field: number): number {
  const v = values.get(field);
  return typeof v === 'number' ? v : 0;
}
