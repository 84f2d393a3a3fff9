// kube-controller-manager's ephemeral volume controller (pkg/controller/volume/ephemeral): for each
// generic ephemeral volume of a pod (`volumes[].ephemeral.volumeClaimTemplate`), the claim
// `<pod>-<volume>` is created from the template, owned by the pod (controller and
// blockOwnerDeletion), so the garbage collector deletes it with the pod. A claim of that name the pod
// does not own is left alone, and the sync fails with kube's error (retried with backoff).
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Logger } from '../../../server/logging/logger.js';
import type { APIClient } from '../simulation/api-client.js';
import { keyOf, splitKey, type Informer } from '../simulation/informer.js';
import { newControllerRef } from '../simulation/controller-ref.js';
import { WorkLoop } from '../simulation/work-loop.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';
import { rethrowUnless } from '../persistentvolume/volume-util.js';

export interface EphemeralVolumeOptions {
  readonly client: APIClient;
  readonly pods: Informer<Pod>;
  readonly claims: Informer<PersistentVolumeClaim>;
  readonly logger: Logger;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

const podKind = { apiVersion: 'v1', kind: 'Pod' };

/** ephemeral.VolumeClaimName: the claim of a pod's generic ephemeral volume. */
export const ephemeralClaimName = (pod: Pod, volume: string): string =>
  `${pod.metadata?.name ?? ''}-${volume}`;

/** ephemeral.VolumeIsForPod: the claim is the pod's (the pod is its owner). */
export const claimIsForPod = (pod: Pod, claim: PersistentVolumeClaim): boolean =>
  (claim.metadata?.ownerReferences ?? []).some((r) => r.uid === pod.metadata?.uid);

/** VolumeIsForPod's error. */
export const notOwnerMessage = (pod: Pod, claim: string): string => {
  const namespace = pod.metadata?.namespace ?? '';
  return `PVC ${namespace}/${claim} was not created for pod ${namespace}/${pod.metadata?.name ?? ''} (pod is not owner)`;
};

const hasEphemeralVolume = (pod: Pod): boolean =>
  (pod.spec?.volumes ?? []).some((v) => v.ephemeral !== undefined);

export class EphemeralVolumeController {
  readonly #opts: EphemeralVolumeOptions;
  readonly #client: APIClient;
  readonly #loop: WorkLoop;

  constructor(opts: EphemeralVolumeOptions) {
    this.#opts = opts;
    this.#client = opts.client.as('ephemeral-volume-controller');
    this.#loop = new WorkLoop({
      queueName: 'ephemeral_volume',
      workqueueMetrics: opts.workqueueMetrics,
      name: 'ephemeral-volume',
      logger: opts.logger,
      sync: (k) => this.#sync(k),
    });
    opts.pods.addHandler((type, pod) => {
      if (type !== 'DELETED' && hasEphemeralVolume(pod)) this.#loop.queue.add(keyOf(pod));
    });
    // A claim deleted while its pod lives is made again (kube's claim handler requeues the pod).
    opts.claims.addHandler((type, claim) => {
      if (type !== 'DELETED') return;
      for (const ref of claim.metadata?.ownerReferences ?? [])
        if (ref.kind === 'Pod' && ref.controller === true)
          this.#loop.queue.add(`${claim.metadata?.namespace ?? ''}/${ref.name}`);
    });
  }

  run(): void {
    this.#loop.run();
    for (const pod of this.#opts.pods.list()) if (hasEphemeralVolume(pod)) this.#loop.queue.add(keyOf(pod));
  }

  close(): Promise<void> {
    return this.#loop.close();
  }

  async #sync(key: string): Promise<void> {
    const pod = this.#opts.pods.get(key);
    // A pod being deleted gets no new claims (kube's syncHandler skips it).
    if (pod === undefined || pod.metadata?.deletionTimestamp !== undefined) return;
    const { namespace } = splitKey(key);
    for (const volume of pod.spec?.volumes ?? []) {
      const template = volume.ephemeral?.volumeClaimTemplate;
      if (template === undefined) continue;
      const name = ephemeralClaimName(pod, volume.name);
      const existing = this.#opts.claims.get(`${namespace}/${name}`);
      if (existing !== undefined) {
        // handleVolume's error, retried with backoff; the scheduler shows it on the pod.
        if (!claimIsForPod(pod, existing)) throw new Error(notOwnerMessage(pod, name));
        continue;
      }
      const claim: PersistentVolumeClaim = {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: {
          name,
          namespace,
          ownerReferences: [newControllerRef(pod, podKind)],
          ...(template.metadata?.labels === undefined ? {} : { labels: { ...template.metadata.labels } }),
          ...(template.metadata?.annotations === undefined
            ? {}
            : { annotations: { ...template.metadata.annotations } }),
        },
        spec: structuredClone(template.spec ?? {}),
      };
      try {
        await this.#client.create('/v1/persistentvolumeclaims', namespace, claim);
      } catch (err) {
        rethrowUnless(err, 'AlreadyExists');
      }
    }
  }
}
