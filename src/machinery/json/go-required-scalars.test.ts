// A required scalar (a member without omitempty that the OpenAPI lists as required) that a present
// struct lacks: kube decodes the object into its Go struct, where the member holds its zero, and
// encoding/json writes it. Go tags checked in k8s.io/api 1.33 (apps/v1: ReplicaSetStatus.Replicas
// `json:"replicas"`, StatefulSetStatus.Replicas and AvailableReplicas, DaemonSetStatus's four
// counts; autoscaling v1 and v2 HorizontalPodAutoscalerStatus; policy/v1 PodDisruptionBudgetStatus;
// scheduling/v1 PriorityClass.Value; core/v1 ContainerStatus). In memory such a member stays as
// sent: reading the bytes back keeps the zero it holds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { goZeroObject, inGoMemberOrder } from './go-member-order.js';
import { withoutGoZeroMembers } from './go-zero-members.js';

const scheme = builtinScheme();
type Obj = Record<string, unknown>;

const at = (v: unknown, ...path: (string | number)[]): unknown =>
  path.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], v);

const statusOf = (apiVersion: string, kind: string, status: Obj | undefined): string => {
  const obj: Obj = { kind, apiVersion, metadata: { name: 'x' }, ...(status === undefined ? {} : { status }) };
  return JSON.stringify(at(inGoMemberOrder(scheme, obj), 'status'));
};

describe('a required scalar a present struct lacks is written with its Go zero', () => {
  const cases: readonly { kind: string; apiVersion: string; status?: Obj; want: string }[] = [
    { kind: 'ReplicaSet', apiVersion: 'apps/v1', status: {}, want: '{"replicas":0}' },
    // A struct held by value is written whole when the object lacks it, its required zeros included.
    { kind: 'ReplicaSet', apiVersion: 'apps/v1', want: '{"replicas":0}' },
    {
      kind: 'ReplicaSet',
      apiVersion: 'apps/v1',
      status: { observedGeneration: 2 },
      want: '{"replicas":0,"observedGeneration":2}',
    },
    { kind: 'ReplicaSet', apiVersion: 'apps/v1', status: { replicas: 3 }, want: '{"replicas":3}' },
    { kind: 'StatefulSet', apiVersion: 'apps/v1', status: {}, want: '{"replicas":0,"availableReplicas":0}' },
    {
      kind: 'DaemonSet',
      apiVersion: 'apps/v1',
      status: { numberReady: 1 },
      want: '{"currentNumberScheduled":0,"numberMisscheduled":0,"desiredNumberScheduled":0,"numberReady":1}',
    },
    // DeploymentStatus has no required member: all its counts are omitempty.
    { kind: 'Deployment', apiVersion: 'apps/v1', status: {}, want: '{}' },
    { kind: 'ReplicationController', apiVersion: 'v1', status: {}, want: '{"replicas":0}' },
    {
      kind: 'HorizontalPodAutoscaler',
      apiVersion: 'autoscaling/v1',
      status: {},
      want: '{"currentReplicas":0,"desiredReplicas":0}',
    },
    // currentMetrics is a list without omitempty: nil, written null (as before this class).
    {
      kind: 'HorizontalPodAutoscaler',
      apiVersion: 'autoscaling/v2',
      status: {},
      want: '{"desiredReplicas":0,"currentMetrics":null}',
    },
    {
      kind: 'PodDisruptionBudget',
      apiVersion: 'policy/v1',
      status: {},
      want: '{"disruptionsAllowed":0,"currentHealthy":0,"desiredHealthy":0,"expectedPods":0}',
    },
    { kind: 'VolumeAttachment', apiVersion: 'storage.k8s.io/v1', status: {}, want: '{"attached":false}' },
  ];
  for (const c of cases) {
    it(`${c.apiVersion} ${c.kind} status ${JSON.stringify(c.status)}`, () => {
      assert.equal(statusOf(c.apiVersion, c.kind, c.status), c.want);
    });
  }

  it('in a list item: a container status lacking ready, restartCount, image and imageID', () => {
    const pod = {
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'i', resources: {} }] },
      status: { containerStatuses: [{ name: 'c' }] },
    };
    assert.equal(
      JSON.stringify(at(inGoMemberOrder(scheme, pod), 'status', 'containerStatuses', 0)),
      '{"name":"c","state":{},"lastState":{},"ready":false,"restartCount":0,"image":"","imageID":""}',
    );
  });

  it('outside status, where validation accepts the zero: a PriorityClass’s value', () => {
    const pc = { kind: 'PriorityClass', apiVersion: 'scheduling.k8s.io/v1', metadata: { name: 'p' } };
    assert.equal(
      JSON.stringify(inGoMemberOrder(scheme, pc)),
      '{"kind":"PriorityClass","apiVersion":"scheduling.k8s.io/v1","metadata":{"name":"p","creationTimestamp":null},"value":0}',
    );
  });

  it('not in meta/v1’s envelopes, which Capstan builds whole (an APIResource lacking its verbs)', () => {
    const list = {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: 'v1',
      resources: [{ name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod' }],
    };
    assert.equal(
      JSON.stringify(inGoMemberOrder(scheme, list)),
      '{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"v1","resources":[{"name":"pods","singularName":"pod","namespaced":true,"kind":"Pod"}]}',
    );
  });

  it('an object already holding every one is returned as it is', () => {
    const whole = {
      kind: 'ReplicaSet',
      apiVersion: 'apps/v1',
      metadata: { name: 'x', creationTimestamp: null },
      spec: {
        replicas: 1,
        selector: {},
        template: { metadata: { creationTimestamp: null }, spec: { containers: null } },
      },
      status: { replicas: 0 },
    };
    assert.equal(inGoMemberOrder(scheme, whole), whole);
  });
});

describe('in memory a required scalar stays as sent', () => {
  it('the bytes read back keep "replicas":0 and encode to the same bytes', () => {
    const text = statusOf('apps/v1', 'ReplicaSet', {});
    const rs = {
      kind: 'ReplicaSet',
      apiVersion: 'apps/v1',
      metadata: { name: 'x' },
      status: JSON.parse(text) as Obj,
    };
    const back = withoutGoZeroMembers(scheme, rs);
    assert.deepEqual(at(back, 'status'), { replicas: 0 });
    assert.equal(JSON.stringify(at(inGoMemberOrder(scheme, back), 'status')), text);
  });

  it('the kind’s Go zero object (a create’s field manager compare) holds them', () => {
    assert.deepEqual(at(goZeroObject(scheme, { apiVersion: 'apps/v1', kind: 'ReplicaSet' }), 'status'), {
      replicas: 0,
    });
    assert.deepEqual(at(goZeroObject(scheme, { apiVersion: 'apps/v1', kind: 'DaemonSet' }), 'status'), {
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      desiredNumberScheduled: 0,
      numberReady: 0,
    });
  });
});
