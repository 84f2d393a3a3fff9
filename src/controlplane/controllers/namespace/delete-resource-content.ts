// One resource's objects in a Terminating namespace (deleteCollection, deleteEachItem and
// deleteAllContentForGroupVersionResource in kube's namespaced_resources_deleter.go): delete them
// all, then list what is left. Objects held by finalizers are expected and waited for; anything else
// left over is an error, except pods still inside their grace period (estimateGracefulTermination).
import type { KubeObject } from '../../../api/meta.js';
import { errorText } from '../../../server/logging/error-text.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { DeleteOptions } from '../../../registry/rest/options.js';
import type { DeletableResource } from './served-resources.js';
import { gvrString } from './status-conditions.js';

/** The wait kube assumes for objects that still carry finalizers. */
export const finalizerEstimateSeconds = 15;

// The garbage collector must not add the orphan finalizer: everything in the namespace goes.
const backgroundDeletion: DeleteOptions = { propagationPolicy: 'Background' };

export interface ResourceDeletion {
  /** Seconds to wait before looking again; 0 when nothing is worth waiting for. */
  readonly estimate: number;
  readonly remaining: number;
  /** How many of the remaining objects carry each finalizer. */
  readonly finalizers: ReadonlyMap<string, number>;
  /** Why this resource could not be emptied, if it could not. */
  readonly error?: string;
}

// kube treats these as "this operation is not offered here" and falls back, rather than failing.
const notSupported = (err: unknown): boolean => {
  const reason = reasonForError(err);
  return reason === 'MethodNotAllowed' || reason === 'NotFound';
};

/** deleteCollection, or list and delete each item when the collection cannot be deleted at once. */
async function deleteContent(r: DeletableResource, ctx: RequestContext): Promise<void> {
  if (r.collectionDeleter !== undefined) {
    try {
      await r.collectionDeleter.deleteCollection(ctx, {
        options: { ...backgroundDeletion },
        listOptions: {},
      });
      return;
    } catch (err) {
      if (!notSupported(err)) throw err;
    }
  }
  const list = await r.lister.list(ctx, {});
  for (const item of list.items) {
    try {
      await r.deleter.delete(ctx, item.metadata?.name ?? '', { options: { ...backgroundDeletion } });
    } catch (err) {
      if (!notSupported(err)) throw err;
    }
  }
}

/** The pod fields the estimate reads (kept structural: the deleter works on any resource). */
interface PodLike extends KubeObject {
  spec?: { terminationGracePeriodSeconds?: number };
  status?: { phase?: string };
}

const isPods = (r: DeletableResource): boolean => r.resource.group === '' && r.resource.resource === 'pods';

/**
 * estimateGracefulTerminationForPods: the longest grace period of the pods still running, or 0
 * once that long has passed since the namespace's deletion.
 */
async function estimateGracefulTermination(
  r: DeletableResource,
  ctx: RequestContext,
  deletion: NamespaceDeletion,
): Promise<number> {
  if (!isPods(r)) return 0;
  const pods = (await r.lister.list(ctx, {})).items as PodLike[];
  let estimate = 0;
  for (const pod of pods) {
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') continue;
    estimate = Math.max(estimate, pod.spec?.terminationGracePeriodSeconds ?? 0);
  }
  const elapsedSeconds = (deletion.now - Date.parse(deletion.deletedAt)) / 1000;
  return elapsedSeconds >= estimate ? 0 : estimate;
}

function countFinalizers(items: readonly KubeObject[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items)
    for (const f of item.metadata?.finalizers ?? []) counts.set(f, (counts.get(f) ?? 0) + 1);
  return counts;
}

/** The namespace's deletionTimestamp, and the server's time now (ms). */
export interface NamespaceDeletion {
  readonly deletedAt: string;
  readonly now: number;
}

/** Deletes the resource's objects in ctx.namespace and reports what is left. */
export async function deleteAllContentForResource(
  r: DeletableResource,
  ctx: RequestContext,
  deletion: NamespaceDeletion,
): Promise<ResourceDeletion> {
  const none: ResourceDeletion = { estimate: 0, remaining: 0, finalizers: new Map() };
  let left: KubeObject[];
  let estimate: number;
  try {
    estimate = await estimateGracefulTermination(r, ctx, deletion);
    await deleteContent(r, ctx);
    left = (await r.lister.list(ctx, {})).items;
  } catch (err) {
    return { ...none, error: errorText(err) };
  }
  if (left.length === 0) return none;
  const finalizers = countFinalizers(left);
  if (estimate > 0) return { estimate, remaining: left.length, finalizers };
  if (finalizers.size > 0) return { estimate: finalizerEstimateSeconds, remaining: left.length, finalizers };
  return {
    estimate,
    finalizers,
    remaining: left.length,
    error: `unexpected items still remain in namespace: ${ctx.namespace} for gvr: ${gvrString(r.resource)}`,
  };
}
