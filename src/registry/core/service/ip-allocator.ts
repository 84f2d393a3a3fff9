// The bitmap cluster IP allocator of one family (pkg/registry/core/service/ipallocator/bitmap.go):
// the addresses of a CIDR without its network address (and, for IPv4, its broadcast address), kept
// as a bitmap under /ranges/serviceips (or /ranges/secondaryserviceips for the second family). Since
// kube 1.33 it is no longer the allocator, only written beside the IPAddress objects (dual write,
// ipaddress-allocator.ts) so that older servers on the same store see what is taken.
import type { Interface } from '../../../storage/interfaces.js';
import { ipAllocated, ipNotInRange } from './allocation-errors.js';
import { formatCIDR, formatIP, parseIP, rangeSize, type Family, type IPNet } from './ip-net.js';
import { OffsetAllocator, rangeOffset } from './offset-allocator.js';
import { RangeStore } from './range-store.js';

export class ServiceIPAllocator {
  readonly cidr: IPNet;
  readonly #first: bigint;
  readonly #bits: OffsetAllocator;

  constructor(init: { cidr: IPNet; storage: Interface; key: string }) {
    this.cidr = init.cidr;
    const size = rangeSize(init.cidr);
    // IPv4 loses the network and broadcast addresses, IPv6 the subnet-router anycast address.
    const usable = init.cidr.family === 'IPv4' ? (size > 2n ? size - 2n : 0n) : size - 1n;
    const max = Number(usable);
    this.#first = init.cidr.base + 1n;
    this.#bits = new OffsetAllocator({
      store: new RangeStore({ storage: init.storage, key: init.key, range: formatCIDR(init.cidr) }),
      max,
      offset: rangeOffset(Number(size), { lo: 16, hi: 256, step: 16 }),
      allocatedError: ipAllocated,
    });
  }

  get family(): Family {
    return this.cidr.family;
  }

  get store(): RangeStore {
    return this.#bits.store;
  }

  get max(): number {
    return this.#bits.max;
  }

  /** The bitmap offset of an IP, or undefined when the range does not hold it. */
  offsetOf(ip: string): number | undefined {
    const parsed = parseIP(ip);
    if (parsed?.family !== this.cidr.family) return undefined;
    const i = parsed.value - this.#first;
    return i >= 0n && i < BigInt(this.#bits.max) ? Number(i) : undefined;
  }

  ipAt(offset: number): string {
    return formatIP(this.cidr.family, this.#first + BigInt(offset));
  }

  /** The first usable address: the `kubernetes` service's. */
  firstIP(): string {
    return this.ipAt(0);
  }

  async allocate(ip: string, dryRun: boolean): Promise<void> {
    const i = this.offsetOf(ip);
    if (i === undefined) throw ipNotInRange(ip, formatCIDR(this.cidr));
    await this.#bits.allocate(i, dryRun);
  }

  async allocateNext(dryRun: boolean): Promise<string> {
    return this.ipAt(await this.#bits.allocateNext(dryRun));
  }

  /** Releasing an IP outside the range, or a free one, does nothing. */
  async release(ip: string): Promise<void> {
    const i = this.offsetOf(ip);
    if (i !== undefined) await this.#bits.release(i);
  }

  async allocated(): Promise<string[]> {
    return (await this.#bits.allocated()).map((i) => this.ipAt(i));
  }
}
