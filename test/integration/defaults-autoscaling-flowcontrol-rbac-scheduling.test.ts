// The defaulting functions of autoscaling/v1 and v2, flowcontrol.apiserver.k8s.io/v1,
// rbac.authorization.k8s.io/v1 and scheduling.k8s.io/v1 (pkg/apis/<group>/<version>/defaults.go),
// one test each (docs/defaults-checklist.md): the value a body reads back with, on a create, a PUT
// and a protobuf body, and the request's manager owning it where the field is not inside an atomic
// struct or list, as kube's decoder adds it before the field manager runs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import {
  assertOwns,
  at,
  DefaultsClient,
  fieldsAt,
  owned,
  type JSONObject,
} from './support/defaults-calls.js';

let server: CapstanServer;
const client = new DefaultsClient(() => server);

const hpas = (version: string): string =>
  `/apis/autoscaling/${version}/namespaces/default/horizontalpodautoscalers`;
const hpa = (version: string, name: string, spec: JSONObject = {}, annotations?: Record<string, string>) => ({
  apiVersion: `autoscaling/${version}`,
  kind: 'HorizontalPodAutoscaler',
  metadata: { name, ...(annotations === undefined ? {} : { annotations }) },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    maxReplicas: 5,
    ...spec,
  },
});
const cpu80 = [
  { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
];
const scaleUpDefaults = {
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
};
const scaleDownPolicies = [{ type: 'Percent', value: 100, periodSeconds: 15 }];

const flowcontrol = '/apis/flowcontrol.apiserver.k8s.io/v1';
const limited = (name: string, limitedSpec: JSONObject): JSONObject => ({
  apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
  kind: 'PriorityLevelConfiguration',
  metadata: { name },
  spec: { type: 'Limited', limited: limitedSpec },
});
const queuing = (q: JSONObject): JSONObject => ({ limitResponse: { type: 'Queue', queuing: q } });

const rbac = '/apis/rbac.authorization.k8s.io/v1';
const subjects = [
  { kind: 'User', name: 'jane' },
  { kind: 'Group', name: 'devs' },
  { kind: 'ServiceAccount', name: 'robot', namespace: 'default' },
];
const defaultedSubjects = [
  { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' },
  { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' },
  { kind: 'ServiceAccount', name: 'robot', namespace: 'default' },
];

const priorityClasses = '/apis/scheduling.k8s.io/v1/priorityclasses';
const priorityClass = (name: string): JSONObject => ({
  apiVersion: 'scheduling.k8s.io/v1',
  kind: 'PriorityClass',
  metadata: { name },
  value: 1000,
});

/** `obj` as a PUT body for the object it was read back as. */
const putBody = (read: JSONObject, body: JSONObject): JSONObject => ({
  ...body,
  metadata: { ...(body['metadata'] as JSONObject), resourceVersion: at(read, 'metadata', 'resourceVersion') },
});

describe('autoscaling, flowcontrol, rbac and scheduling defaults', () => {
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
  });
  after(async () => {
    await server.stop();
  });

  it('SetDefaults_HorizontalPodAutoscaler (v2): minReplicas 1 and 80% CPU, on a create and a PUT', async () => {
    const created = await client.create(hpas('v2'), hpa('v2', 'v2'), 'creator');
    assert.equal(at(created, 'spec', 'minReplicas'), 1);
    assert.deepEqual(at(created, 'spec', 'metrics'), cpu80);
    assertOwns(fieldsAt(owned(created, 'creator'), 'f:spec'), ['minReplicas', 'metrics'], 'the create');
    const explicit = await client.replace(
      `${hpas('v2')}/v2`,
      putBody(created, hpa('v2', 'v2', { minReplicas: 3, metrics: [] })),
      'putter',
    );
    assert.equal(at(explicit, 'spec', 'minReplicas'), 3);
    assert.deepEqual(at(explicit, 'spec', 'metrics'), cpu80, 'an empty metrics list is defaulted too');
    const replaced = await client.replace(`${hpas('v2')}/v2`, putBody(explicit, hpa('v2', 'v2')), 'putter');
    assert.equal(at(replaced, 'spec', 'minReplicas'), 1);
  });

  it('SetDefaults_HorizontalPodAutoscalerBehavior (v2): the rules a behavior leaves out', async () => {
    const out = await client.create(
      hpas('v2'),
      hpa('v2', 'behavior', { behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } }),
      'creator',
    );
    assert.deepEqual(at(out, 'spec', 'behavior'), {
      scaleUp: scaleUpDefaults,
      scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: scaleDownPolicies },
    });
    const behavior = fieldsAt(owned(out, 'creator'), 'f:spec', 'f:behavior');
    assertOwns(
      fieldsAt(behavior, 'f:scaleUp'),
      ['stabilizationWindowSeconds', 'selectPolicy', 'policies'],
      'up',
    );
    assertOwns(fieldsAt(behavior, 'f:scaleDown'), ['selectPolicy', 'policies'], 'down');
    const none = await client.create(hpas('v2'), hpa('v2', 'no-behavior'), 'creator');
    assert.equal(at(none, 'spec', 'behavior'), undefined, 'no behavior, no rules');
  });

  it('SetDefaults_HorizontalPodAutoscaler (v2): a protobuf body', async () => {
    const out = await client.createProtobuf(
      hpas('v2'),
      'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler',
      hpa('v2', 'proto', { behavior: {} }),
      'proto',
    );
    assert.equal(at(out, 'spec', 'minReplicas'), 1);
    assert.deepEqual(at(out, 'spec', 'metrics'), cpu80);
    assert.deepEqual(at(out, 'spec', 'behavior', 'scaleUp'), scaleUpDefaults);
    assertOwns(fieldsAt(owned(out, 'proto'), 'f:spec'), ['minReplicas', 'metrics'], 'the protobuf body');
  });

  it("SetDefaults_HorizontalPodAutoscaler (v1): minReplicas 1, and the conversion's 80% CPU target", async () => {
    const out = await client.create(hpas('v1'), hpa('v1', 'v1'), 'creator');
    assert.equal(at(out, 'spec', 'minReplicas'), 1);
    assert.equal(at(out, 'spec', 'targetCPUUtilizationPercentage'), 80);
    const spec = fieldsAt(owned(out, 'creator'), 'f:spec');
    assertOwns(spec, ['minReplicas', 'targetCPUUtilizationPercentage'], 'a v1 create');
    // A metric named in the annotation: no CPU target is added.
    const memory = [{ type: 'Resource', resource: { name: 'memory', targetAverageUtilization: 70 } }];
    const annotated = await client.create(
      hpas('v1'),
      hpa('v1', 'v1-memory', {}, { 'autoscaling.alpha.kubernetes.io/metrics': JSON.stringify(memory) }),
      'creator',
    );
    assert.equal(at(annotated, 'spec', 'targetCPUUtilizationPercentage'), undefined);
    const stored = await client.get(`${hpas('v2')}/v1-memory`);
    assert.deepEqual(at(stored, 'spec', 'metrics'), [
      {
        type: 'Resource',
        resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 70 } },
      },
    ]);
  });

  it('SetDefaults_FlowSchemaSpec: matchingPrecedence 0 is 1000, on a create and a PUT', async () => {
    const fs = {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: { name: 'defaults' },
      spec: { priorityLevelConfiguration: { name: 'workload-low' } },
    };
    const created = await client.create(`${flowcontrol}/flowschemas`, fs, 'creator');
    assert.equal(at(created, 'spec', 'matchingPrecedence'), 1000);
    assertOwns(fieldsAt(owned(created, 'creator'), 'f:spec'), ['matchingPrecedence'], 'the create');
    // Without a resourceVersion: the flow control controller writes the status meanwhile.
    const zero = { ...fs, spec: { ...fs.spec, matchingPrecedence: 0 } };
    const replaced = await client.replace(`${flowcontrol}/flowschemas/defaults`, zero, 'putter');
    assert.equal(at(replaced, 'spec', 'matchingPrecedence'), 1000);
  });

  it('SetDefaults_LimitedPriorityLevelConfiguration and _QueuingConfiguration', async () => {
    const path = `${flowcontrol}/prioritylevelconfigurations`;
    const out = await client.create(path, limited('limited', queuing({})), 'creator');
    assert.deepEqual(at(out, 'spec', 'limited'), {
      nominalConcurrencyShares: 30,
      lendablePercent: 0,
      limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } },
    });
    const spec = fieldsAt(owned(out, 'creator'), 'f:spec', 'f:limited');
    assertOwns(
      spec,
      ['nominalConcurrencyShares', 'lendablePercent'],
      'SetDefaults_LimitedPriorityLevelConfiguration',
    );
    assertOwns(
      fieldsAt(spec, 'f:limitResponse', 'f:queuing'),
      ['queues', 'handSize', 'queueLengthLimit'],
      'SetDefaults_QueuingConfiguration',
    );
    // v1 keeps an explicit 0 shares (v1beta3 made it 30); a zero queuing field is defaulted.
    const zero = await client.createProtobuf(
      path,
      'io.k8s.api.flowcontrol.v1.PriorityLevelConfiguration',
      limited('zero', { nominalConcurrencyShares: 0, ...queuing({ queues: 0, handSize: 4 }) }),
      'proto',
    );
    assert.equal(at(zero, 'spec', 'limited', 'nominalConcurrencyShares'), 0);
    assert.deepEqual(at(zero, 'spec', 'limited', 'limitResponse', 'queuing'), {
      queues: 64,
      handSize: 4,
      queueLengthLimit: 50,
    });
    const reject = await client.create(
      path,
      limited('reject', { limitResponse: { type: 'Reject' } }),
      'creator',
    );
    assert.deepEqual(
      at(reject, 'spec', 'limited', 'limitResponse'),
      { type: 'Reject' },
      'no queuing, no defaults',
    );
  });

  it('SetDefaults_ExemptPriorityLevelConfiguration: shares and lendable percent 0', async () => {
    const path = `${flowcontrol}/prioritylevelconfigurations/exempt`;
    const current = await client.get(path);
    const body = { ...current, spec: { type: 'Exempt', exempt: {} } };
    const out = await client.replace(path, body, 'putter');
    // The bootstrap object holds the same values, so the PUT changes nothing its manager would own.
    assert.deepEqual(at(out, 'spec', 'exempt'), { nominalConcurrencyShares: 0, lendablePercent: 0 });
  });

  it('SetDefaults_RoleBinding and SetDefaults_Subject', async () => {
    const binding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'rb' },
      roleRef: { kind: 'ClusterRole', name: 'view' },
      subjects,
    };
    const path = `${rbac}/namespaces/default/rolebindings`;
    const out = await client.create(path, binding, 'creator');
    assert.deepEqual(at(out, 'roleRef'), {
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: 'view',
    });
    assert.deepEqual(at(out, 'subjects'), defaultedSubjects);
    // roleRef is immutable: a PUT that leaves its group out is defaulted to the same, not refused.
    const replaced = await client.replace(
      `${path}/rb`,
      putBody(out, { ...binding, subjects: [subjects[0]] }),
      'putter',
    );
    assert.equal(at(replaced, 'roleRef', 'apiGroup'), 'rbac.authorization.k8s.io');
    assert.deepEqual(at(replaced, 'subjects'), [defaultedSubjects[0]]);
  });

  it('SetDefaults_ClusterRoleBinding and SetDefaults_Subject: a protobuf body', async () => {
    const binding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'crb-defaults' },
      roleRef: { kind: 'ClusterRole', name: 'view' },
      subjects,
    };
    const out = await client.createProtobuf(
      `${rbac}/clusterrolebindings`,
      'io.k8s.api.rbac.v1.ClusterRoleBinding',
      binding,
      'proto',
    );
    assert.equal(at(out, 'roleRef', 'apiGroup'), 'rbac.authorization.k8s.io');
    assert.deepEqual(at(out, 'subjects'), defaultedSubjects);
  });

  it('SetDefaults_PriorityClass: preemptionPolicy PreemptLowerPriority, on a create, a PUT and protobuf', async () => {
    const created = await client.create(priorityClasses, priorityClass('pc'), 'creator');
    assert.equal(at(created, 'preemptionPolicy'), 'PreemptLowerPriority');
    assertOwns(owned(created, 'creator'), ['preemptionPolicy'], 'the create');
    // The policy is immutable: a PUT that leaves it out is defaulted to the same value, not refused.
    const replaced = await client.replace(
      `${priorityClasses}/pc`,
      putBody(created, priorityClass('pc')),
      'putter',
    );
    assert.equal(at(replaced, 'preemptionPolicy'), 'PreemptLowerPriority');
    const proto = await client.createProtobuf(
      priorityClasses,
      'io.k8s.api.scheduling.v1.PriorityClass',
      priorityClass('pc-proto'),
      'proto',
    );
    assert.equal(at(proto, 'preemptionPolicy'), 'PreemptLowerPriority');
    assertOwns(owned(proto, 'proto'), ['preemptionPolicy'], 'the protobuf body');
  });
});
