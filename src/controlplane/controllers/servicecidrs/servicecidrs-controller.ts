// kube-controller-manager's service-cidr-controller (pkg/controller/servicecidrs): every ServiceCIDR
// carries the networking.k8s.io/service-cidr-finalizer and reports Ready=True; one being deleted
// keeps its finalizer, with Ready=False reason Terminating, while an IPAddress the allocator made
// lies in it and in no other ServiceCIDR, and loses it once none does and a grace period has passed
// (the allocators must have stopped taking IPs from it).
import type { IPAddress } from '../../../api/networking/v1/ip-address.js';
import type { ServiceCIDR } from '../../../api/networking/v1/service-cidr.js';
import { serviceCIDRConditionReady } from '../../../api/networking/v1/service-cidr.js';
import type { KubeObject } from '../../../api/meta.js';
import { deepCopyJSON } from '../../../machinery/json/deep-copy.js';
import { newNotFound, StatusError } from '../../../machinery/errors/index.js';
import type { Clock } from '../../../machinery/time/clock.js';
import { rfc3339 } from '../../../machinery/time/rfc3339.js';
import {
  addressRange,
  ipAllocatorManager,
  managedByLabel,
} from '../../../registry/core/service/ipaddress-allocator.js';
import { cidrContains, parseCIDR, parseIP, type IPNet } from '../../../registry/core/service/ip-net.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import {
  isGetter,
  isLister,
  isUpdater,
  isWatcher,
  type Getter,
  type Lister,
  type Storage,
  type Updater,
  type Watcher,
} from '../../../registry/rest/capabilities.js';
import { internalContext } from '../../../registry/rest/context.js';
import type { Logger } from '../../../server/logging/logger.js';
import { QueueController } from '../queue-controller.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';

export const serviceCIDRControllerHookName = 'start-service-cidr-controller';

/** defaultservicecidr.DefaultServiceCIDRName. */
const defaultServiceCIDRName = 'kubernetes';

/** ServiceCIDRProtectionFinalizer. */
export const serviceCIDRFinalizer = 'networking.k8s.io/service-cidr-finalizer';

/** deletionGracePeriod: how long a deleted ServiceCIDR waits before its finalizer goes. */
export const serviceCIDRDeletionGraceMs = 10_000;

const readyMessage = 'Kubernetes Service CIDR is ready';
const terminatingMessage =
  'There are still IPAddresses referencing the ServiceCIDR, please remove them or create a new ServiceCIDR';

type Source = Getter & Lister & Watcher & Updater;

export interface ServiceCIDRControllerOptions {
  readonly cidrs: Source;
  readonly status: Getter & Updater;
  readonly ipAddresses: Lister & Watcher;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly resyncPeriodMs?: number;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

const codeOf = (err: unknown): number | undefined =>
  err instanceof StatusError ? err.status.code : undefined;

const netsOf = (sc: ServiceCIDR): IPNet[] =>
  (sc.spec?.cidrs ?? []).map((c) => parseCIDR(c)).filter((n): n is IPNet => n !== undefined);

/** PrefixContainsIP: in the prefix, and not its network (nor IPv4 broadcast) address. */
function holds(net: IPNet, ip: { family: IPNet['family']; value: bigint }): boolean {
  const r = addressRange(net);
  return cidrContains(net, ip) && ip.value >= r.first && ip.value <= r.last;
}

/** Whether `outer` contains all of `inner`. */
const containsNet = (outer: IPNet, inner: IPNet): boolean =>
  outer.family === inner.family &&
  outer.ones <= inner.ones &&
  cidrContains(outer, { family: inner.family, value: inner.base });

const resource = { group: 'networking.k8s.io', resource: 'servicecidrs' };

export class ServiceCIDRController {
  readonly #opts: ServiceCIDRControllerOptions;
  readonly #loop: QueueController;
  /** The ServiceCIDRs last seen by the watch, to find those an IPAddress deletion concerns. */
  readonly #known = new Map<string, ServiceCIDR>();

  constructor(opts: ServiceCIDRControllerOptions) {
    this.#opts = opts;
    this.#loop = new QueueController({
      queueName: 'ipaddresses',
      workqueueMetrics: opts.workqueueMetrics,
      name: 'service-cidr-controller',
      logger: opts.logger,
      logPrefix: 'service-cidr-controller',
      resyncPeriodMs: opts.resyncPeriodMs,
      clock: opts.clock,
      sources: [
        {
          what: 'servicecidrs',
          source: opts.cidrs,
          onEvent: (type, obj, queue) => {
            const name = obj.metadata?.name ?? '';
            if (type === 'DELETED') this.#known.delete(name);
            else this.#known.set(name, obj as ServiceCIDR);
            queue.add(name);
            // A ServiceCIDR that comes or goes may free or block another one being deleted.
            for (const [other, sc] of this.#known)
              if ((sc.metadata?.deletionTimestamp ?? '') !== '') queue.add(other);
          },
        },
        {
          what: 'ipaddresses',
          source: opts.ipAddresses,
          onEvent: (type, obj, queue) => {
            if (type !== 'DELETED') return;
            const ip = parseIP(obj.metadata?.name ?? '');
            if (ip === undefined) return;
            for (const [name, sc] of this.#known) {
              if ((sc.metadata?.deletionTimestamp ?? '') === '') continue;
              if (netsOf(sc).some((n) => holds(n, ip))) queue.add(name);
            }
          },
        },
      ],
      sync: (key) => this.#sync(key),
      onSyncError: (key, err) => {
        opts.logger.v(2, 'Error syncing ServiceCIDR, retrying', { ServiceCIDR: key, err: String(err) });
        this.#loop.queue.addRateLimited(key);
      },
    });
  }

  run(): void {
    this.#loop.run();
  }

  close(): Promise<void> {
    return this.#loop.close();
  }

  get #ctx() {
    return internalContext({ signal: this.#loop.signal });
  }

  async #sync(name: string): Promise<void> {
    let sc: ServiceCIDR;
    try {
      sc = (await this.#opts.cidrs.get(this.#ctx, name, {})) as ServiceCIDR;
    } catch (err) {
      if (codeOf(err) === 404) return;
      throw err;
    }
    const deletedAt = sc.metadata?.deletionTimestamp ?? '';
    if (deletedAt !== '') {
      if (!(await this.#canDelete(sc))) {
        await this.#setReady(name, { status: 'False', reason: 'Terminating', message: terminatingMessage });
        return;
      }
      const wait = Date.parse(deletedAt) + serviceCIDRDeletionGraceMs - this.#opts.clock.now();
      if (wait > 0) {
        this.#loop.queue.addAfter(name, wait);
        return;
      }
      await this.#finalizers(name, (fs) => fs.filter((f) => f !== serviceCIDRFinalizer));
      return;
    }
    if (!(sc.metadata?.finalizers ?? []).includes(serviceCIDRFinalizer)) {
      await this.#finalizers(name, (fs) =>
        fs.includes(serviceCIDRFinalizer) ? fs : [...fs, serviceCIDRFinalizer],
      );
    }
    // The default ServiceCIDR's Ready condition is its bootstrap controller's to set (with its own
    // message); both kube controllers write it, and which one shows would be a race here.
    if (name === defaultServiceCIDRName) return;
    await this.#setReady(name, { status: 'True', reason: '', message: readyMessage });
  }

  /** canDeleteCIDR: another ServiceCIDR covers it, or no allocated IP lies in it alone. */
  async #canDelete(sc: ServiceCIDR): Promise<boolean> {
    const self = sc.metadata?.name ?? '';
    const all = (await this.#opts.cidrs.list(this.#ctx, {})).items as ServiceCIDR[];
    const others = all.filter((o) => (o.metadata?.name ?? '') !== self);
    const otherNets = others.flatMap(netsOf);
    const nets = netsOf(sc);
    if (nets.every((n) => otherNets.some((o) => containsNet(o, n)))) return true;
    const ips = (await this.#opts.ipAddresses.list(this.#ctx, {})).items as IPAddress[];
    for (const obj of ips) {
      if (obj.metadata?.labels?.[managedByLabel] !== ipAllocatorManager) continue;
      const ip = parseIP(obj.metadata.name ?? '');
      if (ip === undefined) continue;
      if (nets.some((n) => holds(n, ip)) && !otherNets.some((n) => holds(n, ip))) return false;
    }
    return true;
  }

  async #update(target: Updater, name: string, change: (obj: ServiceCIDR) => boolean): Promise<void> {
    try {
      await target.update(this.#ctx, name, {
        objInfo: {
          preconditions: () => undefined,
          updatedObject: (_c, old: KubeObject | null) => {
            if (old === null) return Promise.reject(newNotFound(resource, name));
            const obj = deepCopyJSON(old) as ServiceCIDR;
            // No change: the same object, which the store writes as a no-op.
            return Promise.resolve(change(obj) ? obj : old);
          },
        },
        options: {},
      });
    } catch (err) {
      if (codeOf(err) !== 404) throw err;
    }
  }

  #finalizers(name: string, next: (fs: string[]) => string[]): Promise<void> {
    return this.#update(this.#opts.cidrs, name, (obj) => {
      const meta = (obj.metadata ??= {});
      const before = meta.finalizers ?? [];
      const after = next([...before]);
      if (after.length === before.length && after.every((f, i) => f === before[i])) return false;
      meta.finalizers = after;
      return true;
    });
  }

  /**
   * The Ready condition. kube applies it on every sync; here it is written when its status, reason
   * or message would change, so the default ServiceCIDR keeps the message its own controller set.
   */
  #setReady(name: string, want: { status: string; reason: string; message: string }): Promise<void> {
    return this.#update(this.#opts.status, name, (obj) => {
      const conditions = obj.status?.conditions ?? [];
      const current = conditions.find((c) => c.type === serviceCIDRConditionReady);
      if (current?.status === want.status && (want.status === 'True' || current.reason === want.reason))
        return false;
      const ready = {
        type: serviceCIDRConditionReady,
        status: want.status,
        lastTransitionTime: rfc3339(new Date(this.#opts.clock.now())),
        reason: want.reason,
        message: want.message,
      };
      obj.status = {
        ...obj.status,
        conditions: [...conditions.filter((c) => c.type !== serviceCIDRConditionReady), ready],
      };
      return true;
    });
  }
}

const asSource = (s: Storage | undefined): Source | undefined =>
  s !== undefined && isGetter(s) && isLister(s) && isWatcher(s) && isUpdater(s) ? s : undefined;

/** The controller over the served networking.k8s.io/v1 servicecidrs and ipaddresses, when both are. */
export function newServiceCIDRController(
  groups: readonly APIGroupInfo[],
  opts: {
    logger: Logger;
    clock: Clock;
    resyncPeriodMs?: number;
    workqueueMetrics?: WorkqueueMetricsProvider | undefined;
  },
): ServiceCIDRController | undefined {
  const v1 = groups.find((g) => g.group === 'networking.k8s.io')?.versionedResourcesStorageMap['v1'];
  const cidrs = asSource(v1?.['servicecidrs']);
  const status = v1?.['servicecidrs/status'];
  const ipAddresses = v1?.['ipaddresses'];
  if (cidrs === undefined || status === undefined || !isGetter(status) || !isUpdater(status))
    return undefined;
  if (ipAddresses === undefined || !isLister(ipAddresses) || !isWatcher(ipAddresses)) return undefined;
  return new ServiceCIDRController({ ...opts, cidrs, status, ipAddresses });
}
