// A bitmap of allocations kept in one RangeAllocation object (pkg/registry/core/service/allocator:
// bitmap.go and storage/storage.go). Every change is a guaranteedUpdate of that object, so several
// servers on one store agree: a compare-and-swap that loses re-reads and re-applies the change.
import type { RangeAllocation } from '../../../api/core/v1/range-allocation.js';
import type { Interface } from '../../../storage/interfaces.js';

/** Go's big.Int.Bytes() of the bitmap, base64 as a []byte travels in JSON. */
export function encodeBits(bits: bigint): string {
  if (bits === 0n) return '';
  let hex = bits.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  return Buffer.from(hex, 'hex').toString('base64');
}

export function decodeBits(data: string | undefined): bigint {
  if (data === undefined || data === '') return 0n;
  const hex = Buffer.from(data, 'base64').toString('hex');
  return hex === '' ? 0n : BigInt(`0x${hex}`);
}

export function bitSet(bits: bigint, i: number): boolean {
  return ((bits >> BigInt(i)) & 1n) === 1n;
}

/** The offsets set in the bitmap, ascending. */
export function setBits(bits: bigint): number[] {
  const out: number[] = [];
  for (let i = 0, b = bits; b > 0n; i++, b >>= 1n) if ((b & 1n) === 1n) out.push(i);
  return out;
}

/**
 * randomScanStrategyWithOffset: a random free offset from the upper part [offset, max) first, so
 * dynamic allocations stay clear of the lower part users pick static values from; then the lower.
 */
export function pickFree(bits: bigint, at: { max: number; offset: number }): number | undefined {
  const scan = (from: number, size: number): number | undefined => {
    if (size <= 0) return undefined;
    const start = Math.floor(Math.random() * size);
    for (let i = 0; i < size; i++) {
      const candidate = from + ((start + i) % size);
      if (!bitSet(bits, candidate)) return candidate;
    }
    return undefined;
  };
  return scan(at.offset, at.max - at.offset) ?? scan(0, Math.min(at.offset, at.max));
}

export interface RangeStoreInit {
  readonly storage: Interface;
  /** `/ranges/serviceips`, below the storage's path prefix. */
  readonly key: string;
  /** The range text stored beside the bitmap (`10.0.0.0/24`, `30000-32767`). */
  readonly range: string;
}

/** What a change does to the bitmap, and what it answers. */
export type BitmapChange<R> = (bits: bigint) => { readonly bits: bigint; readonly result: R };

export class RangeStore {
  readonly #storage: Interface<RangeAllocation>;
  readonly #key: string;
  readonly #range: string;

  constructor(init: RangeStoreInit) {
    this.#storage = init.storage as unknown as Interface<RangeAllocation>;
    this.#key = init.key;
    this.#range = init.range;
  }

  get range(): string {
    return this.#range;
  }

  /** The stored bitmap; a missing object, or one for another range, holds nothing of ours. */
  async read(): Promise<bigint> {
    const current = await this.#storage.get(this.#key, { ignoreNotFound: true });
    return this.#bitsOf(current);
  }

  #bitsOf(current: RangeAllocation | null): bigint {
    if (current === null || current.range !== this.#range) return 0n;
    return decodeBits(current.data);
  }

  /** Applies the change atomically; a change that throws writes nothing. */
  async update<R>(change: BitmapChange<R>): Promise<R> {
    let result: R | undefined;
    await this.#storage.guaranteedUpdate(this.#key, {
      ignoreNotFound: true,
      tryUpdate: (current) => {
        const out = change(this.#bitsOf(current));
        result = out.result;
        return {
          apiVersion: 'v1',
          kind: 'RangeAllocation',
          metadata: { ...current?.metadata },
          range: this.#range,
          data: encodeBits(out.bits),
        };
      },
    });
    return result as R;
  }
}
