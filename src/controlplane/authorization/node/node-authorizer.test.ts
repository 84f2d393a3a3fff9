// The Node authorizer's decisions with kube's reasons, over a graph fed the way the populator
// feeds it (pods through the tracker, PVs and attachments by name).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { AuthorizationAttributes } from '../../../registry/rest/authorizer.js';
import { Graph } from './graph.js';
import { NodeAuthorizer } from './node-authorizer.js';
import { nodeRules } from './node-rules.js';
import { PodTracker } from './pod-tracker.js';

const nodeA = { name: 'system:node:node-a', groups: ['system:nodes', 'system:authenticated'] };

function pod(name: string, nodeName: string, spec: Partial<NonNullable<Pod['spec']>> = {}): Pod {
  return {
    metadata: { namespace: 'ns', name, uid: `uid-${name}` },
    spec: { nodeName, containers: [{ name: 'c', image: 'i' }], ...spec },
  };
}

function setup(): { graph: Graph; pods: PodTracker; authz: NodeAuthorizer } {
  const graph = new Graph();
  const pods = new PodTracker(graph);
  pods.update(
    pod('web', 'node-a', {
      serviceAccountName: 'web-sa',
      volumes: [
        { name: 'v', secret: { secretName: 'mine' } },
        { name: 'c', configMap: { name: 'cfg' } },
        { name: 'd', persistentVolumeClaim: { claimName: 'data' } },
      ],
    }),
  );
  pods.update(pod('db', 'node-b', { volumes: [{ name: 'v', secret: { secretName: 'theirs' } }] }));
  graph.addPV({
    name: 'pv-data',
    claim: { namespace: 'ns', name: 'data' },
    secrets: [{ namespace: 'ns', name: 'pv-secret' }],
  });
  graph.addNodeBound('volumeattachment', 'va-a', 'node-a');
  graph.addNodeBound('volumeattachment', 'va-b', 'node-b');
  return { graph, pods, authz: new NodeAuthorizer({ graph, rules: nodeRules() }) };
}

const req = (over: Partial<AuthorizationAttributes>): AuthorizationAttributes => ({
  user: nodeA,
  verb: 'get',
  resourceRequest: true,
  apiGroup: '',
  namespace: 'ns',
  ...over,
});
const noRelation = {
  decision: 'NoOpinion',
  reason: "no relationship found between node 'node-a' and this object",
};
const allowed = { decision: 'Allow', reason: '' };

describe('Node authorizer', () => {
  it('has no opinion on users that are not nodes, and names a node it cannot identify', async () => {
    const { authz } = setup();
    const get = req({ resource: 'secrets', name: 'mine' });
    assert.deepEqual(await authz.authorize({ ...get, user: { name: 'jane', groups: [] } }), {
      decision: 'NoOpinion',
      reason: '',
    });
    // The name alone is not enough: the group must say node too.
    assert.equal(
      (await authz.authorize({ ...get, user: { name: 'system:node:node-a', groups: [] } })).reason,
      '',
    );
    assert.deepEqual(
      await authz.authorize({ ...get, user: { name: 'system:node:', groups: ['system:nodes'] } }),
      {
        decision: 'NoOpinion',
        reason: 'unknown node for user "system:node:"',
      },
    );
  });

  it('reads the secrets, config maps, claims and volumes of its pods and nothing else', async () => {
    const { authz } = setup();
    const decide = (o: Partial<AuthorizationAttributes>) => authz.authorize(req(o));
    assert.deepEqual(await decide({ resource: 'secrets', name: 'mine' }), allowed);
    assert.deepEqual(await decide({ resource: 'secrets', name: 'mine', verb: 'watch' }), allowed);
    assert.deepEqual(await decide({ resource: 'secrets', name: 'theirs' }), noRelation);
    assert.deepEqual(await decide({ resource: 'secrets', name: 'unknown' }), noRelation);
    assert.deepEqual(await decide({ resource: 'configmaps', name: 'cfg' }), allowed);
    assert.deepEqual(await decide({ resource: 'persistentvolumeclaims', name: 'data' }), allowed);
    assert.deepEqual(
      await decide({ resource: 'persistentvolumes', name: 'pv-data', namespace: '' }),
      allowed,
    );
    assert.deepEqual(await decide({ resource: 'secrets', name: 'pv-secret' }), allowed);
    assert.deepEqual(
      await decide({
        apiGroup: 'storage.k8s.io',
        resource: 'volumeattachments',
        name: 'va-a',
        namespace: '',
      }),
      allowed,
    );
    assert.deepEqual(
      await decide({
        apiGroup: 'storage.k8s.io',
        resource: 'volumeattachments',
        name: 'va-b',
        namespace: '',
      }),
      noRelation,
    );
  });

  it('refuses other verbs and shapes with kube reasons', async () => {
    const { authz } = setup();
    const reason = async (o: Partial<AuthorizationAttributes>): Promise<string> =>
      (await authz.authorize(req(o))).reason;
    assert.equal(await reason({ resource: 'secrets', verb: 'list' }), 'No Object name found');
    assert.equal(
      await reason({ resource: 'secrets', verb: 'update', name: 'mine' }),
      'can only read resources of this type',
    );
    assert.equal(
      await reason({ resource: 'secrets', name: 'mine', subresource: 'x' }),
      'cannot read subresource',
    );
    assert.equal(
      await reason({ resource: 'configmaps', name: 'cfg', namespace: '' }),
      'can only read namespaced object of this type',
    );
    assert.equal(
      await reason({ resource: 'persistentvolumes', verb: 'list', namespace: '' }),
      'can only get individual resources of this type',
    );
    assert.equal(
      await reason({ resource: 'persistentvolumeclaims', name: 'data', subresource: 'status', verb: 'get' }),
      'can only get/update/patch this type',
    );
    assert.deepEqual(
      await authz.authorize(
        req({ resource: 'persistentvolumeclaims', name: 'data', subresource: 'status', verb: 'patch' }),
      ),
      allowed,
    );
  });

  it('creates tokens only for the service accounts of its pods', async () => {
    const { authz } = setup();
    const token = (name: string) =>
      req({ resource: 'serviceaccounts', subresource: 'token', verb: 'create', name });
    assert.deepEqual(await authz.authorize(token('web-sa')), allowed);
    assert.deepEqual(await authz.authorize(token('default')), noRelation);
    assert.equal(
      (await authz.authorize(req({ resource: 'serviceaccounts', name: 'web-sa' }))).reason,
      'not allowed to get service accounts',
    );
    assert.equal(
      (await authz.authorize(req({ resource: 'serviceaccounts', verb: 'create', name: 'web-sa' }))).reason,
      'can only create token subresource of serviceaccount',
    );
  });

  it('reads only its own Node and lists pods only by spec.nodeName', async () => {
    const { authz } = setup();
    const nodes = (o: Partial<AuthorizationAttributes>) =>
      authz.authorize(req({ resource: 'nodes', namespace: '', ...o }));
    assert.deepEqual(await nodes({ name: 'node-a' }), allowed);
    assert.deepEqual(await nodes({ name: 'node-b' }), {
      decision: 'NoOpinion',
      reason: "node 'node-a' cannot read 'node-b', only its own Node object",
    });
    assert.equal(
      (await nodes({ verb: 'list' })).reason,
      "node 'node-a' cannot read all nodes, only its own Node object",
    );
    assert.deepEqual(await nodes({ verb: 'patch', name: 'node-b' }), allowed);
    assert.deepEqual(await nodes({ verb: 'delete', name: 'node-a' }), { decision: 'NoOpinion', reason: '' });
    const pods = (o: Partial<AuthorizationAttributes>) => authz.authorize(req({ resource: 'pods', ...o }));
    assert.deepEqual(
      await pods({ verb: 'list', namespace: '', fieldSelector: 'spec.nodeName=node-a' }),
      allowed,
    );
    assert.equal(
      (await pods({ verb: 'watch', namespace: '', fieldSelector: 'spec.nodeName=node-b' })).reason,
      'can only list/watch pods with spec.nodeName field selector',
    );
    assert.deepEqual(await pods({ name: 'web' }), allowed);
    assert.deepEqual(await pods({ name: 'db' }), noRelation);
    assert.deepEqual(await pods({ verb: 'create', subresource: 'eviction', name: 'db' }), allowed);
  });

  it('limits leases and CSINodes to its own name', async () => {
    const { authz } = setup();
    const lease = (o: Partial<AuthorizationAttributes>) =>
      authz.authorize(
        req({ apiGroup: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease', ...o }),
      );
    assert.deepEqual(await lease({ verb: 'update', name: 'node-a' }), allowed);
    assert.deepEqual(await lease({ verb: 'create' }), allowed);
    assert.equal(
      (await lease({ name: 'node-a', namespace: 'default' })).reason,
      'can only access leases in the "kube-node-lease" system namespace',
    );
    assert.equal(
      (await lease({ name: 'node-b' })).reason,
      'can only access node lease with the same name as the requesting node',
    );
    assert.equal(
      (await lease({ verb: 'list' })).reason,
      'can only get, create, update, patch, or delete a node lease',
    );
    const csi = (o: Partial<AuthorizationAttributes>) =>
      authz.authorize(req({ apiGroup: 'storage.k8s.io', resource: 'csinodes', namespace: '', ...o }));
    assert.deepEqual(await csi({ name: 'node-a' }), allowed);
    assert.equal(
      (await csi({ name: 'node-b' })).reason,
      'can only access CSINode with the same name as the requesting node',
    );
  });

  it('applies the system:node rules to the resources it does not subdivide', async () => {
    const { authz } = setup();
    assert.deepEqual(await authz.authorize(req({ resource: 'services', verb: 'list' })), allowed);
    assert.deepEqual(await authz.authorize(req({ resource: 'events', verb: 'create' })), allowed);
    assert.deepEqual(
      await authz.authorize(req({ apiGroup: 'apps', resource: 'deployments', verb: 'list' })),
      {
        decision: 'NoOpinion',
        reason: '',
      },
    );
    assert.deepEqual(await authz.rulesFor(nodeA), {
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: 'node authorizer does not support user rule resolution',
    });
  });

  it('forgets what a deleted pod related, and leaves mirror pods without references', async () => {
    const { authz, pods, graph } = setup();
    const web = pod('web', 'node-a');
    pods.replace([pod('db', 'node-b', { volumes: [{ name: 'v', secret: { secretName: 'theirs' } }] })]);
    assert.deepEqual(await authz.authorize(req({ resource: 'secrets', name: 'mine' })), noRelation);
    assert.equal(graph.has('pod', 'ns', web.metadata?.name ?? ''), false);
    pods.update({
      ...pod('static', 'node-a', { volumes: [{ name: 'v', secret: { secretName: 'mirror-secret' } }] }),
      metadata: { namespace: 'ns', name: 'static', annotations: { 'kubernetes.io/config.mirror': 'x' } },
    });
    assert.deepEqual(await authz.authorize(req({ resource: 'pods', name: 'static' })), allowed);
    assert.deepEqual(await authz.authorize(req({ resource: 'secrets', name: 'mirror-secret' })), noRelation);
  });
});
