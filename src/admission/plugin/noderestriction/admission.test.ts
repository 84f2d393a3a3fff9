// NodeRestriction's admit and deny cases with kube's messages, over in-memory readers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta.js';
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { newNotFound } from '../../../machinery/errors/index.js';
import type { Getter } from '../../../registry/rest/capabilities.js';
import { testContext } from '../../../registry/generic/testing/widgets.js';
import { attributesOf, type AttributesInit } from '../../testing/attributes.js';
import { newTestCSR } from '../../../registry/certificates/certificatesigningrequest/testing/csr-pem.js';
import { NodeRestriction } from './admission.js';

const nodeA = { name: 'system:node:node-a', groups: ['system:nodes'] };

function getter(resource: string, objects: readonly KubeObject[]): Getter {
  return {
    get: (ctx, name) => {
      const found = objects.find(
        (o) => o.metadata?.name === name && (o.metadata.namespace ?? '') === ctx.namespace,
      );
      return found === undefined
        ? Promise.reject(newNotFound({ group: '', resource }, name))
        : Promise.resolve(found);
    },
  };
}

const podOn = (name: string, nodeName: string): Pod => ({
  metadata: { namespace: 'default', name, uid: `uid-${name}` },
  spec: { nodeName, containers: [{ name: 'c', image: 'i' }] },
});

const plugin = new NodeRestriction({
  pods: getter('pods', [podOn('mine', 'node-a'), podOn('theirs', 'node-b')]),
  nodes: getter('nodes', [{ metadata: { name: 'node-a', uid: 'node-a-uid' } }]),
});

/** The refusal's message, or 'ok'. */
async function outcome(init: AttributesInit): Promise<string> {
  try {
    await plugin.admit(testContext(), attributesOf({ userInfo: nodeA, ...init }));
    return 'ok';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

const mirror = (over: Partial<Pod> = {}): Pod => ({
  metadata: {
    namespace: 'default',
    name: 'static',
    annotations: { 'kubernetes.io/config.mirror': 'x' },
    ownerReferences: [
      { apiVersion: 'v1', kind: 'Node', name: 'node-a', uid: 'node-a-uid', controller: true },
    ],
  },
  spec: { nodeName: 'node-a', containers: [{ name: 'c', image: 'i' }] },
  ...over,
});

describe('NodeRestriction admission', () => {
  it('lets other users pass and refuses a node it cannot name', async () => {
    assert.equal(
      await outcome({ userInfo: { name: 'jane', groups: [] }, operation: 'DELETE', name: 'theirs' }),
      'ok',
    );
    assert.equal(
      await outcome({
        userInfo: { name: 'system:node:', groups: ['system:nodes'] },
        operation: 'DELETE',
        name: 'x',
      }),
      'pods "x" is forbidden: could not determine node from user "system:node:"',
    );
  });

  it('creates only mirror pods bound to and owned by the node, naming nothing else', async () => {
    const create = (pod: Pod) => outcome({ name: 'static', object: pod });
    assert.equal(await create(mirror()), 'ok');
    assert.equal(
      await create({ ...mirror(), metadata: { namespace: 'default', name: 'static' } }),
      'pods "static" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "node-a" can only create mirror pods',
    );
    assert.equal(
      await create(mirror({ spec: { nodeName: 'node-b', containers: [] } })),
      'pods "static" is forbidden: node "node-a" can only create pods with spec.nodeName set to itself',
    );
    const withOwner = (uid: string): Pod => {
      const p = mirror();
      return {
        ...p,
        metadata: {
          ...p.metadata,
          ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'node-a', uid, controller: true }],
        },
      };
    };
    assert.equal(
      await create(withOwner('other')),
      'pods "static" is forbidden: node node-a UID mismatch: expected node-a-uid got other',
    );
    assert.equal(
      await create(
        mirror({
          spec: { nodeName: 'node-a', containers: [], volumes: [{ name: 'v', secret: { secretName: 's' } }] },
        }),
      ),
      'pods "static" is forbidden: node "node-a" can not create pods that reference secrets',
    );
    assert.equal(
      await create(mirror({ spec: { nodeName: 'node-a', containers: [], serviceAccountName: 'sa' } })),
      'pods "static" is forbidden: node "node-a" can not create pods that reference a service account',
    );
  });

  it('deletes, evicts and updates the status of its own pods only', async () => {
    assert.equal(await outcome({ operation: 'DELETE', name: 'mine' }), 'ok');
    assert.equal(
      await outcome({ operation: 'DELETE', name: 'theirs' }),
      'pods "theirs" is forbidden: node "node-a" can only delete pods with spec.nodeName set to itself',
    );
    assert.equal(await outcome({ operation: 'DELETE', name: 'gone' }), 'pods "gone" not found');
    assert.equal(
      await outcome({ operation: 'UPDATE', name: 'mine', object: podOn('mine', 'node-a') }),
      'pods "mine" is forbidden: unexpected operation "UPDATE", node "node-a" can only create and delete mirror pods',
    );
    const eviction = { metadata: { name: 'theirs' } };
    assert.equal(
      await outcome({ subresource: 'eviction', name: 'theirs', object: eviction }),
      'pods "theirs" is forbidden: node node-a can only evict pods with spec.nodeName set to itself',
    );
    assert.equal(await outcome({ subresource: 'eviction', name: 'mine', object: eviction }), 'ok');
    const labelled: Pod = { ...podOn('mine', 'node-a'), metadata: { name: 'mine', labels: { a: 'b' } } };
    assert.equal(
      await outcome({
        operation: 'UPDATE',
        subresource: 'status',
        name: 'mine',
        oldObject: podOn('mine', 'node-a'),
        object: labelled,
      }),
      'pods "mine" is forbidden: node "node-a" cannot update labels through pod status',
    );
    assert.equal(
      await outcome({
        operation: 'UPDATE',
        subresource: 'status',
        name: 'theirs',
        oldObject: podOn('theirs', 'node-b'),
        object: podOn('theirs', 'node-b'),
      }),
      'pods "theirs" is forbidden: node "node-a" can only update pod status for pods with spec.nodeName set to itself',
    );
    assert.equal(
      await outcome({ subresource: 'binding', name: 'mine' }),
      `pods "mine" is forbidden: unexpected pod subresource "binding", only 'status' and 'eviction' are allowed`,
    );
  });

  it('writes only its own Node, without new taints, owners or restricted labels', async () => {
    const nodes = (init: AttributesInit) =>
      outcome({ resource: 'nodes', kind: 'Node', namespace: '', ...init });
    const node = (labels: Record<string, string> = {}, taints: Node['spec'] = {}): Node => ({
      metadata: { name: 'node-a', labels },
      spec: taints,
    });
    assert.equal(
      await nodes({ operation: 'UPDATE', name: 'node-b', object: node(), oldObject: node() }),
      'nodes "node-b" is forbidden: node "node-a" is not allowed to modify node "node-b"',
    );
    assert.equal(
      await nodes({
        name: 'node-a',
        object: node({ 'kubernetes.io/hostname': 'a', 'node.kubernetes.io/x': 'y' }),
      }),
      'ok',
    );
    assert.equal(
      await nodes({
        name: 'node-a',
        object: node({ 'node-restriction.kubernetes.io/pool': 'a', 'k8s.io/x': 'y', 'example.com/ok': '1' }),
      }),
      'nodes "node-a" is forbidden: node "node-a" is not allowed to set the following labels: k8s.io/x, node-restriction.kubernetes.io/pool',
    );
    assert.equal(
      await nodes({
        operation: 'UPDATE',
        name: 'node-a',
        object: node({}, { taints: [{ key: 'k', effect: 'NoSchedule' }] }),
        oldObject: node(),
      }),
      'nodes "node-a" is forbidden: node "node-a" is not allowed to modify taints',
    );
    assert.equal(
      await nodes({
        operation: 'UPDATE',
        name: 'node-a',
        object: node({ 'x.kubernetes.io/role': 'a' }),
        oldObject: node(),
      }),
      'nodes "node-a" is forbidden: is not allowed to modify labels: x.kubernetes.io/role',
    );
    assert.equal(
      await nodes({ operation: 'UPDATE', name: 'node-a', object: node({ mine: 'x' }), oldObject: node() }),
      'ok',
    );
  });

  it('touches only its own Lease and CSINode, and only PVC status', async () => {
    const lease = (init: AttributesInit) =>
      outcome({
        group: 'coordination.k8s.io',
        resource: 'leases',
        kind: 'Lease',
        namespace: 'kube-node-lease',
        ...init,
      });
    assert.equal(await lease({ name: 'node-a', object: { metadata: { name: 'node-a' } } }), 'ok');
    assert.equal(
      await lease({ name: 'node-b', object: { metadata: { name: 'node-b' } } }),
      'leases.coordination.k8s.io "node-b" is forbidden: can only access node lease with the same name as the requesting node',
    );
    assert.equal(
      await lease({ operation: 'UPDATE', name: 'node-a', namespace: 'default' }),
      'leases.coordination.k8s.io "node-a" is forbidden: can only access leases in the "kube-node-lease" system namespace',
    );
    assert.equal(
      await outcome({
        group: 'storage.k8s.io',
        resource: 'csinodes',
        namespace: '',
        operation: 'DELETE',
        name: 'node-b',
      }),
      'csinodes.storage.k8s.io "node-b" is forbidden: can only access CSINode with the same name as the requesting node',
    );
    assert.equal(
      await outcome({ resource: 'persistentvolumeclaims', operation: 'UPDATE', name: 'c' }),
      'persistentvolumeclaims "c" is forbidden: may only update PVC status',
    );
    const pvc = (labels: Record<string, string>, capacity: string) => ({
      metadata: { name: 'c', labels },
      status: { capacity: { storage: capacity } },
    });
    const status = (o: KubeObject, n: KubeObject) =>
      outcome({
        resource: 'persistentvolumeclaims',
        subresource: 'status',
        operation: 'UPDATE',
        name: 'c',
        oldObject: o,
        object: n,
      });
    assert.equal(await status(pvc({}, '1Gi'), pvc({}, '2Gi')), 'ok');
    assert.match(
      await status(pvc({}, '1Gi'), pvc({ a: 'b' }, '1Gi')),
      /^persistentvolumeclaims "c" is forbidden: node "node-a" is not allowed to update fields other than status\.quantity and status\.conditions: /,
    );
  });

  it('asks for tokens only bound to its own pods, by uid', async () => {
    const token = (boundObjectRef: Record<string, string> | null) =>
      outcome({
        resource: 'serviceaccounts',
        subresource: 'token',
        name: 'default',
        object: { spec: { boundObjectRef } },
      });
    assert.equal(
      await token(null),
      'serviceaccounts "default" is forbidden: node requested token not bound to a pod',
    );
    assert.equal(
      await token({ apiVersion: 'v1', kind: 'Pod', name: 'mine' }),
      'serviceaccounts "default" is forbidden: node requested token with a pod binding without a uid',
    );
    assert.equal(
      await token({ apiVersion: 'v1', kind: 'Pod', name: 'theirs', uid: 'uid-theirs' }),
      'serviceaccounts "default" is forbidden: node requested token bound to a pod scheduled on a different node',
    );
    assert.equal(
      await token({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'old' }),
      'serviceaccounts "default" is forbidden: the UID in the bound object reference (old) does not match the UID in record. The object might have been deleted and then recreated',
    );
    // No volume of the pod uses the default audience and no authorizer allows it.
    assert.equal(
      await token({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'uid-mine' }),
      'serviceaccounts "default" is forbidden: audience "" not found in pod spec volume, system:node:node-a is not authorized to request tokens for this audience',
    );
  });

  it('creates kubelet CSRs only for its own name', async () => {
    const csr = (signerName: string, cn: string) =>
      outcome({
        group: 'certificates.k8s.io',
        resource: 'certificatesigningrequests',
        namespace: '',
        name: 'csr-1',
        object: { spec: { signerName, request: newTestCSR(cn, 'system:nodes').request } },
      });
    assert.equal(await csr('kubernetes.io/kube-apiserver-client-kubelet', 'system:node:node-a'), 'ok');
    assert.equal(
      await csr('kubernetes.io/kubelet-serving', 'system:node:node-b'),
      'certificatesigningrequests.certificates.k8s.io "csr-1" is forbidden: can only create a node CSR with CN=system:node:node-a',
    );
    assert.equal(await csr('example.com/other', 'system:node:node-b'), 'ok');
  });
});
