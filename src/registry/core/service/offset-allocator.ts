// Allocation of offsets 0..max-1 in a stored bitmap (allocator.AllocationBitmap over the etcd-backed
// allocator): the IP and the node port allocators map their items onto it.
import { rangeFull, type AllocationError } from './allocation-errors.js';
import { bitSet, pickFree, setBits, type RangeStore } from './range-store.js';

export interface OffsetAllocatorInit {
  readonly store: RangeStore;
  readonly max: number;
  /** Start of the upper part dynamic allocations prefer (kube's calculateRangeOffset). */
  readonly offset: number;
  readonly allocatedError: () => AllocationError;
}

/** min(max(lo, size/step), hi), or 0 when the range is no bigger than lo (calculateRangeOffset). */
export function rangeOffset(size: number, at: { lo: number; hi: number; step: number }): number {
  if (size <= at.lo) return 0;
  return Math.min(Math.max(at.lo, Math.floor(size / at.step)), at.hi);
}

export class OffsetAllocator {
  readonly #init: OffsetAllocatorInit;

  constructor(init: OffsetAllocatorInit) {
    this.#init = init;
  }

  get max(): number {
    return this.#init.max;
  }

  get store(): RangeStore {
    return this.#init.store;
  }

  /** Takes the offset; a dry run only checks that it is free. */
  async allocate(i: number, dryRun: boolean): Promise<void> {
    const taken = this.#init.allocatedError;
    if (dryRun) {
      if (bitSet(await this.#init.store.read(), i)) throw taken();
      return;
    }
    await this.#init.store.update((bits) => {
      if (bitSet(bits, i)) throw taken();
      return { bits: bits | (1n << BigInt(i)), result: undefined };
    });
  }

  /** Takes a free offset; a dry run only finds one. */
  async allocateNext(dryRun: boolean): Promise<number> {
    const at = { max: this.#init.max, offset: this.#init.offset };
    if (dryRun) {
      const i = pickFree(await this.#init.store.read(), at);
      if (i === undefined) throw rangeFull();
      return i;
    }
    return this.#init.store.update((bits) => {
      const i = pickFree(bits, at);
      if (i === undefined) throw rangeFull();
      return { bits: bits | (1n << BigInt(i)), result: i };
    });
  }

  async release(i: number): Promise<void> {
    await this.#init.store.update((bits) => ({ bits: bits & ~(1n << BigInt(i)), result: undefined }));
  }

  async allocated(): Promise<number[]> {
    return setBits(await this.#init.store.read());
  }
}
