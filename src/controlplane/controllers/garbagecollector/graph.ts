// The garbage collector's dependency graph (kube's garbagecollector/graph.go): one node per object
// the collector has to think about, linked to the nodes of its owners, which know their dependents.
import type { OwnerReference } from '../../../api/meta.js';
import {
  finalizerDeleteDependents,
  finalizerOrphanDependents,
} from '../../../registry/generic/gc-finalizers.js';
import {
  blocksOwnerDeletion,
  ownerIdentity,
  referenceMatches,
  sameIdentity,
  type ObjectIdentity,
} from './identity.js';

/** What a watch event, a list or a live read tells the graph about one object. */
export interface ObservedObject {
  readonly identity: ObjectIdentity;
  readonly owners: readonly OwnerReference[];
  /** deletionTimestamp is set. */
  readonly beingDeleted: boolean;
  readonly finalizers: readonly string[];
}

export class GraphNode {
  identity: ObjectIdentity;
  owners: readonly OwnerReference[];
  readonly dependents = new Set<GraphNode>();
  /**
   * Seen through a watch or confirmed by a live read. A virtual node exists only because a
   * dependent names it; a worker looks it up before anything is decided about its dependents.
   */
  observed: boolean;
  beingDeleted = false;
  /** Being deleted in the foreground: waits for its blocking dependents to go. */
  deletingDependents = false;
  /** The last observation was a deletion held by the orphan finalizer (transitions start from it). */
  orphaning = false;
  /** The last observation was a deletion held by the foregroundDeletion finalizer. */
  foregrounding = false;

  constructor(init: { identity: ObjectIdentity; owners: readonly OwnerReference[]; observed: boolean }) {
    this.identity = init.identity;
    this.owners = init.owners;
    this.observed = init.observed;
  }

  get uid(): string {
    return this.identity.uid;
  }

  /** The dependents whose reference to this node has blockOwnerDeletion. */
  blockingDependents(): GraphNode[] {
    return [...this.dependents].filter((dep) =>
      dep.owners.some((ref) => ref.uid === this.uid && blocksOwnerDeletion(ref)),
    );
  }

  /** Nothing links to or from it and no deletion of it waits for the collector: it can leave the graph. */
  get idle(): boolean {
    return this.owners.length === 0 && this.dependents.size === 0 && !this.orphaning && !this.foregrounding;
  }
}

export const hasOrphanFinalizer = (o: ObservedObject): boolean =>
  o.finalizers.includes(finalizerOrphanDependents);
export const hasForegroundFinalizer = (o: ObservedObject): boolean =>
  o.finalizers.includes(finalizerDeleteDependents);

/**
 * Whether an object the graph has no node for needs one: it has owners, or its deletion waits for
 * the collector. Every other object is left out; when a dependent names it later, a virtual node
 * stands for it until a live read confirms it.
 */
export const needsNode = (o: ObservedObject): boolean =>
  o.owners.length > 0 || (o.beingDeleted && (hasOrphanFinalizer(o) || hasForegroundFinalizer(o)));

/** referencesDiffs: owner references added, removed, and changed (same uid) between two lists. */
export function referencesDiffs(
  old: readonly OwnerReference[],
  next: readonly OwnerReference[],
): { added: OwnerReference[]; removed: OwnerReference[]; changed: [OwnerReference, OwnerReference][] } {
  const before = new Map(old.map((r) => [r.uid, r]));
  const added: OwnerReference[] = [];
  const changed: [OwnerReference, OwnerReference][] = [];
  for (const ref of next) {
    const was = before.get(ref.uid);
    if (was === undefined) added.push(ref);
    else {
      if (!sameReference(was, ref)) changed.push([was, ref]);
      before.delete(ref.uid);
    }
  }
  return { added, removed: [...before.values()], changed };
}

function sameReference(a: OwnerReference, b: OwnerReference): boolean {
  return (
    a.apiVersion === b.apiVersion &&
    a.kind === b.kind &&
    a.name === b.name &&
    a.uid === b.uid &&
    a.controller === b.controller &&
    a.blockOwnerDeletion === b.blockOwnerDeletion
  );
}

/**
 * partitionDependents: the dependents whose reference to `owner.uid` matches its coordinates, and
 * those with one that does not (or living in another namespace than a namespaced owner).
 */
export function partitionDependents(
  dependents: Iterable<GraphNode>,
  owner: ObjectIdentity,
): { matching: GraphNode[]; nonmatching: GraphNode[] } {
  const matching: GraphNode[] = [];
  const nonmatching: GraphNode[] = [];
  for (const dep of dependents) {
    if (owner.namespace !== '' && owner.namespace !== dep.identity.namespace) {
      nonmatching.push(dep);
      continue;
    }
    const refs = dep.owners.filter((r) => r.uid === owner.uid);
    if (refs.some((r) => referenceMatches(r, owner))) matching.push(dep);
    if (refs.some((r) => !referenceMatches(r, owner))) nonmatching.push(dep);
  }
  return { matching, nonmatching };
}

const orderKey = (id: ObjectIdentity): string[] => [id.kind, id.apiVersion, id.namespace, id.name, id.uid];

function lessThan(a: ObjectIdentity, b: ObjectIdentity): boolean {
  const ka = orderKey(a);
  const kb = orderKey(b);
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return (ka[i] ?? '') < (kb[i] ?? '');
  return false;
}

/**
 * getAlternateOwnerIdentity: another identity the dependents give the owner found absent, the
 * first following it in kube's order (kind, apiVersion, namespace, name), else the first.
 */
export function alternateOwnerIdentity(
  dependents: readonly GraphNode[],
  absent: ObjectIdentity,
): ObjectIdentity | undefined {
  const clusterScoped = absent.namespace === '';
  const candidates: ObjectIdentity[] = [];
  for (const dep of dependents) {
    for (const ref of dep.owners) {
      if (ref.uid !== absent.uid) continue;
      if (referenceMatches(ref, absent) && (clusterScoped || absent.namespace === dep.identity.namespace))
        continue;
      const sameKind = ref.apiVersion === absent.apiVersion && ref.kind === absent.kind;
      const id = ownerIdentity(ref, clusterScoped && sameKind ? '' : dep.identity.namespace);
      if (!sameIdentity(id, absent) && !candidates.some((c) => sameIdentity(c, id))) candidates.push(id);
    }
  }
  candidates.sort((a, b) => (lessThan(a, b) ? -1 : lessThan(b, a) ? 1 : 0));
  return candidates.find((c) => lessThan(absent, c)) ?? candidates[0];
}
