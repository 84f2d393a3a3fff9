// The node port allocator (pkg/registry/core/service/portallocator/allocator.go): the ports of
// --service-node-port-range as a bitmap under /ranges/servicenodeports.
import type { Interface } from '../../../storage/interfaces.js';
import { portAllocated, portNotInRange } from './allocation-errors.js';
import { OffsetAllocator, rangeOffset } from './offset-allocator.js';
import { formatPortRange, type PortRange } from './port-range.js';
import { RangeStore } from './range-store.js';

export class NodePortAllocator {
  readonly portRange: PortRange;
  readonly #bits: OffsetAllocator;

  constructor(init: { portRange: PortRange; storage: Interface; key: string }) {
    this.portRange = init.portRange;
    this.#bits = new OffsetAllocator({
      store: new RangeStore({ storage: init.storage, key: init.key, range: formatPortRange(init.portRange) }),
      max: init.portRange.size,
      offset: rangeOffset(init.portRange.size, { lo: 16, hi: 128, step: 32 }),
      allocatedError: portAllocated,
    });
  }

  get store(): RangeStore {
    return this.#bits.store;
  }

  offsetOf(port: number): number | undefined {
    const i = port - this.portRange.base;
    return Number.isInteger(i) && i >= 0 && i < this.portRange.size ? i : undefined;
  }

  async allocate(port: number, dryRun: boolean): Promise<void> {
    const i = this.offsetOf(port);
    if (i === undefined) throw portNotInRange(formatPortRange(this.portRange));
    await this.#bits.allocate(i, dryRun);
  }

  async allocateNext(dryRun: boolean): Promise<number> {
    return this.portRange.base + (await this.#bits.allocateNext(dryRun));
  }

  async release(port: number): Promise<void> {
    const i = this.offsetOf(port);
    if (i !== undefined) await this.#bits.release(i);
  }

  async allocated(): Promise<number[]> {
    return (await this.#bits.allocated()).map((i) => this.portRange.base + i);
  }
}
