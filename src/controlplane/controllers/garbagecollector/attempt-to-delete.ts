// What the collector's workers do with a node (attemptToDeleteItem, classifyReferences, isDangling,
// processDeletingDependentsItem and attemptToOrphanWorker in kube's garbagecollector.go): decide
// from live reads, never from the graph alone, whether an object's owners are all gone (delete it),
// some are (drop those references), or one waits for it in the foreground (delete it, in the
// foreground itself when it has dependents); let go of an owner waiting in the foreground once no
// blocking dependent is left; and orphan the dependents of an owner deleted with the orphan finalizer.
import type { KubeObject, OwnerReference } from '../../../api/meta.js';
import {
  finalizerDeleteDependents,
  finalizerOrphanDependents,
} from '../../../registry/generic/gc-finalizers.js';
import type { PropagationPolicy } from '../../../registry/rest/options.js';
import type { Logger } from '../../../server/logging/logger.js';
import type { AbsentOwnerCache } from './absent-owner-cache.js';
import type { GraphNode } from './graph.js';
import type { GraphBuilder } from './graph-builder.js';
import { identityString, ownerIdentity, type ObjectIdentity } from './identity.js';
import {
  isNotFound,
  NamespacedOwnerOfClusterScopedObjectError,
  RestMappingError,
  type Operations,
} from './operations.js';

export interface Collector {
  readonly graph: GraphBuilder;
  readonly ops: Operations;
  readonly absentOwners: AbsentOwnerCache;
  readonly attemptToDelete: (uid: string) => void;
  readonly logger: Logger;
}

export type Outcome = 'forget' | 'requeue';

interface Classified {
  readonly solid: OwnerReference[];
  readonly dangling: OwnerReference[];
  readonly waiting: OwnerReference[];
}

const current = (c: Collector, node: GraphNode): boolean => c.graph.node(node.uid) === node;

/** The identity a live read shows for a node: where the object really is. */
function seenAt(node: GraphNode, obj: KubeObject): ObjectIdentity {
  const meta = obj.metadata ?? {};
  return { ...node.identity, name: meta.name ?? node.identity.name, namespace: meta.namespace ?? '' };
}

/**
 * isDangling: whether the owner a reference names is absent (by the absent-owner cache, or a live
 * read in the dependent's namespace for a namespaced owner); the owner when it is there.
 */
async function isDangling(
  c: Collector,
  ref: OwnerReference,
  item: GraphNode,
): Promise<{ dangling: true } | { dangling: false; owner: KubeObject }> {
  const clusterKey = ownerIdentity(ref, '');
  const namespacedKey = ownerIdentity(ref, item.identity.namespace);
  if (c.absentOwners.has(clusterKey) || c.absentOwners.has(namespacedKey)) return { dangling: true };
  // Throws for a namespaced owner of a cluster-scoped dependent: that is never valid.
  const key = c.ops.target(namespacedKey).resource.namespaced ? namespacedKey : clusterKey;
  const owner = await c.ops.get(key);
  if (owner?.metadata?.uid !== ref.uid) {
    c.absentOwners.add(key);
    return { dangling: true };
  }
  return { dangling: false, owner };
}

async function classifyReferences(
  c: Collector,
  item: GraphNode,
  refs: readonly OwnerReference[],
): Promise<Classified> {
  const out: Classified = { solid: [], dangling: [], waiting: [] };
  for (const ref of refs) {
    const r = await isDangling(c, ref, item);
    if (r.dangling) out.dangling.push(ref);
    else if (
      (r.owner.metadata?.deletionTimestamp ?? '') !== '' &&
      (r.owner.metadata?.finalizers ?? []).includes(finalizerDeleteDependents)
    )
      out.waiting.push(ref);
    else out.solid.push(ref);
  }
  return out;
}

/** A kind's objects named like a virtual owner, in other namespaces: its dependents named it wrongly. */
async function locateElsewhere(c: Collector, node: GraphNode): Promise<boolean> {
  const found = (await c.ops.findByName(node.identity)).find((o) => o.metadata?.uid === node.uid);
  if (found === undefined || !current(c, node)) return false;
  c.graph.confirm(node, seenAt(node, found));
  return true;
}

/** The live object, or what to do when there is none (the node is removed from the graph). */
async function readLive(c: Collector, node: GraphNode): Promise<KubeObject | 'gone' | 'stale'> {
  let latest: KubeObject | undefined;
  try {
    latest = await c.ops.get(node.identity);
  } catch (err) {
    if (!(err instanceof NamespacedOwnerOfClusterScopedObjectError) || node.observed) throw err;
    await locateElsewhere(c, node);
    throw err;
  }
  if (!current(c, node)) return 'stale';
  if (latest?.metadata?.uid === node.uid) return latest;
  if (!node.observed && (await locateElsewhere(c, node))) return 'stale';
  if (current(c, node)) c.graph.virtualDelete(node.identity);
  return 'gone';
}

/** processDeletingDependentsItem. */
async function processDeletingDependents(c: Collector, node: GraphNode): Promise<void> {
  const blocking = node.blockingDependents();
  if (blocking.length === 0) {
    c.logger.v(2, 'remove DeleteDependents finalizer for item', { item: identityString(node.identity) });
    await c.ops.removeFinalizer(node.identity, finalizerDeleteDependents);
    return;
  }
  for (const dep of blocking) if (!dep.deletingDependents) c.attemptToDelete(dep.uid);
}

function policyFor(latest: KubeObject): PropagationPolicy {
  const finalizers = latest.metadata?.finalizers ?? [];
  if (finalizers.includes(finalizerOrphanDependents)) return 'Orphan';
  if (finalizers.includes(finalizerDeleteDependents)) return 'Foreground';
  return 'Background';
}

async function deleteItem(
  c: Collector,
  node: GraphNode,
  how: { latest: KubeObject; policy: PropagationPolicy },
): Promise<void> {
  const meta = how.latest.metadata ?? {};
  c.logger.v(2, 'Deleting item', { item: identityString(node.identity), propagationPolicy: how.policy });
  try {
    await c.ops.delete(node.identity, {
      policy: how.policy,
      resourceVersion: meta.resourceVersion ?? '',
      owners: meta.ownerReferences ?? [],
    });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    if (current(c, node)) c.graph.virtualDelete(node.identity);
  }
}

/** attemptToDeleteItem. */
async function attemptToDeleteItem(c: Collector, node: GraphNode): Promise<void> {
  // Being deleted is a one-way trip: its dependents are looked at once it is gone.
  if (node.beingDeleted && !node.deletingDependents) return;
  const latest = await readLive(c, node);
  if (latest === 'gone' || latest === 'stale') return;
  if (!node.observed) c.graph.confirm(node, seenAt(node, latest));
  if (node.deletingDependents) {
    await processDeletingDependents(c, node);
    return;
  }
  const refs = latest.metadata?.ownerReferences ?? [];
  if (refs.length === 0) return;
  const { solid, dangling, waiting } = await classifyReferences(c, node, refs);
  if (solid.length > 0) {
    if (dangling.length === 0 && waiting.length === 0) return;
    // Waiting references would keep their owners' foregroundDeletion finalizer for good.
    await c.ops.removeOwnerReferences(node.identity, new Set([...dangling, ...waiting].map((r) => r.uid)));
    return;
  }
  if (waiting.length > 0 && node.dependents.size > 0) {
    // A dependent waiting on this one in the foreground as well could be a cycle: stop blocking.
    if ([...node.dependents].some((d) => d.deletingDependents))
      await c.ops.unblockOwnerReferences(node.identity);
    await deleteItem(c, node, { latest, policy: 'Foreground' });
    return;
  }
  await deleteItem(c, node, { latest, policy: policyFor(latest) });
}

/** attemptToDeleteWorker: whether the key is done with or comes back after its backoff. */
export async function attemptToDeleteWorker(c: Collector, uid: string): Promise<Outcome> {
  const node = c.graph.node(uid);
  if (node === undefined) return 'forget';
  c.logger.v(4, 'Processing item', { item: identityString(node.identity), virtual: !node.observed });
  try {
    await attemptToDeleteItem(c, node);
  } catch (err) {
    if (err instanceof NamespacedOwnerOfClusterScopedObjectError) return 'forget';
    if (err instanceof RestMappingError)
      c.logger.v(2, 'error syncing item', { item: identityString(node.identity), err: err.message });
    else c.logger.error(`error syncing item ${identityString(node.identity)}`, err);
    return 'requeue';
  }
  return !node.observed && current(c, node) ? 'requeue' : 'forget';
}

/** attemptToOrphanWorker: drop the owner from its dependents' references, then its orphan finalizer. */
export async function attemptToOrphanWorker(c: Collector, uid: string): Promise<Outcome> {
  const owner = c.graph.node(uid);
  if (owner === undefined) return 'forget';
  const without = new Set([owner.uid]);
  const failures: string[] = [];
  await Promise.all(
    [...owner.dependents].map(async (dep) => {
      try {
        await c.ops.removeOwnerReferences(dep.identity, without);
      } catch (err) {
        if (!isNotFound(err))
          failures.push(`orphaning ${identityString(dep.identity)} failed, ${String(err)}`);
      }
    }),
  );
  try {
    if (failures.length > 0)
      throw new Error(
        `failed to orphan dependents of owner ${identityString(owner.identity)}, got errors: ${failures.join(', ')}`,
      );
    await c.ops.removeFinalizer(owner.identity, finalizerOrphanDependents);
  } catch (err) {
    c.logger.error(`orphaning the dependents of ${identityString(owner.identity)} failed`, err);
    return 'requeue';
  }
  return 'forget';
}
