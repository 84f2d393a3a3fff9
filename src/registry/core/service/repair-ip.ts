// The cluster IP repair of kube 1.33 (pkg/registry/core/service/ipallocator/controller/repairip.go):
// every Service's cluster IPs and the IPAddress objects must name each other. Services are checked
// first (a missing IPAddress is created, one with a wrong parent or labels recreated), then every
// IPAddress the allocator manages (one whose Service is gone, past a grace period, or that another
// object or Service holds is deleted), with kube's events. This is also how a data directory written
// before IPAddress objects existed (only the /ranges/serviceips bitmap) gets them.
import type { Service } from '../../../api/core/v1/service.js';
import type { IPAddress, ParentReference } from '../../../api/networking/v1/ip-address.js';
import { cidrContains, formatIP, parseIP, type Family } from './ip-net.js';
import {
  ipAllocatorManager,
  ipFamilyLabel,
  managedByLabel,
  newServiceIPAddress,
  type IPAddressAllocator,
  type IPAddressClient,
} from './ipaddress-allocator.js';
import { clusterIPNone } from './service-helpers.js';

/** An event as the repair's events.k8s.io recorder (`ipallocator-repair-controller`) writes it. */
export interface RepairEvent {
  readonly regarding: {
    readonly apiVersion: string;
    readonly kind: string;
    readonly namespace?: string;
    readonly name: string;
    readonly uid?: string;
    readonly resourceVersion?: string;
  };
  readonly type: 'Warning';
  readonly reason: string;
  readonly action: string;
  readonly note: string;
}

export const repairControllerName = 'ipallocator-repair-controller';

/** How long an IPAddress may wait for its Service to be written (the request timeout). */
export const ipAddressGracePeriodMs = 60_000;

export interface IPAddressRepairInit {
  readonly listServices: () => Promise<readonly Service[]>;
  readonly ipAddresses: IPAddressClient;
  readonly allocators: readonly IPAddressAllocator[];
  readonly now: () => number;
  readonly record?: (e: RepairEvent) => void;
}

const keyOf = (namespace: string | undefined, name: string | undefined): string =>
  `${namespace ?? ''}/${name ?? ''}`;

/** Go's %v of a *ParentReference. */
const goRef = (r: ParentReference | undefined): string =>
  r === undefined ? '<nil>' : `&{${r.group ?? ''} ${r.resource} ${r.namespace ?? ''} ${r.name}}`;

function serviceRegarding(svc: Service): RepairEvent['regarding'] {
  const m = svc.metadata ?? {};
  return {
    apiVersion: 'v1',
    kind: 'Service',
    name: m.name ?? '',
    ...(m.namespace === undefined ? {} : { namespace: m.namespace }),
    ...(m.uid === undefined ? {} : { uid: m.uid }),
    ...(m.resourceVersion === undefined ? {} : { resourceVersion: m.resourceVersion }),
  };
}

function ipRegarding(ip: IPAddress): RepairEvent['regarding'] {
  const m = ip.metadata ?? {};
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IPAddress',
    name: m.name ?? '',
    ...(m.uid === undefined ? {} : { uid: m.uid }),
    ...(m.resourceVersion === undefined ? {} : { resourceVersion: m.resourceVersion }),
  };
}

/** IsServiceIPSet. */
const hasClusterIP = (svc: Service): boolean => {
  const ip = svc.spec?.clusterIP ?? '';
  return ip !== '' && ip !== clusterIPNone;
};

export class IPAddressRepair {
  readonly #init: IPAddressRepairInit;

  constructor(init: IPAddressRepairInit) {
    this.#init = init;
  }

  #event(regarding: RepairEvent['regarding'], e: { reason: string; action: string; note: string }): void {
    this.#init.record?.({ regarding, type: 'Warning', ...e });
  }

  /** One pass: the Services, then the IPAddresses; again over the Services if an IPAddress went. */
  async runOnce(): Promise<void> {
    const services = await this.#init.listServices();
    const byKey = new Map(services.map((s) => [keyOf(s.metadata?.namespace, s.metadata?.name), s]));
    const inRange = await this.#rangeCheck();
    for (const svc of services) await this.#syncService(svc, byKey, inRange);
    let deleted = false;
    for (const ip of await this.#init.ipAddresses.list()) {
      if (await this.#syncIPAddress(ip, byKey)) deleted = true;
    }
    if (deleted) for (const svc of services) await this.#syncService(svc, byKey, inRange);
  }

  /**
   * isIPOutOfRange's complement: whether any ServiceCIDR (ready or not) holds the IP as a usable
   * address (PrefixContainsIP: not the network address, nor an IPv4 broadcast address).
   */
  async #rangeCheck(): Promise<(ip: { family: Family; value: bigint }) => boolean> {
    const ranges = (await Promise.all(this.#init.allocators.map((a) => a.ranges({ ready: false })))).flat();
    return (ip) => ranges.some((r) => cidrContains(r.cidr, ip) && ip.value >= r.first && ip.value <= r.last);
  }

  async #recreate(name: string, svc: Service): Promise<void> {
    await this.#init.ipAddresses.delete(name);
    await this.#create(name, svc);
  }

  async #create(name: string, svc: Service): Promise<void> {
    const family = parseIP(name)?.family ?? 'IPv4';
    const ref = { namespace: svc.metadata?.namespace ?? '', name: svc.metadata?.name ?? '' };
    await this.#init.ipAddresses.create(newServiceIPAddress(name, family, ref)).catch((err: unknown) => {
      // Taken meanwhile (an allocation racing the repair): the next pass looks again.
      if ((err as { reason?: unknown }).reason !== 'AlreadyExists') throw err;
    });
  }

  /** syncService: each cluster IP has its IPAddress, naming this Service. */
  async #syncService(
    svc: Service,
    byKey: ReadonlyMap<string, Service>,
    inRange: (ip: { family: Family; value: bigint }) => boolean,
  ): Promise<void> {
    if (!hasClusterIP(svc)) return;
    const regarding = serviceRegarding(svc);
    const ns = svc.metadata?.namespace ?? '';
    const svcName = svc.metadata?.name ?? '';
    const action = 'ClusterIPAllocation';
    for (const clusterIP of svc.spec?.clusterIPs ?? []) {
      const parsed = parseIP(clusterIP);
      if (parsed === undefined) {
        // kube formats the nil it failed to parse.
        const note = 'Cluster IP <nil> is not a valid IP; please recreate Service';
        this.#event(regarding, { reason: 'ClusterIPNotValid', action: 'ClusterIPValidation', note });
        continue;
      }
      const family = parsed.family;
      const ip = formatIP(family, parsed.value);
      if (!inRange(parsed)) {
        const note = `Cluster IP [${family}]: ${ip} is not within any configured Service CIDR; please recreate service`;
        this.#event(regarding, { reason: 'ClusterIPOutOfRange', action, note });
        continue;
      }
      const current = await this.#init.ipAddresses.get(ip);
      if (current === undefined) {
        const note = `Cluster IP [${family}]: ${ip} is not allocated; repairing`;
        this.#event(regarding, { reason: 'ClusterIPNotAllocated', action, note });
        await this.#create(ip, svc);
        continue;
      }
      const ref = current.spec?.parentRef;
      const wrongRef = `the ClusterIP [${family}]: ${ip} for Service ${ns}/${svcName} has a wrong reference; repairing`;
      if ((ref?.group ?? '') !== '' || ref?.resource !== 'services') {
        this.#event(regarding, { reason: 'ClusterIPNotAllocated', action, note: wrongRef });
        await this.#recreate(ip, svc);
        continue;
      }
      if ((ref.namespace ?? '') !== ns || ref.name !== svcName) {
        const other = byKey.get(keyOf(ref.namespace, ref.name));
        if (other === undefined) {
          this.#event(regarding, { reason: 'ClusterIPNotAllocated', action, note: wrongRef });
          await this.#recreate(ip, svc);
          continue;
        }
        if ((other.spec?.clusterIPs ?? []).includes(ip)) {
          const note = `Cluster IP [${family}]:${ip} was assigned to multiple services; please recreate service`;
          this.#event(regarding, { reason: 'ClusterIPAlreadyAllocated', action, note });
        }
      }
      const labels = current.metadata?.labels ?? {};
      if (labels[ipFamilyLabel] !== family || labels[managedByLabel] !== ipAllocatorManager) {
        await this.#recreate(ip, svc);
      }
    }
  }

  /** syncIPAddress: an IPAddress the allocator made names a Service that holds it; true when deleted. */
  async #syncIPAddress(ip: IPAddress, byKey: ReadonlyMap<string, Service>): Promise<boolean> {
    if (ip.metadata?.labels?.[managedByLabel] !== ipAllocatorManager) return false;
    const name = ip.metadata.name ?? '';
    const ref = ip.spec?.parentRef;
    const action = 'IPAddressAllocation';
    const reason = 'IPAddressNotAllocated';
    if ((ref?.group ?? '') !== '' || ref?.resource !== 'services') {
      const note = `IPAddress ${name} appears to have been modified, not referencing a Service ${goRef(ref)}: cleaning up`;
      this.#event(ipRegarding(ip), { reason, action, note });
      await this.#init.ipAddresses.delete(name);
      return true;
    }
    const svc = byKey.get(keyOf(ref.namespace, ref.name));
    if (svc === undefined) {
      const created = Date.parse(ip.metadata.creationTimestamp ?? '');
      if (Number.isNaN(created) || this.#init.now() - created <= ipAddressGracePeriodMs) return false;
      const note = `IPAddress: ${name} for Service ${ref.namespace ?? ''}/${ref.name} appears to have leaked: cleaning up`;
      this.#event(ipRegarding(ip), { reason, action, note });
      await this.#init.ipAddresses.delete(name);
      return true;
    }
    if ((svc.spec?.clusterIPs ?? []).includes(name)) return false;
    const note = `IPAddress: ${name} for Service ${ref.namespace ?? ''}/${ref.name} has a wrong reference; cleaning up`;
    this.#event(ipRegarding(ip), { reason: 'IPAddressWrongReference', action, note });
    await this.#init.ipAddresses.delete(name);
    return true;
  }
}
