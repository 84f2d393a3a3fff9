// kube's lease endpoint reconciler (pkg/controlplane/reconcilers/lease.go): each replica keeps a
// record under <prefix>/masterleases/<advertise address> (a v1 Endpoints named by the address, as
// kube's, with the serving port added) that lives for --endpoint-reconciler-lease-ttl unrenewed, and
// every replica brings the `kubernetes` Endpoints and EndpointSlice to the live records. Where kube
// writes the record again each interval to refresh its TTL, the record here is bound to an etcd lease
// that the replica keeps alive, so an idle cluster writes nothing; a stopped replica's record
// vanishes with its lease and the next reconcile of a live one drops it.
import { isIPv6 } from 'node:net';
import type { Endpoints } from '../../api/core/v1/endpoints.js';
import type { EndpointSlice } from '../../api/discovery/v1/endpoint-slice.js';
import type { Clock, ClockTimer } from '../../machinery/time/clock.js';
import type { Logger } from '../../server/logging/logger.js';
import { errorText } from '../../server/logging/error-text.js';
import { prefixRange, type Backend } from '../../storage/kv/backend.js';
import {
  ensure,
  isLoopback,
  kubernetesEndpointsOf,
  reconcileEndpoints,
  reconcileEndpointSlice,
  type Writable,
} from '../bootstrap/kubernetes-service.js';

export interface LeaseEndpointReconcilerInit {
  readonly backend: Backend;
  readonly prefix: string;
  readonly ip: string;
  /** The port this server serves on, read once it listens (`--secure-port 0` picks it then). */
  readonly port: () => number;
  readonly ttlMs: number;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly endpoints: Writable | undefined;
  readonly endpointSlices: Writable | undefined;
}

interface Member {
  readonly ip: string;
  readonly port: number;
}

export const masterLeasesPrefix = (prefix: string): string => `${prefix.replace(/\/+$/, '')}/masterleases/`;

function masterLease(m: Member): Endpoints {
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: m.ip },
    subsets: [{ addresses: [{ ip: m.ip }], ports: [{ port: m.port, protocol: 'TCP' }] }],
  };
}

function memberOf(value: Buffer): Member | undefined {
  try {
    const e = JSON.parse(value.toString('utf8')) as Endpoints;
    const ip = e.subsets?.[0]?.addresses?.[0]?.ip;
    // kube's records name no port: all replicas then serve on this one's.
    const port = e.subsets?.[0]?.ports?.[0]?.port;
    return ip === undefined ? undefined : { ip, port: port ?? 0 };
  } catch {
    return undefined;
  }
}

/** One subset per port, addresses sorted, as kube's reconciler sorts them. */
export function endpointsFor(members: readonly Member[]): Endpoints {
  const byPort = new Map<number, string[]>();
  for (const m of members) byPort.set(m.port, [...(byPort.get(m.port) ?? []), m.ip]);
  const subsets = [...byPort]
    .sort(([a], [b]) => a - b)
    .map(([port, ips]) => ({
      addresses: [...new Set(ips)].sort().map((ip) => ({ ip })),
      ports: [{ name: 'https', port, protocol: 'TCP' as const }],
    }));
  return kubernetesEndpointsOf(subsets);
}

/** The slice of the members' first port (a slice has one port set); loopback addresses left out. */
function endpointSliceFor(members: readonly Member[]): EndpointSlice | undefined {
  const usable = members.filter((m) => !isLoopback(m.ip));
  const first = usable[0];
  if (first === undefined) return undefined;
  const family = isIPv6(first.ip) ? 'IPv6' : 'IPv4';
  const ips = usable.filter((m) => m.port === first.port && isIPv6(m.ip) === (family === 'IPv6'));
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: 'kubernetes',
      namespace: 'default',
      labels: { 'kubernetes.io/service-name': 'kubernetes' },
    },
    addressType: family,
    endpoints: [...new Set(ips.map((m) => m.ip))]
      .sort()
      .map((ip) => ({ addresses: [ip], conditions: { ready: true } })),
    ports: [{ name: 'https', port: first.port, protocol: 'TCP' }],
  };
}

export class LeaseEndpointReconciler {
  readonly #init: LeaseEndpointReconcilerInit;
  readonly #key: string;
  #lease: string | undefined;
  #timer: ClockTimer | undefined;
  #busy: Promise<void> = Promise.resolve();
  #stopped = false;
  #stopping: Promise<void> | undefined;

  constructor(init: LeaseEndpointReconcilerInit) {
    this.#init = init;
    this.#key = `${masterLeasesPrefix(init.prefix)}${init.ip}`;
  }
  /** This replica as a member: its address and the port it listens on. */
  #self(): Member {
    return { ip: this.#init.ip, port: this.#init.port() };
  }

  /** kube's interval is 10 s for a 15 s TTL; a third of the TTL keeps a shorter one alive too. */
  get intervalMs(): number {
    return Math.min(10_000, Math.max(200, Math.floor(this.#init.ttlMs / 3)));
  }

  start(): void {
    this.#tick();
  }

  #tick(): void {
    this.#busy = this.#reconcile(true)
      .catch((err: unknown) => {
        this.#init.logger.v(2, 'unable to reconcile the kubernetes endpoints, retrying', {
          err: errorText(err),
        });
      })
      .finally(() => {
        if (!this.#stopped)
          this.#timer = this.#init.clock.setTimeout(() => {
            this.#tick();
          }, this.intervalMs);
      });
  }

  async #keepRecord(): Promise<void> {
    const { backend, ttlMs } = this.#init;
    const sessions = backend.sessions;
    if (sessions === undefined) return;
    if (this.#lease !== undefined && (await sessions.keepAlive(this.#lease)) > 0) {
      if ((await backend.get(this.#key)).kv !== null) return;
    }
    const lease = await sessions.grant(Math.ceil(ttlMs / 1000));
    const value = Buffer.from(JSON.stringify(masterLease(this.#self())));
    const current = (await backend.get(this.#key)).kv;
    const written =
      current === null
        ? await backend.create(this.#key, value, { lease })
        : await backend.update(this.#key, value, { modRevision: current.modRevision, lease });
    if (!written.ok) {
      await sessions.revoke(lease).catch(() => undefined);
      throw new Error(`the master lease ${this.#key} changed meanwhile`);
    }
    const old = this.#lease;
    this.#lease = lease;
    if (old !== undefined) await sessions.revoke(old).catch(() => undefined);
  }

  async #reconcile(includeSelf: boolean): Promise<void> {
    if (includeSelf) await this.#keepRecord();
    const { backend, endpoints, endpointSlices } = this.#init;
    const range = prefixRange(masterLeasesPrefix(this.#init.prefix));
    const { kvs } = await backend.list(range);
    const members = kvs
      .map((kv) => memberOf(kv.value))
      .filter((m): m is Member => m !== undefined)
      .map((m) => (m.port === 0 ? { ...m, port: this.#init.port() } : m))
      .filter((m) => includeSelf || m.ip !== this.#init.ip);
    if (includeSelf && !members.some((m) => m.ip === this.#init.ip)) members.push(this.#self());
    if (endpoints !== undefined) await ensure(endpoints, endpointsFor(members), reconcileEndpoints);
    const slice = endpointSliceFor(members);
    if (endpointSlices !== undefined && slice !== undefined)
      await ensure(endpointSlices, slice, reconcileEndpointSlice);
  }

  /** kube's RemoveEndpoints: the record goes with its lease, and the endpoints without this replica. */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      this.#stopped = true;
      this.#timer?.cancel();
      await this.#busy;
      const lease = this.#lease;
      this.#lease = undefined;
      if (lease !== undefined) await this.#init.backend.sessions?.revoke(lease).catch(() => undefined);
      await this.#reconcile(false).catch(() => undefined);
    })();
    return this.#stopping;
  }
}
