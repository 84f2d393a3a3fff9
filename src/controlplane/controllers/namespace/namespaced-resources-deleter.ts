// Emptying a Terminating namespace (pkg/controller/namespace/deletion/namespaced_resources_deleter.go):
// make sure it says Terminating, delete every namespaced object of every served resource in it,
// record what remains in its conditions, and once nothing remains take this controller's token out
// of spec.finalizers through namespaces/finalize; the namespace storage then deletes it.
import type { Namespace } from '../../../api/core/v1/namespace.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import type { UpdateRequest } from '../../../registry/rest/capabilities.js';
import { internalContext } from '../../../registry/rest/context.js';
import type { Logger } from '../../../server/logging/logger.js';
import { errorText } from '../../../server/logging/error-text.js';
import { deleteAllContentForResource, type ResourceDeletion } from './delete-resource-content.js';
import type { DeletableResource, NamespaceClient } from './served-resources.js';
import { updateConditions, type ContentTotals } from './status-conditions.js';
import { deepCopyJSON } from '../../../machinery/json/deep-copy.js';

/** Some content is still going away (objects with finalizers): try again after about `estimate` seconds. */
export class ResourcesRemainingError extends Error {
  readonly estimate: number;

  constructor(estimate: number) {
    super(`some content remains in the namespace, estimate ${estimate} seconds before it is removed`);
    this.name = 'ResourcesRemainingError';
    this.estimate = estimate;
  }
}

export interface NamespacedResourcesDeleter {
  readonly client: NamespaceClient;
  /** The resources to empty, looked up on every pass. */
  readonly resources: () => readonly DeletableResource[];
  /** The spec.finalizers token this controller owns: `kubernetes`. */
  readonly finalizerToken: string;
  readonly logger: Logger;
  /** The server's time in ms (default: the system's), against which pods' grace periods run. */
  readonly now?: () => number;
}

const isNotFound = (err: unknown): boolean => reasonForError(err) === 'NotFound';

/** utilerrors.NewAggregate's message: one error as is, several in brackets. */
function aggregate(messages: readonly string[]): Error | undefined {
  if (messages.length === 0) return undefined;
  return new Error(messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`);
}

/** An update computed from the namespace as stored, for the same namespace (uid) only. */
function namespaceUpdate(uid: string, change: (ns: Namespace) => Namespace): UpdateRequest {
  return {
    objInfo: {
      preconditions: () => (uid === '' ? undefined : { uid }),
      updatedObject: (_ctx, old) => {
        if (old === null) return Promise.reject(new Error('the namespace is gone'));
        return Promise.resolve(change(old as Namespace));
      },
    },
    options: {},
  };
}

/** updateNamespaceStatusFunc: phase Terminating once deletionTimestamp is set. */
async function ensureTerminating(
  d: NamespacedResourcesDeleter,
  signal: AbortSignal,
  ns: Namespace,
): Promise<Namespace> {
  if ((ns.metadata?.deletionTimestamp ?? '') === '' || ns.status?.phase === 'Terminating') return ns;
  const req = namespaceUpdate(ns.metadata?.uid ?? '', (cur) => ({
    ...cur,
    status: { ...cur.status, phase: 'Terminating' },
  }));
  const { object } = await d.client.status.update(internalContext({ signal }), ns.metadata?.name ?? '', req);
  return object as Namespace;
}

/** finalizeNamespace: spec.finalizers without our token, sorted and unique as kube's set gives them. */
async function finalizeNamespace(
  d: NamespacedResourcesDeleter,
  signal: AbortSignal,
  ns: Namespace,
): Promise<void> {
  const req = namespaceUpdate(ns.metadata?.uid ?? '', (cur) => {
    const rest = new Set((cur.spec?.finalizers ?? []).filter((f) => f !== d.finalizerToken));
    return { ...cur, spec: { ...cur.spec, finalizers: [...rest].sort() } };
  });
  try {
    await d.client.finalize.update(internalContext({ signal }), ns.metadata?.name ?? '', req);
  } catch (err) {
    // Someone else finished the deletion: fine.
    if (!isNotFound(err)) throw err;
  }
}

/** The conditions for what this pass found, written only when they changed; a failure is only logged. */
async function recordConditions(
  d: NamespacedResourcesDeleter,
  signal: AbortSignal,
  args: { ns: Namespace; totals: ContentTotals },
): Promise<void> {
  const { ns, totals } = args;
  const name = ns.metadata?.name ?? '';
  const now = d.now?.() ?? Date.now();
  if (!updateConditions(deepCopyJSON(ns.status ?? {}), totals, now)) return;
  const req = namespaceUpdate(ns.metadata?.uid ?? '', (cur) => {
    const status = { ...cur.status };
    updateConditions(status, totals, now);
    return { ...cur, status };
  });
  try {
    await d.client.status.update(internalContext({ signal }), name, req);
  } catch (err) {
    d.logger.error(`couldn't update status condition for namespace ${JSON.stringify(name)}`, err);
  }
}

/** deleteAllContent: every resource, errors collected; returns the longest estimate of what remains. */
async function deleteAllContent(
  d: NamespacedResourcesDeleter,
  signal: AbortSignal,
  ns: Namespace,
): Promise<number> {
  const namespace = ns.metadata?.name ?? '';
  const deletedAt = ns.metadata?.deletionTimestamp ?? '';
  const ctx = internalContext({ namespace, signal });
  const totals = {
    remaining: new Map(),
    finalizers: new Map<string, number>(),
    deleteErrors: [] as string[],
  };
  let estimate = 0;
  for (const r of d.resources()) {
    const got: ResourceDeletion = await deleteAllContentForResource(r, ctx, {
      deletedAt,
      now: d.now?.() ?? Date.now(),
    });
    if (got.error !== undefined) totals.deleteErrors.push(got.error);
    estimate = Math.max(estimate, got.estimate);
    if (got.remaining === 0) continue;
    totals.remaining.set(r.resource, got.remaining);
    for (const [f, n] of got.finalizers) totals.finalizers.set(f, (totals.finalizers.get(f) ?? 0) + n);
  }
  await recordConditions(d, signal, { ns, totals });
  const err = aggregate(totals.deleteErrors);
  d.logger.v(4, 'namespace controller - deleteAllContent', {
    namespace,
    estimate,
    ...(err !== undefined ? { err: errorText(err) } : {}),
  });
  if (err !== undefined) throw err;
  return estimate;
}

/**
 * Delete: empties the named namespace if it is being deleted. Throws ResourcesRemainingError while
 * content is still going away; the caller calls again until this returns.
 */
export async function deleteNamespace(
  d: NamespacedResourcesDeleter,
  signal: AbortSignal,
  name: string,
): Promise<void> {
  let ns: Namespace;
  try {
    ns = (await d.client.namespaces.get(internalContext({ signal }), name, {})) as Namespace;
    if ((ns.metadata?.deletionTimestamp ?? '') === '') return;
    ns = await ensureTerminating(d, signal, ns);
  } catch (err) {
    if (isNotFound(err)) return;
    throw err;
  }
  if ((ns.spec?.finalizers ?? []).length === 0) return;
  const estimate = await deleteAllContent(d, signal, ns);
  if (estimate > 0) throw new ResourcesRemainingError(estimate);
  await finalizeNamespace(d, signal, ns);
}
