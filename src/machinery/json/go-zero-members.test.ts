// What kube 1.33 writes for members an object lacks (a metav1.Time held by value writes its zero as
// null; a struct held by value is written whole), and that reading those bytes back gives the object
// without them, as the request decoder does. Expected texts reasoned from k8s.io/api and
// k8s.io/apimachinery 1.33 (meta/v1 time.go, micro_time.go, the json tags of apps/v1, batch/v1 and
// core/v1 types.go; none of them uses omitzero).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { inGoMemberOrder } from './go-member-order.js';
import { withoutGoZeroMembers } from './go-zero-members.js';

const scheme = builtinScheme();
type Obj = Record<string, unknown>;

const meta = { name: 'x', creationTimestamp: '2026-01-01T00:00:00Z' };
const podSpec = { containers: [{ name: 'c', image: 'i', resources: {} }] };
const template = { metadata: { labels: { a: 'b' } }, spec: podSpec };
const templateText =
  '{"metadata":{"creationTimestamp":null,"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i","resources":{}}]}}';

const cases: readonly { name: string; obj: Obj; want: string }[] = [
  {
    name: 'a Deployment’s pod template metadata gets creationTimestamp null',
    obj: {
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: meta,
      spec: { selector: {}, template },
      status: {},
    },
    want: `{"kind":"Deployment","apiVersion":"apps/v1","metadata":${JSON.stringify(meta)},"spec":{"selector":{},"template":${templateText},"strategy":{}},"status":{}}`,
  },
  {
    name: 'a StatefulSet’s template and claim templates (PersistentVolumeClaims: status {} too)',
    obj: {
      kind: 'StatefulSet',
      apiVersion: 'apps/v1',
      metadata: meta,
      spec: {
        selector: {},
        template,
        volumeClaimTemplates: [{ metadata: { name: 'd' }, spec: {} }],
        serviceName: '',
        updateStrategy: {},
      },
      status: { replicas: 0, availableReplicas: 0 },
    },
    want:
      `{"kind":"StatefulSet","apiVersion":"apps/v1","metadata":${JSON.stringify(meta)},"spec":{"selector":{},"template":${templateText},` +
      '"volumeClaimTemplates":[{"metadata":{"name":"d","creationTimestamp":null},"spec":{"resources":{}},"status":{}}],"serviceName":"","updateStrategy":{}},"status":{"replicas":0,"availableReplicas":0}}',
  },
  {
    name: 'a CronJob’s job template and the pod template inside it',
    obj: {
      kind: 'CronJob',
      apiVersion: 'batch/v1',
      metadata: meta,
      spec: { schedule: '* * * * *', jobTemplate: { spec: { template } } },
      status: {},
    },
    want:
      `{"kind":"CronJob","apiVersion":"batch/v1","metadata":${JSON.stringify(meta)},"spec":{"schedule":"* * * * *",` +
      `"jobTemplate":{"metadata":{"creationTimestamp":null},"spec":{"template":${templateText}}}},"status":{}}`,
  },
  {
    name: 'a pod condition’s lastProbeTime, a container state’s startedAt; status written though absent',
    obj: {
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: meta,
      spec: podSpec,
      status: {
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:01Z' }],
        containerStatuses: [
          { name: 'c', state: { running: {} }, ready: true, restartCount: 0, image: 'i', imageID: '' },
        ],
      },
    },
    want:
      `{"kind":"Pod","apiVersion":"v1","metadata":${JSON.stringify(meta)},"spec":${JSON.stringify(podSpec)},"status":{` +
      '"conditions":[{"type":"Ready","status":"True","lastProbeTime":null,"lastTransitionTime":"2026-01-01T00:00:01Z"}],' +
      '"containerStatuses":[{"name":"c","state":{"running":{"startedAt":null}},"lastState":{},"ready":true,"restartCount":0,"image":"i","imageID":""}]}}',
  },
  {
    name: 'a core Event’s three times (eventTime a MicroTime) and an ObjectReference held by value',
    // reportingComponent and reportingInstance have no omitempty: written "" by Go, kept here as sent.
    obj: {
      kind: 'Event',
      apiVersion: 'v1',
      metadata: meta,
      reason: 'R',
      reportingComponent: '',
      reportingInstance: '',
    },
    want: `{"kind":"Event","apiVersion":"v1","metadata":${JSON.stringify(meta)},"involvedObject":{},"reason":"R","source":{},"firstTimestamp":null,"lastTimestamp":null,"eventTime":null,"reportingComponent":"","reportingInstance":""}`,
  },
  {
    name: 'a PodTemplate without its template: the zero PodTemplateSpec, containers (no omitempty) null',
    obj: { kind: 'PodTemplate', apiVersion: 'v1', metadata: meta },
    want: `{"kind":"PodTemplate","apiVersion":"v1","metadata":${JSON.stringify(meta)},"template":{"metadata":{"creationTimestamp":null},"spec":{"containers":null}}}`,
  },
  {
    name: 'a core Event without reportingComponent and reportingInstance (no omitempty): written ""',
    obj: {
      kind: 'Event',
      apiVersion: 'v1',
      metadata: meta,
      involvedObject: { kind: 'Pod' },
      reason: 'R',
      source: {},
    },
    want: `{"kind":"Event","apiVersion":"v1","metadata":${JSON.stringify(meta)},"involvedObject":{"kind":"Pod"},"reason":"R","source":{},"firstTimestamp":null,"lastTimestamp":null,"eventTime":null,"reportingComponent":"","reportingInstance":""}`,
  },
  {
    name: 'a Deployment without a selector (a nil *LabelSelector without omitempty): "selector":null',
    obj: {
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: meta,
      spec: { replicas: 1, template, strategy: {} },
      status: {},
    },
    want: `{"kind":"Deployment","apiVersion":"apps/v1","metadata":${JSON.stringify(meta)},"spec":{"replicas":1,"selector":null,"template":${templateText},"strategy":{}},"status":{}}`,
  },
  {
    name: 'a ClusterRole without rules (a nil slice without omitempty): "rules":null',
    obj: { kind: 'ClusterRole', apiVersion: 'rbac.authorization.k8s.io/v1', metadata: meta },
    want: `{"kind":"ClusterRole","apiVersion":"rbac.authorization.k8s.io/v1","metadata":${JSON.stringify(meta)},"rules":null}`,
  },
  {
    name: 'an EndpointSlice without ports (a nil slice without omitempty): null',
    obj: {
      kind: 'EndpointSlice',
      apiVersion: 'discovery.k8s.io/v1',
      metadata: meta,
      addressType: 'IPv4',
      endpoints: [],
    },
    want: `{"kind":"EndpointSlice","apiVersion":"discovery.k8s.io/v1","metadata":${JSON.stringify(meta)},"addressType":"IPv4","endpoints":[],"ports":null}`,
  },
  {
    name: 'a StatefulSet’s serviceName, ordinals.start (int32), a claim’s dataSource apiGroup (*string: null)',
    obj: {
      kind: 'StatefulSet',
      apiVersion: 'apps/v1',
      metadata: meta,
      spec: {
        selector: {},
        template,
        volumeClaimTemplates: [
          {
            metadata: { name: 'd' },
            spec: { resources: {}, dataSource: { kind: 'K', name: 'n' } },
            status: {},
          },
        ],
        updateStrategy: {},
        ordinals: {},
      },
      status: { replicas: 0, availableReplicas: 0 },
    },
    want:
      `{"kind":"StatefulSet","apiVersion":"apps/v1","metadata":${JSON.stringify(meta)},"spec":{"selector":{},"template":${templateText},` +
      '"volumeClaimTemplates":[{"metadata":{"name":"d","creationTimestamp":null},"spec":{"resources":{},"dataSource":{"apiGroup":null,"kind":"K","name":"n"}},"status":{}}],' +
      '"serviceName":"","updateStrategy":{},"ordinals":{"start":0}},"status":{"replicas":0,"availableReplicas":0}}',
  },
  {
    name: 'a downward API resourceFieldRef’s divisor (a Quantity: never omitted) and a GRPC probe’s service (*string)',
    obj: {
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: meta,
      spec: {
        containers: [
          {
            name: 'c',
            env: [{ name: 'E', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } }],
            resources: {},
            livenessProbe: { grpc: { port: 9 } },
          },
        ],
      },
      status: {},
    },
    want:
      `{"kind":"Pod","apiVersion":"v1","metadata":${JSON.stringify(meta)},"spec":{"containers":[{"name":"c",` +
      '"env":[{"name":"E","valueFrom":{"resourceFieldRef":{"resource":"limits.cpu","divisor":"0"}}}],"resources":{},' +
      '"livenessProbe":{"grpc":{"port":9,"service":null}}}]},"status":{}}',
  },
  {
    name: 'a required scalar a present struct lacks is added with its zero: a container’s name, a status’s replicas',
    obj: {
      kind: 'ReplicaSet',
      apiVersion: 'apps/v1',
      metadata: meta,
      spec: {
        selector: {},
        template: { metadata: {}, spec: { containers: [{ image: 'i', resources: {} }] } },
      },
      status: {},
    },
    want:
      `{"kind":"ReplicaSet","apiVersion":"apps/v1","metadata":${JSON.stringify(meta)},"spec":{"selector":{},"template":` +
      '{"metadata":{"creationTimestamp":null},"spec":{"containers":[{"name":"","image":"i","resources":{}}]}}},' +
      '"status":{"replicas":0}}',
  },
  {
    name: 'a pointer to a time (deletionTimestamp) and a pointer to a struct (affinity) are not added',
    obj: { kind: 'Pod', apiVersion: 'v1', metadata: meta, spec: podSpec, status: {} },
    want: `{"kind":"Pod","apiVersion":"v1","metadata":${JSON.stringify(meta)},"spec":${JSON.stringify(podSpec)},"status":{}}`,
  },
];

// The cases whose objects hold none of the zero members they are written with.
const roundTrip = new Set(cases.slice(6, 12).map((c) => c.name));

describe('inGoMemberOrder writes the zero members Go writes though the object lacks them', () => {
  for (const c of cases) {
    it(c.name, () => {
      const before = JSON.stringify(c.obj);
      const wire = inGoMemberOrder(scheme, c.obj);
      assert.equal(JSON.stringify(wire), c.want);
      assert.equal(JSON.stringify(c.obj), before, 'the input is left alone');
    });
  }

  it('adds the zero members to a struct held by value that is present, even empty', () => {
    const job = { kind: 'Job', apiVersion: 'batch/v1', metadata: meta, spec: { template: {} }, status: {} };
    assert.equal(
      JSON.stringify(at(inGoMemberOrder(scheme, job), 'spec', 'template')),
      '{"metadata":{"creationTimestamp":null},"spec":{"containers":null}}',
    );
  });
});

function at(v: unknown, ...path: string[]): unknown {
  return path.reduce<unknown>((o, k) => (o as Obj)[k], v);
}

describe('withoutGoZeroMembers reads those bytes back as the request decoder leaves the object', () => {
  for (const c of cases) {
    it(`${c.name}: only the added zero times go`, () => {
      const decoded = JSON.parse(c.want) as Obj;
      const text = JSON.stringify(decoded);
      const back = withoutGoZeroMembers(scheme, decoded);
      assert.equal(JSON.stringify(decoded), text, 'the input is left alone');
      assert.ok(!JSON.stringify(back).includes(':null,') || c.want.includes('"containers":null'));
      // Encoding it again gives the same bytes: nothing was lost but what Go writes anyway.
      assert.equal(JSON.stringify(inGoMemberOrder(scheme, back)), c.want);
    });
  }

  it('reads back exactly the object written when it lacked the zero members', () => {
    for (const c of cases.filter((x) => roundTrip.has(x.name))) {
      assert.deepEqual(withoutGoZeroMembers(scheme, JSON.parse(c.want) as unknown), c.obj, c.name);
    }
  });

  it('takes a zero optional scalar, a null list and a null pointer, keeps a required scalar and a set value', () => {
    const back = withoutGoZeroMembers(scheme, {
      kind: 'Event',
      apiVersion: 'v1',
      metadata: meta,
      reportingComponent: '',
      reportingInstance: 'i',
      series: null,
    });
    assert.deepEqual(back, {
      kind: 'Event',
      apiVersion: 'v1',
      metadata: meta,
      reportingInstance: 'i',
      series: null,
    });
    const port = { port: 0, targetPort: 0 };
    const svc = withoutGoZeroMembers(scheme, { kind: 'Service', apiVersion: 'v1', spec: { ports: [port] } });
    assert.deepEqual(svc.spec.ports, [{ port: 0 }]);
  });

  it('leaves a set time and a null pointer member alone, and returns an object without zero times as it is', () => {
    const pod = {
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { ...meta, deletionTimestamp: null },
      status: { conditions: [{ type: 'Ready', lastProbeTime: '2026-01-01T00:00:02Z' }] },
    };
    assert.equal(withoutGoZeroMembers(scheme, pod), pod);
  });

  it('takes a null creationTimestamp from a template and shares what it does not change', () => {
    const spec = { replicas: 1 };
    const status = { replicas: 1 };
    const d = {
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: meta,
      spec: {
        ...spec,
        template: { metadata: { creationTimestamp: null, labels: { a: 'b' } }, spec: podSpec },
      },
      status,
    };
    const back = withoutGoZeroMembers(scheme, d);
    assert.deepEqual(back.spec.template.metadata, { labels: { a: 'b' } });
    assert.deepEqual(Object.keys(back.spec), ['replicas', 'template']);
    assert.equal(back.status, status);
    assert.equal(back.spec.template.spec, podSpec);
    assert.equal(back.metadata, meta);
  });

  it('does not visit the top-level members `keep` names (a live object’s own, decoded already)', () => {
    const spec = { template: { metadata: { creationTimestamp: null }, spec: podSpec } };
    const d = { kind: 'Deployment', apiVersion: 'apps/v1', metadata: meta, spec };
    assert.equal(
      withoutGoZeroMembers(scheme, d, (key, value) => key === 'spec' && value === spec),
      d,
    );
    assert.deepEqual(withoutGoZeroMembers(scheme, d).spec.template.metadata, {});
  });

  it('leaves kinds the scheme does not know alone', () => {
    const w = { kind: 'Widget', apiVersion: 'example.com/v1', metadata: { creationTimestamp: null } };
    assert.equal(withoutGoZeroMembers(scheme, w), w);
  });
});
