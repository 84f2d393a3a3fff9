// The cluster IP allocator of one family as kube 1.33 runs it (MultiCIDRServiceAllocator, GA and
// locked on): pkg/registry/core/service/ipallocator/ipallocator.go and cidrallocator.go. An IP is
// taken by creating the networking.k8s.io/v1 IPAddress named after it, with the Service as its
// parent: the store's create-if-absent is the lock, so a create that finds the name taken means
// the IP is taken, whoever took it. Releasing deletes the object. The addresses come from the
// ServiceCIDRs: the one --service-cluster-ip-range gives (the default `kubernetes` ServiceCIDR
// mirrors it) and every other one that is ready and not being deleted. As in kube 1.33, where
// DisableAllocatorDualWrite is still off by default, an IP of the flag's range is also marked in the
// old bitmap (/ranges/serviceips), so a server of an earlier version sharing the store, or reading it
// after a downgrade, hands out none of them.
import { randomBytes } from 'node:crypto';
import type { IPAddress } from '../../../api/networking/v1/ip-address.js';
import type { ServiceCIDR } from '../../../api/networking/v1/service-cidr.js';
import { serviceCIDRConditionReady } from '../../../api/networking/v1/service-cidr.js';
import { AllocationError, ipAllocated, ipNotInRange, rangeFull } from './allocation-errors.js';
import {
  cidrContains,
  formatCIDR,
  formatIP,
  parseCIDR,
  parseIP,
  rangeSize,
  type Family,
  type IPNet,
} from './ip-net.js';
import type { ServiceIPAllocator } from './ip-allocator.js';
import { rangeOffset } from './offset-allocator.js';

/** networkingv1.LabelIPAddressFamily and LabelManagedBy, and the allocator's ControllerName. */
export const ipFamilyLabel = 'ipaddress.kubernetes.io/ip-family';
export const managedByLabel = 'ipaddress.kubernetes.io/managed-by';
export const ipAllocatorManager = 'ipallocator.k8s.io';

/** The Service an IP is allocated to. */
export interface ServiceRef {
  readonly namespace: string;
  readonly name: string;
}

/** The IPAddress objects, read and written without a cache (a consistent view of what is taken). */
export interface IPAddressClient {
  list(): Promise<IPAddress[]>;
  /** undefined when there is none. */
  get(name: string): Promise<IPAddress | undefined>;
  /** Throws the store's AlreadyExists Status when the name is taken. */
  create(obj: IPAddress): Promise<void>;
  /** A missing object is not an error. */
  delete(name: string): Promise<void>;
}

/** ErrMismatchedNetwork: no ServiceCIDR holds the requested IP. */
export const mismatchedNetwork = (): AllocationError =>
  new AllocationError('notInRange', 'the provided network does not match the current range');

/** serviceToRef and newIPAddress: the object that holds `ip` for a Service. */
export function newServiceIPAddress(ip: string, family: Family, svc: ServiceRef): IPAddress {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IPAddress',
    metadata: { name: ip, labels: { [ipFamilyLabel]: family, [managedByLabel]: ipAllocatorManager } },
    spec: { parentRef: { group: '', resource: 'services', namespace: svc.namespace, name: svc.name } },
  };
}

/** isReady: a ServiceCIDR without a Ready condition counts as ready (no controller may be running). */
export function serviceCIDRReady(cidr: ServiceCIDR): boolean {
  const ready = cidr.status?.conditions?.find((c) => c.type === serviceCIDRConditionReady);
  return ready === undefined || ready.status === 'True';
}

/** The usable addresses of a CIDR: not its network address, nor an IPv4 broadcast address. */
export interface AddressRange {
  readonly cidr: IPNet;
  readonly first: bigint;
  readonly last: bigint;
  /** calculateRangeOffset: dynamic allocations prefer [first+offset, last]. */
  readonly offset: bigint;
}

export function addressRange(cidr: IPNet): AddressRange {
  const size = rangeSize(cidr);
  const first = cidr.base + 1n;
  const last = cidr.base + size - 1n - (cidr.family === 'IPv4' ? 1n : 0n);
  const offset = BigInt(rangeOffset(Number(size), { lo: 16, hi: 256, step: 16 }));
  return { cidr, first, last, offset };
}

/** Random IPs allocateNext tries before it reads every IPAddress. */
const randomProbes = 4;

/** A uniformly random bigint in [0, n). */
function randomBelow(n: bigint): bigint {
  if (n <= 0n) return 0n;
  if (n <= BigInt(Number.MAX_SAFE_INTEGER)) return BigInt(Math.floor(Math.random() * Number(n)));
  return BigInt(`0x${randomBytes(16).toString('hex')}`) % n;
}

export interface IPAddressAllocatorInit {
  readonly family: Family;
  /** The --service-cluster-ip-range CIDR of this family, when there is one. */
  readonly defaultCIDR?: IPNet;
  readonly ipAddresses: IPAddressClient;
  /** The stored ServiceCIDRs (none when the resource is not stored). */
  readonly serviceCIDRs: () => Promise<readonly ServiceCIDR[]>;
  /** The bitmap of the flag's range, written beside the IPAddress objects (dual write). */
  readonly bitmap?: ServiceIPAllocator;
}

export class IPAddressAllocator {
  readonly #init: IPAddressAllocatorInit;

  constructor(init: IPAddressAllocatorInit) {
    this.#init = init;
  }

  get family(): Family {
    return this.#init.family;
  }

  /** The dual-written bitmap, when there is one. */
  get bitmap(): ServiceIPAllocator | undefined {
    return this.#init.bitmap;
  }

  /**
   * The ranges of this family: the flag's first, then the ServiceCIDRs' in name order; with
   * `ready`, only those of ServiceCIDRs that are ready and not being deleted (the flag's always).
   */
  async ranges(opts: { ready: boolean }): Promise<AddressRange[]> {
    const seen = new Set<string>();
    const out: AddressRange[] = [];
    const add = (net: IPNet | undefined): void => {
      if (net?.family !== this.family) return;
      const text = formatCIDR(net);
      if (seen.has(text)) return;
      seen.add(text);
      out.push(addressRange(net));
    };
    add(this.#init.defaultCIDR);
    const cidrs = [...(await this.#init.serviceCIDRs())].sort((a, b) =>
      (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
    );
    for (const sc of cidrs) {
      if (opts.ready && (!serviceCIDRReady(sc) || (sc.metadata?.deletionTimestamp ?? '') !== '')) continue;
      for (const c of sc.spec?.cidrs ?? []) add(parseCIDR(c));
    }
    return out;
  }

  /** AllocateService: the requested IP, from a ready range that holds it. */
  async allocate(svc: ServiceRef, ip: string, dryRun: boolean): Promise<void> {
    const parsed = parseIP(ip);
    const ranges = await this.ranges({ ready: true });
    if (parsed === undefined) throw mismatchedNetwork();
    const range = ranges.find((r) => cidrContains(r.cidr, parsed));
    if (range === undefined) {
      // kube's dry run asks one range only, and answers with its range error.
      const first = ranges[0];
      if (dryRun && first !== undefined) throw ipNotInRange(ip, formatCIDR(first.cidr));
      throw mismatchedNetwork();
    }
    if (dryRun) {
      // A dry run checks the range only: whether the IP is free is not asked (kube's dryRunAllocator).
      if (parsed.value < range.first || parsed.value > range.last)
        throw ipNotInRange(ip, formatCIDR(range.cidr));
      return;
    }
    const name = formatIP(parsed.family, parsed.value);
    // The bitmap first, as kube's MetaAllocator does: its errors are the same words.
    const marked = this.#inBitmap(parsed);
    if (marked) await this.#init.bitmap?.allocate(name, false);
    try {
      if (parsed.value < range.first || parsed.value > range.last)
        throw ipNotInRange(ip, formatCIDR(range.cidr));
      await this.#create(name, svc);
    } catch (err) {
      if (marked) await this.#init.bitmap?.release(name);
      throw err;
    }
  }

  /** Whether the dual-written bitmap's CIDR holds the IP. */
  #inBitmap(ip: { family: Family; value: bigint }): boolean {
    const bitmap = this.#init.bitmap;
    return bitmap !== undefined && cidrContains(bitmap.cidr, ip);
  }

  /**
   * AllocateNextService: a free IP of the first range that has one, from a random point of its
   * upper part, then of its lower part. kube walks its informer's view; here a few random picks of
   * the upper part are tried first (a sparse range needs no read of every IPAddress), then the
   * stored IPAddresses are read once and walked past. A dry run takes nothing and answers the
   * range's network address, as kube's does.
   */
  async allocateNext(svc: ServiceRef, dryRun: boolean): Promise<string> {
    const ranges = await this.ranges({ ready: true });
    if (dryRun) {
      const first = ranges[0];
      if (first === undefined) throw rangeFull();
      return formatIP(this.family, first.cidr.base);
    }
    let taken: Set<string> | undefined;
    for (const range of ranges) {
      const upper = { lo: range.first + range.offset, hi: range.last };
      const picked = await this.#probe(svc, upper);
      if (picked !== undefined) return picked;
      taken ??= new Set((await this.#init.ipAddresses.list()).map((o) => o.metadata?.name ?? ''));
      const walked = await this.#allocateIn(svc, taken, upper);
      if (walked !== undefined) return walked;
      if (range.offset === 0n) continue;
      const lower = await this.#allocateIn(svc, taken, {
        lo: range.first,
        hi: range.first + range.offset - 1n,
      });
      if (lower !== undefined) return lower;
    }
    throw rangeFull();
  }

  /** A few random IPs of [lo, hi]; undefined when each was taken. */
  async #probe(svc: ServiceRef, at: { lo: bigint; hi: bigint }): Promise<string | undefined> {
    const size = at.hi - at.lo + 1n;
    if (size <= 0n) return undefined;
    for (let i = 0; i < randomProbes; i++) {
      const name = formatIP(this.family, at.lo + randomBelow(size));
      if (await this.#take(name, svc)) return name;
    }
    return undefined;
  }

  /** allocateFromRange: walks [lo, hi] once from a random start; a lost race moves on. */
  async #allocateIn(
    svc: ServiceRef,
    taken: Set<string>,
    at: { lo: bigint; hi: bigint },
  ): Promise<string | undefined> {
    const size = at.hi - at.lo + 1n;
    if (size <= 0n) return undefined;
    const start = randomBelow(size);
    for (let i = 0n; i < size; i++) {
      const name = formatIP(this.family, at.lo + ((start + i) % size));
      if (taken.has(name)) continue;
      if (await this.#take(name, svc)) return name;
      taken.add(name);
    }
    return undefined;
  }

  /**
   * Creates the IPAddress, then marks the dual-written bitmap; false when either says the IP is
   * taken (what was created for it is given back).
   */
  async #take(name: string, svc: ServiceRef): Promise<boolean> {
    try {
      await this.#create(name, svc);
    } catch (err) {
      if (err instanceof AllocationError && err.code === 'allocated') return false;
      throw err;
    }
    const ip = parseIP(name);
    if (ip === undefined || !this.#inBitmap(ip)) return true;
    try {
      await this.#init.bitmap?.allocate(name, false);
      return true;
    } catch (err) {
      // The bitmap holds it (an older server took it): give the IPAddress back.
      await this.#init.ipAddresses.delete(name);
      if (err instanceof AllocationError) return false;
      throw err;
    }
  }

  async #create(name: string, svc: ServiceRef): Promise<void> {
    try {
      await this.#init.ipAddresses.create(newServiceIPAddress(name, this.family, svc));
    } catch (err) {
      if ((err as { reason?: unknown }).reason === 'AlreadyExists') throw ipAllocated();
      throw err;
    }
  }

  /** Release: deletes the IPAddress; errors are not the caller's (the repair finds leaks). */
  async release(ip: string): Promise<void> {
    const parsed = parseIP(ip);
    if (parsed?.family !== this.family) return;
    const name = formatIP(parsed.family, parsed.value);
    if (this.#inBitmap(parsed)) await this.#init.bitmap?.release(name).catch(() => undefined);
    await this.#init.ipAddresses.delete(name).catch(() => undefined);
  }

  /** ForEach: the IPs this allocator's family holds (IPAddresses with its labels). */
  async allocated(): Promise<string[]> {
    const all = await this.#init.ipAddresses.list();
    return all
      .filter((o) => {
        const labels = o.metadata?.labels ?? {};
        return labels[ipFamilyLabel] === this.family && labels[managedByLabel] === ipAllocatorManager;
      })
      .map((o) => o.metadata?.name ?? '');
  }
}
