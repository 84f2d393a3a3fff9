// Removing the tracking finalizer from pods (removeTrackingFinalizerFromPods and the
// `$deleteFromPrimitiveList` patch of job_controller.go): the write changes the pod as it is in
// storage, not the informer's copy, so it never conflicts with the kubelet's status writes; the
// store deletes a pod being deleted once this was its last finalizer.
import type { Pod } from '../../../api/core/v1/pod.js';
import type { KubeObject } from '../../../api/meta.js';
import { newNotFound, reasonForError } from '../../../machinery/errors/index.js';
import { isUpdater } from '../../../registry/rest/capabilities.js';
import { internalContext } from '../../../registry/rest/context.js';
import type { APIClient } from '../simulation/api-client.js';
import type { FinalizerExpectations } from './finalizer-expectations.js';
import { hasTrackingFinalizer, jobTrackingFinalizer } from './tracking.js';

const podResource = { group: '', resource: 'pods' };

/** The finalizer was not there (any more): nothing to write. */
class Unchanged extends Error {}

/** Removes the finalizer from the pod; a pod that is gone counts as done. */
export async function removeTrackingFinalizer(client: APIClient, pod: Pod): Promise<void> {
  const storage = client.storage('/v1/pods');
  if (storage === undefined || !isUpdater(storage)) throw new Error('pods cannot be updated');
  const name = pod.metadata?.name ?? '';
  const uid = pod.metadata?.uid;
  const ctx = internalContext({ namespace: pod.metadata?.namespace ?? '' });
  try {
    await storage.update(ctx, name, {
      objInfo: {
        preconditions: () => (uid === undefined ? undefined : { uid }),
        updatedObject: (_ctx, old: KubeObject | null) => {
          if (old === null) return Promise.reject(newNotFound(podResource, name));
          const finalizers = old.metadata?.finalizers ?? [];
          if (!finalizers.includes(jobTrackingFinalizer)) return Promise.reject(new Unchanged());
          const updated = structuredClone(old);
          const meta = (updated.metadata ??= {});
          meta.finalizers = finalizers.filter((f) => f !== jobTrackingFinalizer);
          return Promise.resolve(updated);
        },
      },
      options: {},
    });
  } catch (err) {
    if (err instanceof Unchanged || reasonForError(err) === 'NotFound') return;
    // A pod recreated under the name is not the one tracked.
    if (reasonForError(err) === 'Conflict' && uid !== undefined) return;
    throw err;
  }
}

/**
 * removeTrackingFinalizerFromPods: the removals are expected first, so a sync that runs before the
 * informer shows them does not count the pods again; a failed removal is no longer expected. The
 * result says, pod by pod, whether the finalizer is gone; the first failure is returned too.
 */
export async function removeTrackingFinalizers(
  at: { client: APIClient; expectations: FinalizerExpectations; jobKey: string },
  pods: readonly Pod[],
): Promise<{ readonly removed: boolean[]; readonly err: { readonly cause: unknown } | undefined }> {
  at.expectations.expectRemoved(
    at.jobKey,
    pods.map((p) => p.metadata?.uid ?? ''),
  );
  let err: { cause: unknown } | undefined;
  const removed = await Promise.all(
    pods.map(async (pod) => {
      if (!hasTrackingFinalizer(pod)) return false;
      try {
        await removeTrackingFinalizer(at.client, pod);
        return true;
      } catch (cause) {
        at.expectations.removalObserved(at.jobKey, pod.metadata?.uid ?? '');
        err ??= { cause };
        return false;
      }
    }),
  );
  return { removed, err };
}
