import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { inGoMemberOrder } from './go-member-order.js';
import { inSortedMemberOrder } from './sorted-members.js';

const scheme = builtinScheme();
type Obj = Record<string, unknown>;
const keys = (v: unknown): string[] => Object.keys(v as Obj);
const at = (v: unknown, ...path: (string | number)[]): unknown =>
  path.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], v);

// A Pod as kubectl sends it: keys sorted at every level.
const sortedPod = inSortedMemberOrder({
  kind: 'Pod',
  apiVersion: 'v1',
  metadata: { name: 'p', namespace: 'd', labels: { b: '1', a: '2' }, uid: 'u' },
  spec: {
    restartPolicy: 'Always',
    containers: [
      {
        name: 'c',
        image: 'nginx',
        ports: [{ protocol: 'TCP', containerPort: 80, name: 'http' }],
        securityContext: { runAsUser: 1, privileged: false, capabilities: { drop: ['ALL'] } },
        env: [{ value: 'x', name: 'A' }],
        xUnknown: 1,
      },
    ],
    initContainers: [{ name: 'i', image: 'busybox' }],
    volumes: [{ name: 'v', configMap: { name: 'cm', defaultMode: 420 } }],
    nodeSelector: { z: '1', a: '2' },
    ephemeralContainers: [{ targetContainerName: 'c', name: 'e', image: 'busybox' }],
  },
  status: { phase: 'Pending', conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: null }] },
});

describe('inGoMemberOrder (Go struct field order)', () => {
  const pod = inGoMemberOrder(scheme, sortedPod);

  it('puts TypeMeta, ObjectMeta and the kind’s own members in Go order', () => {
    assert.deepEqual(keys(pod), ['kind', 'apiVersion', 'metadata', 'spec', 'status']);
    // creationTimestamp, a metav1.Time held by value, is written as null when the object lacks it.
    assert.deepEqual(keys(at(pod, 'metadata')), ['name', 'namespace', 'uid', 'creationTimestamp', 'labels']);
    assert.equal(at(pod, 'metadata', 'creationTimestamp'), null);
  });

  it('orders nested structs, lists of structs and embedded structs where Go embeds them', () => {
    assert.deepEqual(keys(at(pod, 'spec')), [
      'volumes',
      'initContainers',
      'containers',
      'ephemeralContainers',
      'restartPolicy',
      'nodeSelector',
    ]);
    assert.deepEqual(keys(at(pod, 'spec', 'containers', 0)), [
      'name',
      'image',
      'ports',
      'env',
      // A struct held by value (ResourceRequirements) is written as {} when the object lacks it.
      'resources',
      'securityContext',
      'xUnknown',
    ]);
    assert.deepEqual(keys(at(pod, 'spec', 'containers', 0, 'ports', 0)), [
      'name',
      'containerPort',
      'protocol',
    ]);
    assert.deepEqual(keys(at(pod, 'spec', 'containers', 0, 'env', 0)), ['name', 'value']);
    assert.deepEqual(keys(at(pod, 'spec', 'containers', 0, 'securityContext')), [
      'capabilities',
      'privileged',
      'runAsUser',
    ]);
    // Volume embeds VolumeSource; ConfigMapVolumeSource embeds LocalObjectReference.
    assert.deepEqual(keys(at(pod, 'spec', 'volumes', 0)), ['name', 'configMap']);
    assert.deepEqual(keys(at(pod, 'spec', 'volumes', 0, 'configMap')), ['name', 'defaultMode']);
    // EphemeralContainer embeds EphemeralContainerCommon (Container's fields) before its own.
    assert.deepEqual(keys(at(pod, 'spec', 'ephemeralContainers', 0)), [
      'name',
      'image',
      'resources',
      'targetContainerName',
    ]);
    // PodCondition's two times are metav1.Time held by value: null when the object lacks them.
    assert.deepEqual(keys(at(pod, 'status', 'conditions', 0)), [
      'type',
      'status',
      'lastProbeTime',
      'lastTransitionTime',
    ]);
    assert.equal(at(pod, 'status', 'conditions', 0, 'lastProbeTime'), null);
  });

  it('writes maps with their keys sorted, as Go does', () => {
    const unsorted = { ...sortedPod, metadata: { name: 'p', labels: { b: '1', a: '2', B: '3' } } };
    assert.deepEqual(keys(at(inGoMemberOrder(scheme, unsorted), 'metadata', 'labels')), ['B', 'a', 'b']);
    assert.deepEqual(keys(at(pod, 'spec', 'nodeSelector')), ['a', 'z']);
  });

  it('orders a pod template nested in another kind', () => {
    const job = inSortedMemberOrder({
      kind: 'Job',
      apiVersion: 'batch/v1',
      metadata: { name: 'j' },
      spec: {
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] } },
        backoffLimit: 1,
      },
    });
    const ordered = inGoMemberOrder(scheme, job);
    assert.deepEqual(keys(at(ordered, 'spec')), ['backoffLimit', 'template']);
    assert.deepEqual(keys(at(ordered, 'spec', 'template', 'spec')), ['containers', 'restartPolicy']);
  });

  it('returns an object already in order as it is, shares unchanged parts and leaves its input alone', () => {
    assert.equal(inGoMemberOrder(scheme, pod), pod);
    const before = JSON.stringify(sortedPod);
    const again = inGoMemberOrder(scheme, sortedPod);
    assert.equal(JSON.stringify(sortedPod), before);
    assert.equal(JSON.stringify(again), JSON.stringify(pod));
    const oneChange = { ...pod, spec: { ...(pod['spec'] as Obj), restartPolicy: 'Never' } };
    const partly = inGoMemberOrder(scheme, { ...oneChange, status: at(sortedPod, 'status') });
    assert.equal(at(partly, 'spec'), oneChange.spec);
  });

  it('gives a kind the scheme does not know kube’s top-level order and leaves the rest', () => {
    const widget = {
      metadata: { uid: 'u', name: 'w' },
      apiVersion: 'example.com/v1',
      spec: { b: 1, a: 2 },
      kind: 'W',
    };
    const ordered = inGoMemberOrder(scheme, widget);
    assert.deepEqual(keys(ordered), ['kind', 'apiVersion', 'metadata', 'spec']);
    assert.deepEqual(keys(at(ordered, 'metadata')), ['name', 'uid']);
    assert.deepEqual(keys(at(ordered, 'spec')), ['b', 'a']);
  });

  it('leaves a map whose only disorder is its array-index keys as it is (goJSONText sorts those)', () => {
    const cm = JSON.parse(
      '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c","creationTimestamp":null,"labels":{"10":"x","9":"y"}},"data":{"10":"a","9":"b","a":"c"}}',
    ) as Obj;
    assert.equal(inGoMemberOrder(scheme, cm), cm);
  });

  it('keeps each scheme’s plans apart', () => {
    const other = builtinScheme();
    assert.equal(JSON.stringify(inGoMemberOrder(other, sortedPod)), JSON.stringify(pod));
  });
});

describe('inGoMemberOrder of a CustomResourceDefinition (no protobuf tables: Go JSON shapes)', () => {
  // As kubectl sends it: keys sorted at every level.
  const sortedCRD = inSortedMemberOrder({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com', uid: 'u', generation: 1, creationTimestamp: 't' },
    spec: {
      group: 'example.com',
      names: {
        plural: 'widgets',
        singular: 'widget',
        kind: 'Widget',
        listKind: 'WidgetList',
        shortNames: ['wd'],
      },
      scope: 'Namespaced',
      conversion: { strategy: 'None' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: {
            status: {},
            scale: { specReplicasPath: '.spec.r', statusReplicasPath: '.status.r' },
          },
          additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size', priority: 1 }],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description: 'd',
              properties: {
                spec: {
                  type: 'object',
                  required: ['size'],
                  'x-kubernetes-validations': [
                    { rule: 'self.size > 0', message: 'm', reason: 'FieldValueInvalid' },
                  ],
                  properties: {
                    size: { type: 'integer', minimum: 0, maximum: 9, default: 1, format: 'int32' },
                    opts: {
                      type: 'object',
                      default: { z: { b: 1, a: 2 }, a: [{ y: 1, x: 2 }] },
                      additionalProperties: { type: 'string', enum: ['b', 'a'], nullable: true },
                    },
                    tags: { type: 'array', items: { type: 'string', maxLength: 3, pattern: '^x' } },
                    free: {
                      'x-kubernetes-preserve-unknown-fields': true,
                      type: 'object',
                      additionalProperties: true,
                    },
                  },
                },
              },
            },
          },
        },
      ],
    },
    status: {
      storedVersions: ['v1'],
      conditions: [
        {
          type: 'Established',
          status: 'True',
          reason: 'InitialNamesAccepted',
          message: 'm',
          lastTransitionTime: 't',
        },
      ],
      acceptedNames: { plural: 'widgets', kind: 'Widget' },
    },
  });
  const crd = inGoMemberOrder(scheme, sortedCRD);
  const schemaAt = (...path: (string | number)[]): unknown =>
    at(crd, 'spec', 'versions', 0, 'schema', 'openAPIV3Schema', ...path);

  const cases: { name: string; path: () => unknown; want: string[] }[] = [
    {
      name: 'TypeMeta, ObjectMeta, spec, status',
      path: () => crd,
      want: ['kind', 'apiVersion', 'metadata', 'spec', 'status'],
    },
    {
      name: 'metadata',
      path: () => at(crd, 'metadata'),
      want: ['name', 'uid', 'generation', 'creationTimestamp'],
    },
    {
      name: 'spec',
      path: () => at(crd, 'spec'),
      want: ['group', 'names', 'scope', 'versions', 'conversion'],
    },
    {
      name: 'names',
      path: () => at(crd, 'spec', 'names'),
      want: ['plural', 'singular', 'shortNames', 'kind', 'listKind'],
    },
    {
      name: 'a version',
      path: () => at(crd, 'spec', 'versions', 0),
      want: ['name', 'served', 'storage', 'schema', 'subresources', 'additionalPrinterColumns'],
    },
    {
      name: 'a printer column',
      path: () => at(crd, 'spec', 'versions', 0, 'additionalPrinterColumns', 0),
      want: ['name', 'type', 'priority', 'jsonPath'],
    },
    {
      name: 'subresources and scale',
      path: () => at(crd, 'spec', 'versions', 0, 'subresources'),
      want: ['status', 'scale'],
    },
    {
      name: 'the scale subresource',
      path: () => at(crd, 'spec', 'versions', 0, 'subresources', 'scale'),
      want: ['specReplicasPath', 'statusReplicasPath'],
    },
    { name: 'openAPIV3Schema', path: () => schemaAt(), want: ['description', 'type', 'properties'] },
    {
      name: 'a nested schema (properties is a map of JSONSchemaProps)',
      path: () => schemaAt('properties', 'spec'),
      want: ['type', 'required', 'properties', 'x-kubernetes-validations'],
    },
    {
      name: 'the properties map: keys sorted',
      path: () => schemaAt('properties', 'spec', 'properties'),
      want: ['free', 'opts', 'size', 'tags'],
    },
    {
      name: 'numeric bounds and a default',
      path: () => schemaAt('properties', 'spec', 'properties', 'size'),
      want: ['type', 'format', 'default', 'maximum', 'minimum'],
    },
    {
      name: 'a validation rule',
      path: () => schemaAt('properties', 'spec', 'x-kubernetes-validations', 0),
      want: ['rule', 'message', 'reason'],
    },
    {
      name: 'additionalProperties holding a schema (JSONSchemaPropsOrBool)',
      path: () => schemaAt('properties', 'spec', 'properties', 'opts', 'additionalProperties'),
      want: ['type', 'enum', 'nullable'],
    },
    {
      name: 'items holding a schema (JSONSchemaPropsOrArray)',
      path: () => schemaAt('properties', 'spec', 'properties', 'tags', 'items'),
      want: ['type', 'maxLength', 'pattern'],
    },
    {
      name: 'additionalProperties: true left as it is beside the extension',
      path: () => schemaAt('properties', 'spec', 'properties', 'free'),
      want: ['type', 'additionalProperties', 'x-kubernetes-preserve-unknown-fields'],
    },
    {
      name: 'a default value (JSON, an interface{}): keys sorted at every level',
      path: () => schemaAt('properties', 'spec', 'properties', 'opts', 'default', 'z'),
      want: ['a', 'b'],
    },
    {
      name: 'status',
      path: () => at(crd, 'status'),
      want: ['conditions', 'acceptedNames', 'storedVersions'],
    },
    {
      name: 'a condition',
      path: () => at(crd, 'status', 'conditions', 0),
      want: ['type', 'status', 'lastTransitionTime', 'reason', 'message'],
    },
    { name: 'acceptedNames', path: () => at(crd, 'status', 'acceptedNames'), want: ['plural', 'kind'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(keys(c.path()), c.want);
    });
  }

  it('orders items given as a list of schemas and leaves the enum’s values as they are but sorted inside', () => {
    const props = (p: Obj): Obj => ({
      ...sortedCRD,
      spec: {
        ...(sortedCRD['spec'] as Obj),
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: p } }],
      },
    });
    const ordered = inGoMemberOrder(
      scheme,
      props({ type: 'array', items: [{ type: 'string', format: 'x' }], enum: [{ b: 1, a: 2 }, 'z'] }),
    );
    const schema = at(ordered, 'spec', 'versions', 0, 'schema', 'openAPIV3Schema');
    assert.deepEqual(keys(at(schema, 'items', 0)), ['type', 'format']);
    assert.deepEqual(keys(at(schema, 'enum', 0)), ['a', 'b']);
    assert.equal(at(schema, 'enum', 1), 'z');
  });

  it('returns a CRD already in order as it is', () => {
    assert.equal(inGoMemberOrder(scheme, crd), crd);
  });
});
