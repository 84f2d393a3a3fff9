// The pvc-protection and pv-protection controllers (pkg/controller/volume/pvcprotection and
// pvprotection in kube-controller-manager), which release what StorageObjectInUseProtection
// admission holds: a PersistentVolumeClaim being deleted loses its kubernetes.io/pvc-protection
// finalizer once no scheduled pod in its namespace mounts it, and a PersistentVolume being deleted
// loses kubernetes.io/pv-protection once it is not Bound. Without them, a claim or volume (and the
// namespace holding a claim) would stay Terminating for good. Generic ephemeral volumes are not
// looked at: Capstan's pods have none.
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { KubeObject } from '../../../api/meta.js';
import { newNotFound, StatusError } from '../../../machinery/errors/index.js';
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
import { deepCopyJSON } from '../../../machinery/json/deep-copy.js';

export const storageProtectionControllersHookName = 'start-storage-protection-controllers';

/** volumeutil.PVCProtectionFinalizer and PVProtectionFinalizer. */
const pvcFinalizer = 'kubernetes.io/pvc-protection';
const pvFinalizer = 'kubernetes.io/pv-protection';

type Source = Getter & Lister & Watcher;

export interface StorageProtectionControllerOptions {
  readonly pods: Lister & Watcher;
  readonly claims?: Source & Updater;
  readonly volumes?: Source & Updater;
  readonly logger: Logger;
  readonly resyncPeriodMs?: number;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

const codeOf = (err: unknown): number | undefined =>
  err instanceof StatusError ? err.status.code : undefined;

const deletingWith = (obj: KubeObject, finalizer: string): boolean =>
  (obj.metadata?.deletionTimestamp ?? '') !== '' && (obj.metadata?.finalizers ?? []).includes(finalizer);

const pvcKey = (namespace: string, name: string): string => `pvc/${namespace}/${name}`;
const pvKey = (name: string): string => `pv/${name}`;

/** podUsesPVC: only a scheduled pod counts, as the kubelet starts no pod on a claim being deleted. */
const podUsesClaim = (pod: Pod, claim: string): boolean =>
  (pod.spec?.nodeName ?? '') !== '' &&
  (pod.spec?.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName === claim);

export class StorageProtectionController {
  readonly #opts: StorageProtectionControllerOptions;
  readonly #loop: QueueController;

  constructor(opts: StorageProtectionControllerOptions) {
    this.#opts = opts;
    const { claims, volumes } = opts;
    this.#loop = new QueueController({
      queueName: 'pvcprotection',
      workqueueMetrics: opts.workqueueMetrics,
      name: 'storage-protection',
      logger: opts.logger,
      logPrefix: 'storage protection controller',
      resyncPeriodMs: opts.resyncPeriodMs,
      sources: [
        ...(claims === undefined
          ? []
          : [
              {
                what: 'persistentvolumeclaims',
                source: claims,
                onEvent: (type: string, obj: KubeObject, queue: QueueController['queue']) => {
                  if (type !== 'DELETED' && deletingWith(obj, pvcFinalizer))
                    queue.add(pvcKey(obj.metadata?.namespace ?? '', obj.metadata?.name ?? ''));
                },
              },
              {
                what: 'pods',
                source: opts.pods,
                mentions: '"persistentVolumeClaim"',
                // A pod gone or changed may have let go of its claims.
                onEvent: (_type: string, obj: KubeObject, queue: QueueController['queue']) => {
                  const pod = obj as Pod;
                  for (const v of pod.spec?.volumes ?? []) {
                    const claim = v.persistentVolumeClaim?.claimName;
                    if (claim !== undefined) queue.add(pvcKey(pod.metadata?.namespace ?? '', claim));
                  }
                },
              },
            ]),
        ...(volumes === undefined
          ? []
          : [
              {
                what: 'persistentvolumes',
                source: volumes,
                onEvent: (type: string, obj: KubeObject, queue: QueueController['queue']) => {
                  if (type !== 'DELETED' && deletingWith(obj, pvFinalizer))
                    queue.add(pvKey(obj.metadata?.name ?? ''));
                },
              },
            ]),
      ],
      sync: (key) => this.#sync(key),
      onSyncError: (key, err) => {
        opts.logger.error(`storage protection of ${key} failed`, err);
        this.#loop.queue.addRateLimited(key);
      },
    });
  }

  /** Starts watching; returns at once. */
  run(): void {
    this.#loop.run();
  }

  close(): Promise<void> {
    return this.#loop.close();
  }

  async #sync(key: string): Promise<void> {
    const [kind = '', ...rest] = key.split('/');
    if (kind === 'pvc') {
      const [namespace = '', name = ''] = rest;
      await this.#syncClaim(namespace, name);
    } else if (kind === 'pv') {
      await this.#syncVolume(rest.join('/'));
    }
  }

  async #syncClaim(namespace: string, name: string): Promise<void> {
    const claims = this.#opts.claims;
    if (claims === undefined) return;
    const ctx = internalContext({ namespace, signal: this.#loop.signal });
    const pvc = (await this.#get(claims, ctx, name)) as PersistentVolumeClaim | undefined;
    if (pvc === undefined || !deletingWith(pvc, pvcFinalizer)) return;
    // A live list, as kube's askAPIServer does before letting a claim go.
    const pods = await this.#opts.pods.list(ctx, {});
    if ((pods.items as Pod[]).some((p) => podUsesClaim(p, name))) return;
    await this.#release(claims, {
      namespace,
      name,
      finalizer: pvcFinalizer,
      resource: { group: '', resource: 'persistentvolumeclaims' },
    });
  }

  async #syncVolume(name: string): Promise<void> {
    const volumes = this.#opts.volumes;
    if (volumes === undefined) return;
    const ctx = internalContext({ signal: this.#loop.signal });
    const pv = (await this.#get(volumes, ctx, name)) as PersistentVolume | undefined;
    if (pv === undefined || !deletingWith(pv, pvFinalizer)) return;
    // isBeingUsed: the PV controller marks a volume in use as Bound.
    if (pv.status?.phase === 'Bound') return;
    await this.#release(volumes, {
      namespace: '',
      name,
      finalizer: pvFinalizer,
      resource: { group: '', resource: 'persistentvolumes' },
    });
  }

  async #get(
    source: Getter,
    ctx: ReturnType<typeof internalContext>,
    name: string,
  ): Promise<KubeObject | undefined> {
    try {
      return await source.get(ctx, name, {});
    } catch (err) {
      if (codeOf(err) === 404) return undefined;
      throw err;
    }
  }

  /** Removes the finalizer from the current object (the store deletes it when none is left). */
  async #release(
    target: Updater,
    at: { namespace: string; name: string; finalizer: string; resource: { group: string; resource: string } },
  ): Promise<void> {
    const ctx = internalContext({ namespace: at.namespace, signal: this.#loop.signal });
    try {
      await target.update(ctx, at.name, {
        objInfo: {
          preconditions: () => undefined,
          updatedObject: (_c, old) => {
            if (old === null) return Promise.reject(newNotFound(at.resource, at.name));
            const obj = deepCopyJSON(old);
            const meta = (obj.metadata ??= {});
            meta.finalizers = (meta.finalizers ?? []).filter((f) => f !== at.finalizer);
            return Promise.resolve(obj);
          },
        },
        options: {},
      });
    } catch (err) {
      if (codeOf(err) === 404) return;
      throw err;
    }
  }
}

const asSource = (s: Storage | undefined): (Source & Updater) | undefined =>
  s !== undefined && isGetter(s) && isLister(s) && isWatcher(s) && isUpdater(s) ? s : undefined;

/** The controllers over the served API; undefined when pods, or both claims and volumes, are not served. */
export function newStorageProtectionController(
  groups: readonly APIGroupInfo[],
  opts: { logger: Logger; resyncPeriodMs?: number; workqueueMetrics?: WorkqueueMetricsProvider | undefined },
): StorageProtectionController | undefined {
  const core = groups.find((g) => g.group === '')?.versionedResourcesStorageMap['v1'];
  const pods = core?.['pods'];
  const claims = asSource(core?.['persistentvolumeclaims']);
  const volumes = asSource(core?.['persistentvolumes']);
  if (pods === undefined || !isLister(pods) || !isWatcher(pods)) return undefined;
  if (claims === undefined && volumes === undefined) return undefined;
  return new StorageProtectionController({
    ...opts,
    pods,
    ...(claims === undefined ? {} : { claims }),
    ...(volumes === undefined ? {} : { volumes }),
  });
}
