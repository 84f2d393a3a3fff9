import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OwnerReference } from '../../../api/meta.js';
import { AbsentOwnerCache } from './absent-owner-cache.js';
import { alternateOwnerIdentity, partitionDependents, type ObservedObject } from './graph.js';
import { GraphBuilder } from './graph-builder.js';
import type { ObjectIdentity } from './identity.js';

function recorder(): {
  graph: GraphBuilder;
  deletes: string[];
  later: string[];
  orphans: string[];
  invalid: [string, string][];
  absent: AbsentOwnerCache;
} {
  const deletes: string[] = [];
  const later: string[] = [];
  const orphans: string[] = [];
  const invalid: [string, string][] = [];
  const absent = new AbsentOwnerCache();
  const graph = new GraphBuilder({
    absentOwners: absent,
    attemptToDelete: (uid) => deletes.push(uid),
    attemptToDeleteLater: (uid) => later.push(uid),
    attemptToOrphan: (uid) => orphans.push(uid),
    invalidNamespaceOwnerRef: (dep, owner) => invalid.push([dep.uid, owner]),
  });
  return { graph, deletes, later, orphans, invalid, absent };
}

const cm = (name: string, uid: string, namespace = 'ns'): ObjectIdentity => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  name,
  uid,
  namespace,
});
const refTo = (id: ObjectIdentity, block = false): OwnerReference => ({
  apiVersion: id.apiVersion,
  kind: id.kind,
  name: id.name,
  uid: id.uid,
  ...(block ? { blockOwnerDeletion: true } : {}),
});
const seen = (
  identity: ObjectIdentity,
  more: Partial<Omit<ObservedObject, 'identity'>> = {},
): ObservedObject => ({ identity, owners: [], beingDeleted: false, finalizers: [], ...more });

describe('GraphBuilder', () => {
  it('leaves out objects without owners, and makes a virtual node for an owner a dependent names', () => {
    const { graph, deletes } = recorder();
    const owner = cm('owner', 'o');
    graph.observe(seen(owner));
    assert.equal(graph.size, 0);
    graph.observe(seen(cm('dep', 'd'), { owners: [refTo(owner)] }));
    assert.equal(graph.node('o')?.observed, false);
    assert.deepEqual(
      [...(graph.node('o')?.dependents ?? [])].map((n) => n.uid),
      ['d'],
    );
    assert.deepEqual(deletes, ['o']);
    assert.ok(graph.hasKind({ apiVersion: 'v1', kind: 'ConfigMap' }));
    graph.observe(seen(owner));
    assert.equal(graph.node('o')?.observed, true);
  });

  it('queues the dependents of a deleted owner and remembers the owner absent', () => {
    const { graph, deletes, absent } = recorder();
    const owner = cm('owner', 'o');
    graph.observe(seen(cm('a', 'a'), { owners: [refTo(owner)] }));
    graph.observe(seen(cm('b', 'b'), { owners: [refTo(owner)] }));
    deletes.length = 0;
    graph.observeDeleted(owner);
    assert.equal(graph.node('o'), undefined);
    assert.deepEqual(deletes.sort(), ['a', 'b']);
    assert.ok(absent.has(owner));
  });

  it('starts a foreground deletion once: dependents and owner queued, the owner deleting dependents', () => {
    const { graph, deletes } = recorder();
    const owner = cm('owner', 'o');
    graph.observe(seen(cm('dep', 'd'), { owners: [refTo(owner, true)] }));
    graph.observe(seen(owner));
    deletes.length = 0;
    const deleting = seen(owner, { beingDeleted: true, finalizers: ['foregroundDeletion'] });
    graph.observe(deleting);
    assert.deepEqual(deletes, ['d', 'o']);
    assert.equal(graph.node('o')?.deletingDependents, true);
    graph.observe(deleting);
    assert.deepEqual(deletes, ['d', 'o']);
    // The blocking dependent goes: the owner is looked at again.
    graph.observeDeleted(cm('dep', 'd'));
    assert.deepEqual(deletes, ['d', 'o', 'o']);
    assert.deepEqual(graph.node('o')?.blockingDependents(), []);
  });

  it('queues an orphaning deletion, even of an object that owns nothing yet', () => {
    const { graph, orphans } = recorder();
    graph.observe(seen(cm('owner', 'o'), { beingDeleted: true, finalizers: ['orphan'] }));
    assert.deepEqual(orphans, ['o']);
    assert.ok(graph.node('o') !== undefined);
  });

  it('lets a foreground owner go when a blocking reference is dropped or unblocked, and prunes what is idle', () => {
    const { graph, deletes } = recorder();
    const owner = cm('owner', 'o');
    const dep = cm('dep', 'd');
    graph.observe(seen(dep, { owners: [refTo(owner, true)] }));
    deletes.length = 0;
    graph.observe(seen(dep, { owners: [refTo(owner)] }));
    assert.deepEqual(deletes, ['o']);
    graph.observe(seen(dep));
    assert.equal(graph.node('d'), undefined, 'a node without owners or dependents leaves');
    assert.equal(graph.node('o'), undefined, 'so does an owner without dependents');
    assert.equal(graph.size, 0);
    assert.ok(!graph.hasKind({ apiVersion: 'v1', kind: 'ConfigMap' }));
  });

  it('reports a dependent naming an owner seen in another namespace, and queues it', () => {
    const { graph, deletes, invalid } = recorder();
    const owner = cm('owner', 'o', 'a');
    graph.observe(seen(cm('first', 'f', 'a'), { owners: [refTo(owner)] }));
    graph.observe(seen(owner, { finalizers: ['x'] }));
    deletes.length = 0;
    graph.observe(seen(cm('dep', 'd', 'b'), { owners: [refTo(owner)] }));
    assert.deepEqual(invalid, [['d', 'o']]);
    assert.deepEqual(deletes, ['d']);
  });

  it('replaces a virtual node confirmed elsewhere, reporting dependents in other namespaces', () => {
    const { graph, deletes, invalid } = recorder();
    const guessed = cm('owner', 'o', 'b');
    graph.observe(seen(cm('dep', 'd', 'b'), { owners: [refTo(guessed)] }));
    deletes.length = 0;
    const node = graph.node('o');
    assert.ok(node !== undefined);
    graph.confirm(node, cm('owner', 'o', 'a'));
    assert.deepEqual(invalid, [['d', 'o']]);
    assert.deepEqual(deletes, ['d']);
    assert.equal(graph.node('o')?.identity.namespace, 'a');
  });

  it('keeps a virtual node that other dependents name differently, trying their name next', () => {
    const { graph, deletes, later, absent } = recorder();
    const asCM = cm('owner', 'o');
    const asSecret: ObjectIdentity = { ...asCM, kind: 'Secret' };
    graph.observe(seen(cm('a', 'a'), { owners: [refTo(asCM)] }));
    graph.observe(seen(cm('b', 'b'), { owners: [refTo(asSecret)] }));
    deletes.length = 0;
    graph.virtualDelete(asCM);
    assert.deepEqual(deletes, ['a']);
    assert.ok(absent.has(asCM));
    assert.equal(graph.node('o')?.identity.kind, 'Secret');
    assert.deepEqual(later, ['o']);
    // Absent by that name too: the dependents naming it so are looked at; the node stays while
    // dependents name it otherwise (they go once found dangling).
    graph.virtualDelete(asSecret);
    assert.deepEqual(deletes, ['a', 'b']);
    assert.equal(graph.node('o')?.identity.kind, 'ConfigMap');
    graph.observeDeleted(cm('a', 'a'));
    graph.observeDeleted(cm('b', 'b'));
    assert.equal(graph.node('o'), undefined);
  });

  it('rechecks nodes a list no longer shows', () => {
    const { graph, deletes } = recorder();
    graph.observe(seen(cm('dep', 'd'), { owners: [refTo(cm('owner', 'o'))] }));
    deletes.length = 0;
    const node = graph.node('d');
    assert.ok(node !== undefined);
    graph.recheck([node]);
    assert.equal(node.observed, false);
    assert.deepEqual(deletes, ['d']);
  });
});

describe('partitionDependents and alternateOwnerIdentity', () => {
  it('split dependents by whether they name the owner as it is', () => {
    const { graph } = recorder();
    const owner = cm('owner', 'o', 'a');
    graph.observe(seen(cm('same', 's', 'a'), { owners: [refTo(owner)] }));
    graph.observe(seen(cm('renamed', 'r', 'a'), { owners: [{ ...refTo(owner), name: 'other' }] }));
    graph.observe(seen(cm('elsewhere', 'e', 'b'), { owners: [refTo(owner)] }));
    const deps = [...(graph.node('o')?.dependents ?? [])];
    const { matching, nonmatching } = partitionDependents(deps, owner);
    assert.deepEqual(
      matching.map((n) => n.uid),
      ['s'],
    );
    assert.deepEqual(nonmatching.map((n) => n.uid).sort(), ['e', 'r']);
    // The first identity following the absent one in kube's order (kind, apiVersion, namespace, name).
    assert.deepEqual(alternateOwnerIdentity(nonmatching, owner), cm('owner', 'o', 'b'));
    assert.deepEqual(alternateOwnerIdentity(nonmatching, cm('owner', 'o', 'c')), cm('other', 'o', 'a'));
  });
});
