// Keeps the dependency graph current and says what to look at (processGraphChanges and its helpers
// in kube's garbagecollector/graph_builder.go): observations of objects update their nodes and
// links; a new owner name makes a virtual node to look up; a deletion starting with the orphan or
// foregroundDeletion finalizer, an owner gone, or a blocking reference dropped queues work for the
// collector's workers. Runs synchronously, inside the watch callbacks and after the workers' reads.
import type { OwnerReference } from '../../../api/meta.js';
import type { AbsentOwnerCache } from './absent-owner-cache.js';
import {
  alternateOwnerIdentity,
  hasForegroundFinalizer,
  hasOrphanFinalizer,
  needsNode,
  partitionDependents,
  referencesDiffs,
  GraphNode,
  type ObservedObject,
} from './graph.js';
import {
  blocksOwnerDeletion,
  ownerIdentity,
  referenceMatches,
  sameIdentity,
  type ObjectIdentity,
} from './identity.js';

/** Where the graph sends work. */
export interface GraphSink {
  attemptToDelete(uid: string): void;
  /** After the queue's backoff for the key. */
  attemptToDeleteLater(uid: string): void;
  attemptToOrphan(uid: string): void;
  /** A dependent names an owner that lives in another namespace (kube's OwnerRefInvalidNamespace). */
  invalidNamespaceOwnerRef(dependent: GraphNode, ownerUID: string): void;
  readonly absentOwners: AbsentOwnerCache;
}

const groupKindOf = (id: { apiVersion: string; kind: string }): string => {
  const slash = id.apiVersion.indexOf('/');
  return `${slash < 0 ? '' : id.apiVersion.slice(0, slash)}/${id.kind}`;
};

export class GraphBuilder {
  readonly #nodes = new Map<string, GraphNode>();
  /** How many nodes there are of each group and kind. */
  readonly #kinds = new Map<string, number>();
  readonly #sink: GraphSink;

  constructor(sink: GraphSink) {
    this.#sink = sink;
  }

  get size(): number {
    return this.#nodes.size;
  }

  node(uid: string): GraphNode | undefined {
    return this.#nodes.get(uid);
  }

  nodes(): IterableIterator<GraphNode> {
    return this.#nodes.values();
  }

  /** Whether any node is of this group and kind (whatever the version). */
  hasKind(id: { apiVersion: string; kind: string }): boolean {
    return (this.#kinds.get(groupKindOf(id)) ?? 0) > 0;
  }

  /** An object added or changed (a watch event, or a list item). */
  observe(o: ObservedObject): void {
    let node = this.#nodes.get(o.identity.uid);
    if (node !== undefined && !node.observed) this.confirm(node, o.identity);
    if (node === undefined) {
      if (!needsNode(o)) return;
      node = new GraphNode({ identity: o.identity, owners: o.owners, observed: true });
      node.beingDeleted = o.beingDeleted;
      node.deletingDependents = o.beingDeleted && hasForegroundFinalizer(o);
      this.#insert(node);
      this.#addDependentToOwners(node, o.owners);
      this.#processTransitions(node, o);
      return;
    }
    if (node.identity.apiVersion !== o.identity.apiVersion || node.identity.kind !== o.identity.kind)
      this.#setIdentity(node, { ...node.identity, apiVersion: o.identity.apiVersion, kind: o.identity.kind });
    const { added, removed, changed } = referencesDiffs(node.owners, o.owners);
    if (added.length > 0 || removed.length > 0 || changed.length > 0) {
      this.#addUnblockedOwnersToDeleteQueue(removed, changed);
      node.owners = o.owners;
      this.#addDependentToOwners(node, added);
      this.#removeDependentFromOwners(node, removed);
    }
    if (o.beingDeleted) node.beingDeleted = true;
    this.#processTransitions(node, o);
    this.#pruneIfIdle(node);
  }

  /**
   * A node's object seen at `observed` (a watch or a live read): a virtual node becomes a real one,
   * and dependents that named it by other coordinates are looked at again.
   */
  confirm(node: GraphNode, observed: ObjectIdentity): void {
    if (!sameIdentity(node.identity, observed)) {
      const { nonmatching } = partitionDependents(node.dependents, observed);
      for (const dep of nonmatching) {
        if (observed.namespace !== '' && dep.identity.namespace !== observed.namespace)
          this.#sink.invalidNamespaceOwnerRef(dep, observed.uid);
        this.#sink.attemptToDelete(dep.uid);
      }
      this.#setIdentity(node, observed);
    }
    node.observed = true;
  }

  /** An object seen deleted by a watch. */
  observeDeleted(id: ObjectIdentity): void {
    const node = this.#nodes.get(id.uid);
    if (node !== undefined) this.#removeAndRequeue(node, id);
  }

  /**
   * A live read found the object at `id` absent (kube's virtual delete event). A node other
   * dependents know by other coordinates stays; the dependents that named `id` are looked at again.
   */
  virtualDelete(id: ObjectIdentity): void {
    const node = this.#nodes.get(id.uid);
    if (node === undefined) return;
    if (!node.observed) {
      const { matching, nonmatching } = partitionDependents(node.dependents, id);
      if (nonmatching.length > 0) {
        this.#requeueDependentsOfAbsent(id, matching);
        if (sameIdentity(node.identity, id)) {
          const alternate = alternateOwnerIdentity(nonmatching, id);
          if (alternate !== undefined) {
            this.#setIdentity(node, alternate);
            this.#sink.attemptToDeleteLater(node.uid);
          }
        }
        return;
      }
    } else if (!sameIdentity(node.identity, id)) {
      this.#requeueDependentsOfAbsent(id, partitionDependents(node.dependents, id).matching);
      return;
    }
    this.#removeAndRequeue(node, id);
  }

  /** The list of a resource no longer shows these nodes: a live read decides whether they are gone. */
  recheck(nodes: Iterable<GraphNode>): void {
    for (const node of nodes) {
      node.observed = false;
      this.#sink.attemptToDelete(node.uid);
    }
  }

  #requeueDependentsOfAbsent(id: ObjectIdentity, dependents: readonly GraphNode[]): void {
    if (dependents.length === 0) return;
    this.#sink.absentOwners.add(id);
    for (const dep of dependents) this.#sink.attemptToDelete(dep.uid);
  }

  #insert(node: GraphNode): void {
    this.#nodes.set(node.uid, node);
    this.#countKind(node, 1);
  }

  #delete(node: GraphNode): void {
    this.#nodes.delete(node.uid);
    this.#countKind(node, -1);
  }

  #setIdentity(node: GraphNode, id: ObjectIdentity): void {
    this.#countKind(node, -1);
    node.identity = id;
    this.#countKind(node, 1);
  }

  #countKind(node: GraphNode, delta: number): void {
    const key = groupKindOf(node.identity);
    const n = (this.#kinds.get(key) ?? 0) + delta;
    if (n > 0) this.#kinds.set(key, n);
    else this.#kinds.delete(key);
  }

  #removeAndRequeue(node: GraphNode, id: ObjectIdentity): void {
    this.#delete(node);
    const owners = node.owners.map((r) => this.#nodes.get(r.uid));
    this.#removeDependentFromOwners(node, node.owners);
    if (node.dependents.size > 0) this.#sink.absentOwners.add(id);
    for (const dep of node.dependents) this.#sink.attemptToDelete(dep.uid);
    // An owner deleting in the foreground may have been waiting for this one.
    for (const owner of owners)
      if (owner?.deletingDependents === true && this.#nodes.get(owner.uid) === owner)
        this.#sink.attemptToDelete(owner.uid);
  }

  /** Links the node to the owners `refs` name, making virtual nodes for the ones not known. */
  #addDependentToOwners(node: GraphNode, refs: readonly OwnerReference[]): void {
    let suspect = false;
    for (const ref of refs) {
      let owner = this.#nodes.get(ref.uid);
      if (owner === undefined) {
        owner = new GraphNode({
          identity: ownerIdentity(ref, node.identity.namespace),
          owners: [],
          observed: false,
        });
        this.#insert(owner);
        owner.dependents.add(node);
        // The workers look the owner up and delete the virtual node if it is not there.
        this.#sink.attemptToDelete(owner.uid);
        continue;
      }
      owner.dependents.add(node);
      if (suspect) continue;
      const ownerNamespace = owner.identity.namespace;
      if (ownerNamespace !== '' && ownerNamespace !== node.identity.namespace) {
        // A namespaced owner in another namespace cannot be this dependent's owner.
        if (owner.observed) this.#sink.invalidNamespaceOwnerRef(node, ref.uid);
        suspect = true;
      } else if (!referenceMatches(ref, owner.identity)) {
        suspect = true;
      } else if (ownerNamespace === '' && node.identity.namespace !== '' && !owner.observed) {
        // Possibly a namespaced owner named from a cluster-scoped object (kube issue 98040).
        suspect = true;
      }
    }
    // The workers check the references and delete the dependent if every owner is absent.
    if (suspect) this.#sink.attemptToDelete(node.uid);
  }

  #removeDependentFromOwners(node: GraphNode, refs: readonly OwnerReference[]): void {
    for (const ref of refs) {
      const owner = this.#nodes.get(ref.uid);
      if (owner === undefined) continue;
      owner.dependents.delete(node);
      this.#pruneIfIdle(owner);
    }
  }

  /** addUnblockedOwnersToDeleteQueue: an owner waiting in the foreground may be free to go. */
  #addUnblockedOwnersToDeleteQueue(
    removed: readonly OwnerReference[],
    changed: readonly [OwnerReference, OwnerReference][],
  ): void {
    const unblocked = [
      ...removed.filter(blocksOwnerDeletion),
      ...changed
        .filter(([was, now]) => blocksOwnerDeletion(was) && !blocksOwnerDeletion(now))
        .map(([, n]) => n),
    ];
    for (const ref of unblocked) if (this.#nodes.has(ref.uid)) this.#sink.attemptToDelete(ref.uid);
  }

  /** processTransitions: a deletion that starts waiting for the orphan or foreground finalizer. */
  #processTransitions(node: GraphNode, o: ObservedObject): void {
    const orphaning = o.beingDeleted && hasOrphanFinalizer(o);
    const foregrounding = o.beingDeleted && hasForegroundFinalizer(o);
    const startsOrphaning = orphaning && !node.orphaning;
    const startsForeground = foregrounding && !node.foregrounding;
    node.orphaning = orphaning;
    node.foregrounding = foregrounding;
    if (startsOrphaning) {
      this.#sink.attemptToOrphan(node.uid);
      return;
    }
    if (!startsForeground) return;
    node.deletingDependents = true;
    for (const dep of node.dependents) this.#sink.attemptToDelete(dep.uid);
    this.#sink.attemptToDelete(node.uid);
  }

  /** Drops a node nothing links to and nothing waits on (kube keeps them; this graph holds less). */
  #pruneIfIdle(node: GraphNode): void {
    if (node.idle && this.#nodes.get(node.uid) === node) this.#delete(node);
  }
}
