// The real kubectl against one Capstan process: `kubectl drain` evicts a node's pods through
// pods/eviction, which a PodDisruptionBudget holds back until its status allows the disruptions.
// Capstan runs no kubelet, so a bound pod's graceful deletion never finishes by itself: drain waits
// for the pods to disappear, so the successful drain passes --grace-period=0 (the eviction's
// deleteOptions), which deletes them at once; without it they stay Terminating (checked below).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { locateKubectl } from './support/kubectl.js';
import { kubectlSession } from './support/kubectl-session.js';

const nodeYaml = `apiVersion: v1
kind: Node
metadata:
  name: node1
status:
  conditions:
  - type: Ready
    status: "True"
`;

// The pods' owner: it must exist, or the garbage collector deletes the pods as dangling dependents.
const replicaSetYaml = `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web
  namespace: default
spec:
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: app
        image: nginx:1.25
`;

/** A pod bound to node1 and owned by the ReplicaSet (drain refuses unmanaged pods without --force). */
const podYaml = (name: string, ownerUID: string): string => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: default
  labels:
    app: web
  ownerReferences:
  - apiVersion: apps/v1
    kind: ReplicaSet
    name: web
    uid: ${ownerUID}
    controller: true
spec:
  nodeName: node1
  containers:
  - name: app
    image: nginx:1.25
`;

const pdbYaml = `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: web
  namespace: default
spec:
  minAvailable: 2
  selector:
    matchLabels:
      app: web
`;

const runningReady = JSON.stringify({
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
});

const budgetStatus = (disruptionsAllowed: number): string =>
  JSON.stringify({
    status: {
      observedGeneration: 1,
      disruptionsAllowed,
      currentHealthy: 2,
      desiredHealthy: 2,
      expectedPods: 2,
    },
  });

interface Budget {
  status: { disruptionsAllowed: number; disruptedPods?: Record<string, string> };
}

describe('kubectl drain against capstan: pods/eviction and PodDisruptionBudgets', () => {
  let capstan: CapstanProcess;
  let replicaSetUID = '';
  const { kubectl, ok } = kubectlSession(() => capstan.kubeconfigPath);
  const patchStatus = (kind: string, name: string, patch: string): Promise<string> =>
    ok(['patch', kind, name, '--subresource=status', '--type=merge', '-p', patch]);

  before(async () => {
    await locateKubectl();
    capstan = await startCapstanProcess();
    await ok(['create', '-f', '-'], nodeYaml);
    replicaSetUID = await ok(['create', '-f', '-', '-o', 'jsonpath={.metadata.uid}'], replicaSetYaml);
    for (const name of ['web-1', 'web-2']) {
      await ok(['create', '-f', '-'], podYaml(name, replicaSetUID));
      await patchStatus('pod', name, runningReady);
    }
    await ok(['create', '-f', '-'], pdbYaml);
    await patchStatus('pdb', 'web', budgetStatus(0));
  });

  after(async () => {
    await capstan.stop();
  });

  it('serves pods/eviction as policy/v1 Eviction in discovery', async () => {
    const list = JSON.parse(await ok(['get', '--raw', '/api/v1'])) as {
      resources: { name: string; group?: string; version?: string; kind: string; verbs: string[] }[];
    };
    const eviction = list.resources.find((r) => r.name === 'pods/eviction');
    assert.deepEqual(eviction && [eviction.group, eviction.version, eviction.kind, eviction.verbs], [
      'policy',
      'v1',
      'Eviction',
      ['create'],
    ]);
    const doc = JSON.parse(await ok(['get', '--raw', '/openapi/v3/api/v1'])) as {
      paths: Record<
        string,
        { post?: { requestBody?: { content: Record<string, { schema: { $ref: string } }> } } }
      >;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    const post = doc.paths['/api/v1/namespaces/{namespace}/pods/{name}/eviction']?.post;
    const ref = post?.requestBody?.content['*/*']?.schema.$ref;
    assert.equal(ref, '#/components/schemas/io.k8s.api.policy.v1.Eviction');
    const schema = doc.components.schemas['io.k8s.api.policy.v1.Eviction'];
    assert.deepEqual(Object.keys(schema?.properties ?? {}).sort(), [
      'apiVersion',
      'deleteOptions',
      'kind',
      'metadata',
    ]);
  });

  it('fails while the budget allows no disruption, with the budget message, and leaves the pods', async () => {
    const r = await kubectl(['drain', 'node1', '--ignore-daemonsets', '--timeout=5s', '--grace-period=0']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /node\/node1 cordoned/);
    assert.match(
      r.stderr,
      /error when evicting pods\/"web-[12]" -n "default" \(will retry after 5s\): Cannot evict pod as it would violate the pod's disruption budget\./,
    );
    assert.match(r.stderr, /global timeout reached: 5s/);
    assert.equal(await ok(['get', 'pods', '-o', 'name']), 'pod/web-1\npod/web-2\n');
    // The refusal carries kube's cause.
    const raw = await kubectl(
      ['create', '--raw', '/api/v1/namespaces/default/pods/web-1/eviction', '-f', '-'],
      JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'web-1' } }),
    );
    assert.equal(raw.code, 1);
    assert.match(raw.stderr, /Cannot evict pod as it would violate the pod's disruption budget/);
    const budget = JSON.parse(await ok(['get', 'pdb', 'web', '-o', 'json'])) as Budget;
    assert.equal(budget.status.disruptionsAllowed, 0);
    assert.equal(budget.status.disruptedPods, undefined);
  });

  it('drains once the budget allows two disruptions: the pods are gone and the budget charged', async () => {
    await patchStatus('pdb', 'web', budgetStatus(2));
    const out = await ok(['drain', 'node1', '--ignore-daemonsets', '--timeout=30s', '--grace-period=0']);
    assert.match(out, /evicting pod default\/web-1/);
    assert.match(out, /pod\/web-1 evicted/);
    assert.match(out, /pod\/web-2 evicted/);
    assert.match(out, /node\/node1 drained/);
    assert.equal(await ok(['get', 'pods', '-o', 'name']), '');
    const budget = JSON.parse(await ok(['get', 'pdb', 'web', '-o', 'json'])) as Budget;
    assert.equal(budget.status.disruptionsAllowed, 0);
    assert.deepEqual(Object.keys(budget.status.disruptedPods ?? {}).sort(), ['web-1', 'web-2']);
  });

  it('without --grace-period a bound pod is evicted but stays Terminating: no kubelet finishes it', async () => {
    await ok(['create', '-f', '-'], podYaml('web-3', replicaSetUID));
    await patchStatus('pod', 'web-3', runningReady);
    await patchStatus('pdb', 'web', budgetStatus(1));
    const r = await kubectl(['drain', 'node1', '--ignore-daemonsets', '--timeout=3s']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /evicting pod default\/web-3/);
    const pod = JSON.parse(await ok(['get', 'pod', 'web-3', '-o', 'json'])) as {
      metadata: { deletionTimestamp?: string; deletionGracePeriodSeconds?: number };
      status: { conditions: { type: string; status: string; reason?: string }[] };
    };
    assert.equal(typeof pod.metadata.deletionTimestamp, 'string');
    assert.equal(pod.metadata.deletionGracePeriodSeconds, 30);
    const target = pod.status.conditions.find((c) => c.type === 'DisruptionTarget');
    assert.deepEqual(target && [target.status, target.reason], ['True', 'EvictionByEvictionAPI']);
  });

  it('answers a direct eviction with a Success Status (201), taking a policy/v1beta1 Eviction too', async () => {
    const evict = (body: object): Promise<{ code: number; stdout: string; stderr: string }> =>
      kubectl(
        ['create', '--raw', '/api/v1/namespaces/default/pods/web-3/eviction', '-f', '-'],
        JSON.stringify(body),
      );
    const misnamed = await evict({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'web-1' } });
    assert.equal(misnamed.code, 1);
    assert.match(misnamed.stderr, /name in URL does not match name in Eviction object/);
    const otherGroup = await evict({ apiVersion: 'apps/v1', kind: 'Eviction', metadata: { name: 'web-3' } });
    assert.equal(otherGroup.code, 1);
    assert.match(otherGroup.stderr, /no kind "Eviction" is registered for version "apps\/v1"/);
    const out = await evict({
      apiVersion: 'policy/v1beta1',
      kind: 'Eviction',
      metadata: { name: 'web-3' },
      deleteOptions: { gracePeriodSeconds: 0 },
    });
    assert.equal(out.code, 0, out.stderr);
    const status = JSON.parse(out.stdout) as { kind: string; status: string; code: number };
    assert.deepEqual([status.kind, status.status, status.code], ['Status', 'Success', 201]);
    assert.equal(await ok(['get', 'pods', '-o', 'name']), '');
  });
});
