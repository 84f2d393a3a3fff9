// The repair pass of the bitmap allocators (pkg/registry/core/service/portallocator/controller/
// repair.go and ipallocator/controller/repair.go): marks what existing services hold, and gives back
// what no service holds once it has been seen leaked on `leakRepairs` passes in a row (an allocation
// whose service is still being written elsewhere must not be taken from it). Node ports live in
// their bitmap alone; cluster IPs are IPAddress objects (repaired by repair-ip.ts), and their
// dual-written bitmaps are repaired here too, which kube 1.33 leaves to drift.
import type { Service } from '../../../api/core/v1/service.js';
import type { ServiceAllocators } from './allocators.js';
import { setBits, type RangeStore } from './range-store.js';
import { clusterIPNone, collectNodePorts, needsClusterIP } from './service-helpers.js';

/** kube's numRepairsBeforeLeakCleanup. */
export const defaultLeakRepairs = 3;

export interface RepairInit {
  /** Every service, read from storage itself (a consistent read: the watch cache may not be ready). */
  readonly listServices: () => Promise<readonly Service[]>;
  readonly allocators: ServiceAllocators;
  readonly leakRepairs?: number;
}

interface RangeToRepair {
  readonly store: RangeStore;
  readonly leaks: Map<number, number>;
  readonly inUse: (services: readonly Service[]) => number[];
}

export class ServiceRepair {
  readonly #listServices: () => Promise<readonly Service[]>;
  readonly #leakRepairs: number;
  readonly #ranges: RangeToRepair[];

  constructor(init: RepairInit) {
    this.#listServices = init.listServices;
    this.#leakRepairs = init.leakRepairs ?? defaultLeakRepairs;
    const ipRanges = init.allocators.ipBitmaps.map((alloc) => ({
      store: alloc.store,
      leaks: new Map<number, number>(),
      inUse: (services: readonly Service[]): number[] =>
        services
          .filter((s) => needsClusterIP(s))
          .flatMap((s) => (s.spec?.clusterIPs ?? []).filter((ip) => ip !== clusterIPNone))
          .map((ip) => alloc.offsetOf(ip))
          .filter((i): i is number => i !== undefined),
    }));
    const ports = init.allocators.nodePorts;
    const portRange: RangeToRepair = {
      store: ports.store,
      leaks: new Map(),
      inUse: (services) =>
        services
          .flatMap((s) => collectNodePorts(s))
          .map((p) => ports.offsetOf(p))
          .filter((i): i is number => i !== undefined),
    };
    this.#ranges = [...ipRanges, portRange];
  }

  /** One pass over every range. */
  async runOnce(): Promise<void> {
    const services = await this.#listServices();
    for (const range of this.#ranges) await this.#repair(range, services);
  }

  async #repair(range: RangeToRepair, services: readonly Service[]): Promise<void> {
    const inUse = new Set(range.inUse(services));
    const leaks = await range.store.update((stored) => {
      const next = new Map<number, number>();
      let bits = 0n;
      for (const i of inUse) bits |= 1n << BigInt(i);
      for (const i of setBits(stored)) {
        if (inUse.has(i)) continue;
        const left = (range.leaks.get(i) ?? this.#leakRepairs) - 1;
        if (left > 0) {
          next.set(i, left);
          bits |= 1n << BigInt(i);
        }
      }
      return { bits, result: next };
    });
    range.leaks.clear();
    for (const [i, left] of leaks) range.leaks.set(i, left);
  }
}
