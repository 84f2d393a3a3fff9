// Go's omitempty in the member-order plan: what kube 1.33 writes for built-in objects holding empty
// members (expected bodies reasoned from k8s.io/api's json tags).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { inGoMemberOrder } from './go-member-order.js';

const scheme = builtinScheme();
type Obj = Record<string, unknown>;

const pod = (spec: Obj, metadata: Obj = { name: 'p' }): Obj => ({
  kind: 'Pod',
  apiVersion: 'v1',
  metadata,
  spec,
});
const container = (c: Obj): Obj => pod({ containers: [{ name: 'c', ...c }] });
const crd = (schema: Obj, version: Obj = {}): Obj => ({
  kind: 'CustomResourceDefinition',
  apiVersion: 'apiextensions.k8s.io/v1',
  metadata: { name: 'ws.example.com', creationTimestamp: 't' },
  spec: {
    group: 'example.com',
    names: { plural: 'ws', kind: 'W' },
    scope: 'Namespaced',
    versions: [{ name: 'v1', served: true, storage: true, ...version, schema: { openAPIV3Schema: schema } }],
  },
  status: { conditions: [], acceptedNames: { plural: 'ws', kind: 'W' }, storedVersions: ['v1'] },
});

const cases: readonly { name: string; obj: Obj; want: string }[] = [
  {
    name: 'ObjectMeta: empty strings, 0, empty maps and lists and a null pointer go; creationTimestamp null stays',
    obj: pod(
      {},
      {
        name: 'p',
        generateName: '',
        namespace: '',
        generation: 0,
        creationTimestamp: null,
        deletionTimestamp: null,
        labels: {},
        annotations: {},
        ownerReferences: [],
        finalizers: [],
        managedFields: null,
      },
    ),
    want: '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","creationTimestamp":null},"spec":{"containers":null},"status":{}}',
  },
  {
    name: 'PodSpec: zero scalars and empty lists and maps go, pointers to zero values and structs stay',
    obj: pod({
      volumes: [],
      containers: [],
      restartPolicy: '',
      terminationGracePeriodSeconds: 0,
      nodeSelector: {},
      automountServiceAccountToken: false,
      nodeName: '',
      hostNetwork: false,
      securityContext: {},
      affinity: null,
      tolerations: null,
    }),
    want: '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","creationTimestamp":null},"spec":{"containers":[],"terminationGracePeriodSeconds":0,"automountServiceAccountToken":false,"securityContext":{}},"status":{}}',
  },
  {
    name: 'Container: args, env, command, image, stdin go; name (no omitempty) and resources (a struct) stay',
    obj: container({
      image: '',
      command: null,
      args: [],
      env: [],
      resources: {},
      readinessProbe: null,
      stdin: false,
    }),
    want: '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","creationTimestamp":null},"spec":{"containers":[{"name":"c","resources":{}}]},"status":{}}',
  },
  {
    name: 'a member without omitempty stays whatever it holds',
    obj: container({ name: '', ports: [{ containerPort: 0, hostPort: 0, name: '', protocol: '' }] }),
    want: '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","creationTimestamp":null},"spec":{"containers":[{"name":"","ports":[{"containerPort":0}],"resources":{}}]},"status":{}}',
  },
  {
    name: 'map values and members the plan does not know are kept',
    obj: {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'c', labels: { a: '' } },
      data: { k: '' },
      xUnknown: '',
    },
    want: '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c","creationTimestamp":null,"labels":{"a":""}},"data":{"k":""},"xUnknown":""}',
  },
  {
    name: 'ConfigMap: empty data and binaryData go, immutable (a *bool) false stays',
    obj: {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'c' },
      immutable: false,
      data: {},
      binaryData: {},
    },
    want: '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c","creationTimestamp":null},"immutable":false}',
  },
  {
    name: 'Deployment: replicas 0 (a *int32) and strategy {} stay, paused false and minReadySeconds 0 go',
    obj: {
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { name: 'd' },
      spec: { replicas: 0, selector: {}, template: {}, strategy: {}, minReadySeconds: 0, paused: false },
      status: {},
    },
    want: '{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"d","creationTimestamp":null},"spec":{"replicas":0,"selector":{},"template":{"metadata":{"creationTimestamp":null},"spec":{"containers":null}},"strategy":{}},"status":{}}',
  },
  {
    name: 'an embedded struct’s members (Volume’s VolumeSource): a null source goes, an empty one stays',
    obj: pod({ volumes: [{ name: 'v', hostPath: null, emptyDir: {} }] }),
    want: '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","creationTimestamp":null},"spec":{"volumes":[{"name":"v","emptyDir":{}}],"containers":null},"status":{}}',
  },
  {
    name: 'a protobuf-inline struct’s members (IngressRule’s IngressRuleValue)',
    obj: {
      kind: 'Ingress',
      apiVersion: 'networking.k8s.io/v1',
      metadata: { name: 'i' },
      spec: { rules: [{ host: '', http: null }] },
    },
    want: '{"kind":"Ingress","apiVersion":"networking.k8s.io/v1","metadata":{"name":"i","creationTimestamp":null},"spec":{"rules":[{}]},"status":{"loadBalancer":{}}}',
  },
  {
    name: 'CRD: JSONSchemaProps’ empty members go, x-kubernetes-preserve-unknown-fields (a *bool) false stays',
    obj: crd(
      {
        type: 'object',
        description: '',
        nullable: false,
        required: [],
        properties: {},
        'x-kubernetes-preserve-unknown-fields': false,
      },
      {
        deprecated: false,
        additionalPrinterColumns: [{ name: 'A', type: 'string', jsonPath: '.a', priority: 0 }],
      },
    ),
    want: '{"kind":"CustomResourceDefinition","apiVersion":"apiextensions.k8s.io/v1","metadata":{"name":"ws.example.com","creationTimestamp":"t"},"spec":{"group":"example.com","names":{"plural":"ws","kind":"W"},"scope":"Namespaced","versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":false}},"additionalPrinterColumns":[{"name":"A","type":"string","jsonPath":".a"}]}]},"status":{"conditions":[],"acceptedNames":{"plural":"ws","kind":"W"},"storedVersions":["v1"]}}',
  },
];

describe('inGoMemberOrder leaves out what Go’s omitempty leaves out', () => {
  for (const c of cases) {
    it(c.name, () => {
      const before = JSON.stringify(c.obj);
      assert.equal(JSON.stringify(inGoMemberOrder(scheme, c.obj)), c.want);
      assert.equal(JSON.stringify(c.obj), before, 'the input is left alone');
    });
  }

  it('returns an object with nothing to drop or add, in order, as it is', () => {
    const cm = {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'c', creationTimestamp: null, labels: { a: '' } },
      data: { k: '' },
    };
    assert.equal(inGoMemberOrder(scheme, cm), cm);
  });

  it('shares the parts it drops nothing from', () => {
    const spec = { containers: [{ name: 'c', image: 'nginx', resources: {} }] };
    const out = inGoMemberOrder(scheme, pod(spec, { name: 'p', labels: {} }));
    assert.equal(out['spec'], spec);
  });
});
