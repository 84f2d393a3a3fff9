// Cluster IP and node port allocation for service create and update (pkg/registry/core/service/
// storage/alloc.go): IP families are settled first, then IPs and ports are taken; what was taken
// is given back when the write fails, what the old object held is released when it succeeds.
import type { Service, ServicePort } from '../../../api/core/v1/service.js';
import { newInternalError, newInvalid } from '../../../machinery/errors/index.js';
import { FieldError, FieldPath, type ErrorList } from '../../../machinery/validation/index.js';
import { isAllocationError } from './allocation-errors.js';
import { familyOf, type Family } from './ip-net.js';
import type { ServiceIPAllocator } from './ip-allocator.js';
import type { ServiceRef } from './ipaddress-allocator.js';
import type { NodePortAllocator } from './port-allocator.js';
import {
  clusterIPNone,
  collectNodePorts,
  needsClusterIP,
  needsHealthCheckNodePort,
  needsNodePort,
  shouldAllocateNodePorts,
} from './service-helpers.js';
import { Transaction } from './transaction.js';
import { initIPFamilyFields } from './ip-families.js';

const serviceKind = { group: '', kind: 'Service' };

/** What takes and gives back cluster IPs of one family (IPAddressAllocator). */
export interface ClusterIPAllocator {
  readonly family: Family;
  allocate(svc: ServiceRef, ip: string, dryRun: boolean): Promise<void>;
  allocateNext(svc: ServiceRef, dryRun: boolean): Promise<string>;
  release(ip: string): Promise<void>;
  /** The IPs of this family taken now. */
  allocated(): Promise<string[]>;
}

export interface ServiceAllocatorsInit {
  /** The primary family's allocator first; a second one of the other family for dual stack. */
  readonly ips: readonly ClusterIPAllocator[];
  readonly nodePorts: NodePortAllocator;
  /** The cluster IP bitmaps written beside the IPAddress objects (dual write), for the repair. */
  readonly ipBitmaps?: readonly ServiceIPAllocator[];
}

/** IPs keyed by their family (what the service holds, whatever its ipFamilies say). */
function byFamily(ips: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const ip of ips) {
    const f = familyOf(ip);
    if (f !== undefined && !out.has(f)) out.set(f, ip);
  }
  return out;
}

/** The parent an allocated IP names. */
const refOf = (svc: Service): ServiceRef => ({
  namespace: svc.metadata?.namespace ?? '',
  name: svc.metadata?.name ?? '',
});

function invalid(svc: Service, errs: ErrorList): Error {
  return newInvalid(serviceKind, svc.metadata?.name ?? '', errs);
}

export class ServiceAllocators {
  readonly #ips: readonly ClusterIPAllocator[];
  readonly #nodePorts: NodePortAllocator;
  readonly #ipBitmaps: readonly ServiceIPAllocator[];

  constructor(init: ServiceAllocatorsInit) {
    this.#ips = init.ips;
    this.#nodePorts = init.nodePorts;
    this.#ipBitmaps = init.ipBitmaps ?? [];
  }

  get ipBitmaps(): readonly ServiceIPAllocator[] {
    return this.#ipBitmaps;
  }

  get ipAllocators(): readonly ClusterIPAllocator[] {
    return this.#ips;
  }

  get nodePorts(): NodePortAllocator {
    return this.#nodePorts;
  }

  #ipAllocator(family: string): ClusterIPAllocator | undefined {
    return this.#ips.find((a) => a.family === family);
  }

  /** The configured families, primary first. */
  get #families(): readonly Family[] {
    return this.#ips.map((a) => a.family);
  }

  /** allocIPs: requested IPs are taken as asked, missing ones picked; the taken ones are returned. */
  async #allocIPs(
    svc: Service,
    want: { family: string; ip: string }[],
    dryRun: boolean,
  ): Promise<Map<string, string>> {
    const taken = new Map<string, string>();
    try {
      for (const { family, ip } of want) {
        const alloc = this.#ipAllocator(family);
        if (alloc === undefined) continue;
        if (ip === '') {
          try {
            taken.set(family, await alloc.allocateNext(refOf(svc), dryRun));
          } catch (err) {
            if (!isAllocationError(err)) throw err;
            throw newInternalError(new Error(`failed to allocate a serviceIP: ${err.message}`));
          }
          continue;
        }
        try {
          await alloc.allocate(refOf(svc), ip, dryRun);
        } catch (err) {
          if (!isAllocationError(err)) throw err;
          const path = FieldPath.of('spec', 'clusterIPs');
          const detail = `failed to allocate IP ${ip}: ${err.message}`;
          throw invalid(svc, [FieldError.invalid(path, svc.spec?.clusterIPs ?? [], detail)]);
        }
        taken.set(family, ip);
      }
    } catch (err) {
      if (!dryRun) await this.#releaseIPs(taken);
      throw err;
    }
    return taken;
  }

  async #releaseIPs(ips: ReadonlyMap<string, string>): Promise<void> {
    for (const [family, ip] of ips) await this.#ipAllocator(family)?.release(ip);
  }

  /** allocClusterIPs: one IP per family, in ipFamilies order; headless services get none. */
  async #allocClusterIPs(svc: Service, dryRun: boolean): Promise<Map<string, string>> {
    const spec = svc.spec ?? {};
    if (!needsClusterIP(svc) || spec.clusterIPs?.[0] === clusterIPNone) return new Map();
    const clusterIPs = [...(spec.clusterIPs ?? [])];
    const families = spec.ipFamilies ?? [];
    const want = families.map((family, i) => ({ family, ip: clusterIPs[i] ?? '' }));
    const taken = await this.#allocIPs(svc, want, dryRun);
    families.forEach((f, i) => {
      const ip = taken.get(f);
      if (ip !== undefined) clusterIPs[i] = ip;
    });
    spec.clusterIPs = clusterIPs;
    if (clusterIPs[0] !== undefined) spec.clusterIP = clusterIPs[0];
    return taken;
  }

  async #allocNodePort(
    svc: Service,
    at: { port: number; path: FieldPath; dryRun: boolean },
  ): Promise<number> {
    try {
      if (at.port !== 0) {
        await this.#nodePorts.allocate(at.port, at.dryRun);
        return at.port;
      }
      return await this.#nodePorts.allocateNext(at.dryRun);
    } catch (err) {
      if (!isAllocationError(err)) throw err;
      if (at.port === 0) throw newInternalError(new Error(`failed to allocate a nodePort: ${err.message}`));
      throw invalid(svc, [FieldError.invalid(at.path, at.port, err.message)]);
    }
  }

  /**
   * initNodePorts / updateNodePorts: each port gets its requested node port or a new one; ports of
   * one number (TCP and UDP) share theirs. Ports the old object held are not taken again.
   */
  async #allocNodePorts(
    svc: Service,
    at: { old: Service | null; txn: Transaction; dryRun: boolean },
  ): Promise<void> {
    const held = new Set(at.old === null ? [] : collectNodePorts(at.old));
    const byPort = new Map<number, number>();
    const ports: ServicePort[] = svc.spec?.ports ?? [];
    for (const [i, p] of ports.entries()) {
      const requested = p.nodePort ?? 0;
      if (requested === 0 && !shouldAllocateNodePorts(svc)) continue;
      const shared = byPort.get(p.port);
      if (requested === 0 && shared !== undefined) {
        p.nodePort = shared;
        continue;
      }
      if (requested !== 0 && (held.has(requested) || [...byPort.values()].includes(requested))) {
        byPort.set(p.port, requested);
        continue;
      }
      const path = FieldPath.of('spec', 'ports').index(i).child('nodePort');
      const got = await this.#allocNodePort(svc, { port: requested, path, dryRun: at.dryRun });
      if (!at.dryRun) at.txn.onRevert(() => this.#nodePorts.release(got));
      p.nodePort = got;
      byPort.set(p.port, got);
    }
  }

  async #allocHealthCheckNodePort(
    svc: Service,
    at: { old: Service | null; txn: Transaction; dryRun: boolean },
  ): Promise<void> {
    const spec = svc.spec ?? {};
    const requested = spec.healthCheckNodePort ?? 0;
    if (
      at.old !== null &&
      needsHealthCheckNodePort(at.old) &&
      requested === (at.old.spec?.healthCheckNodePort ?? 0)
    )
      return;
    try {
      if (requested !== 0) await this.#nodePorts.allocate(requested, at.dryRun);
      else spec.healthCheckNodePort = await this.#nodePorts.allocateNext(at.dryRun);
    } catch (err) {
      if (!isAllocationError(err)) throw err;
      const what =
        requested !== 0 ? `requested HealthCheck NodePort ${requested}` : 'a HealthCheck NodePort 0';
      throw newInternalError(new Error(`failed to allocate ${what}: ${err.message}`));
    }
    const got = spec.healthCheckNodePort ?? 0;
    if (!at.dryRun) at.txn.onRevert(() => this.#nodePorts.release(got));
  }

  /** allocateCreate. A failure gives back everything taken before it. */
  async allocateCreate(svc: Service, dryRun: boolean): Promise<Transaction> {
    const txn = new Transaction();
    try {
      initIPFamilyFields(svc, { old: null, configured: this.#families });
      const ips = await this.#allocClusterIPs(svc, dryRun);
      if (!dryRun) txn.onRevert(() => this.#releaseIPs(ips));
      if (needsNodePort(svc)) await this.#allocNodePorts(svc, { old: null, txn, dryRun });
      if (needsHealthCheckNodePort(svc))
        await this.#allocHealthCheckNodePort(svc, { old: null, txn, dryRun });
    } catch (err) {
      await txn.revert();
      throw err;
    }
    return txn;
  }

  /** allocateUpdate: type changes take or give back cluster IPs and node ports. */
  async allocateUpdate(svc: Service, old: Service, dryRun: boolean): Promise<Transaction> {
    const txn = new Transaction();
    try {
      initIPFamilyFields(svc, { old, configured: this.#families });
      await this.#updateClusterIPs(svc, { old, txn, dryRun });
      const release = (ports: number[]): void => {
        if (!dryRun)
          txn.onCommit(async () => {
            for (const p of ports) await this.#nodePorts.release(p);
          });
      };
      if (needsNodePort(svc)) await this.#allocNodePorts(svc, { old, txn, dryRun });
      if (needsHealthCheckNodePort(svc)) await this.#allocHealthCheckNodePort(svc, { old, txn, dryRun });
      const kept = new Set([
        ...(needsNodePort(svc) ? (svc.spec?.ports ?? []).map((p) => p.nodePort ?? 0) : []),
        ...(needsHealthCheckNodePort(svc) ? [svc.spec?.healthCheckNodePort ?? 0] : []),
      ]);
      release(collectNodePorts(old).filter((p) => !kept.has(p)));
    } catch (err) {
      await txn.revert();
      throw err;
    }
    return txn;
  }

  async #updateClusterIPs(
    svc: Service,
    at: { old: Service; txn: Transaction; dryRun: boolean },
  ): Promise<void> {
    const { old, txn, dryRun } = at;
    const oldIPs = old.spec?.clusterIPs ?? [];
    const releaseOnCommit = (pairs: Map<string, string>): void => {
      if (!dryRun) txn.onCommit(() => this.#releaseIPs(pairs));
    };
    if (!needsClusterIP(old) && needsClusterIP(svc)) {
      const taken = await this.#allocClusterIPs(svc, dryRun);
      if (!dryRun) txn.onRevert(() => this.#releaseIPs(taken));
      return;
    }
    if (oldIPs[0] === clusterIPNone) return;
    const oldPairs = byFamily(oldIPs);
    if (needsClusterIP(old) && !needsClusterIP(svc)) {
      releaseOnCommit(oldPairs);
      return;
    }
    const families = svc.spec?.ipFamilies ?? [];
    const oldFamilies = old.spec?.ipFamilies ?? [];
    if (oldFamilies.length === 1 && families.length === 2) {
      const spec = svc.spec ?? {};
      const ips = [...(spec.clusterIPs ?? [])];
      const family = families[1] ?? '';
      const taken = await this.#allocIPs(svc, [{ family, ip: ips[1] ?? '' }], dryRun);
      if (!dryRun) txn.onRevert(() => this.#releaseIPs(taken));
      ips[1] = taken.get(family) ?? ips[1] ?? '';
      spec.clusterIPs = ips;
    } else if (oldFamilies.length === 2 && families.length === 1) {
      const second = oldFamilies[1];
      if (second !== undefined) releaseOnCommit(new Map([[second, oldIPs[1] ?? '']]));
    }
  }

  /** releaseAllocatedResources: on delete, everything the service held. */
  async releaseAll(svc: Service): Promise<void> {
    const ips = svc.spec?.clusterIPs ?? [];
    if (needsClusterIP(svc) && ips[0] !== clusterIPNone) {
      await this.#releaseIPs(byFamily(ips));
    }
    for (const p of collectNodePorts(svc)) await this.#nodePorts.release(p);
  }
}
