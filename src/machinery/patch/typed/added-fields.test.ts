// The create shortcut must write exactly what the general compare finds added or modified, on
// every shape a schema gives: lists by keys (with defaults, duplicates, bad items), sets, atomic
// lists and maps, int-or-string, free-form (preserve-unknown-fields) values, structs that appear
// empty; from `{apiVersion, kind}` (a custom resource's new object) and from a built-in kind's Go
// zero object (its structs held by value, nils and zero scalars).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinScheme } from '../../../api/builtin-scheme.js';
import { goZeroObject } from '../../json/go-member-order.js';
import type { Schema } from '../../../api/schema/types.js';
import { encodeFieldsV1 } from '../fieldpath/fields-v1.js';
import { FieldSet } from '../fieldpath/set.js';
import type { JSONObject, JSONValue } from '../json.js';
import { Updater } from '../merge/updater.js';
import { podResolver, podSchema } from '../testing/pod-schema.js';
import { widgetResolver, widgetSchema } from '../testing/widget-schema.js';
import { addedFieldsV1 } from './added-fields.js';
import { compareValues } from './compare.js';
import type { SchemaResolver, TypeRef } from './type-node.js';

interface Case {
  readonly name: string;
  readonly resolver: SchemaResolver;
  readonly ref: TypeRef;
  readonly lhs: JSONObject;
  readonly rhs: JSONObject;
}

const scheme = builtinScheme();
const podRef: Schema = { $ref: 'io.k8s.api.core.v1.Pod' };
const container = (name: string): JSONObject => ({
  name,
  image: `registry.example.com/${name}:1`,
  args: ['--a', '--b'],
  env: [
    { name: 'A', value: '1' },
    { name: 'B', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
  ],
  ports: [{ containerPort: 80 }, { containerPort: 80, protocol: 'UDP', name: 'dns' }],
  resources: { limits: { cpu: '1' }, requests: {} },
  readinessProbe: { httpGet: { port: 'http', path: '/' } },
  volumeMounts: [{ name: 'v', mountPath: '/v' }],
  securityContext: {},
});

const zeroOf = (apiVersion: string, kind: string): JSONObject => {
  const zero = goZeroObject(scheme, { apiVersion, kind });
  if (zero === undefined) throw new Error(kind);
  return zero as JSONObject;
};

const deployment: JSONObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd', labels: { app: 'd' } },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'd' } },
    template: {
      metadata: { labels: { app: 'd' } },
      spec: { containers: [container('app')], securityContext: {} },
    },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    revisionHistoryLimit: 10,
  },
  status: {},
};

const cases: Case[] = [
  {
    name: 'a realistic Pod of the built-in scheme',
    resolver: scheme,
    ref: podRef,
    lhs: { apiVersion: 'v1', kind: 'Pod' },
    rhs: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', labels: { app: 'x', '<&>': 'y' }, annotations: {}, finalizers: ['b', 'a', 'b'] },
      spec: {
        containers: [container('app'), container('side')],
        volumes: [
          { name: 'v', emptyDir: {} },
          { name: 'c', configMap: { name: 'cm', defaultMode: 420 } },
        ],
        nodeSelector: { os: 'linux' },
        tolerations: [{ key: 'k', operator: 'Exists' }],
        securityContext: {},
        hostNetwork: false,
      },
      status: { phase: 'Pending', conditions: [{ type: 'Ready', status: 'False' }] },
    },
  },
  {
    name: 'lists by merge key, sets, atomic values and bad items',
    resolver: podResolver,
    ref: podSchema,
    lhs: { apiVersion: 'v1', kind: 'Pod' },
    rhs: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { labels: {}, finalizers: ['x', 'x', 'y', 'a'] },
      spec: {
        containers: [
          { name: 'a', ports: [{ containerPort: 1 }, { containerPort: 1, protocol: 'TCP' }], env: [] },
          { image: 'no name' },
          'not a map',
          { name: 'b', args: [], env: [{ name: 'e' }, { name: 'e', value: 'twice' }] },
        ],
        volumes: [
          { name: 'v', emptyDir: {} },
          { name: 'w', hostPath: 'not a struct' },
        ],
        nodeSelector: { a: '1' },
        tolerations: [{ key: 'k' }],
        extra: { a: 'b', c: null },
        undeclared: { nested: [1, 2] },
      },
    },
  },
  {
    name: 'int-or-string, free-form values, keys with defaults, maps of structs',
    resolver: widgetResolver,
    ref: widgetSchema,
    lhs: { apiVersion: 'example.com/v1', kind: 'Widget' },
    rhs: {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      spec: {
        port: 8080,
        tags: ['z', 'a'],
        numbers: [3, 'three', 1, true, null, { a: 1 }, [1]],
        selector: { app: 'w' },
        free: { deep: { list: [{ a: 1 }], empty: {} }, emptyList: [] },
        anything: [{ a: 1 }],
        items: [{ name: 'n' }, { name: 'n', zone: 'b', weight: 1 }, { name: 'm', zone: 'a' }, { zone: 'c' }],
        byName: { one: { x: 'a', y: ['1'] }, two: {} },
        inner: {},
      },
      status: { ready: true },
    },
  },
];

cases.push(
  { ...(cases[0] as Case), name: 'a realistic Pod from its Go zero object', lhs: zeroOf('v1', 'Pod') },
  {
    name: 'a Deployment from its Go zero object: template and strategy held by value, selector nil',
    resolver: scheme,
    ref: { $ref: 'io.k8s.api.apps.v1.Deployment' },
    lhs: zeroOf('apps/v1', 'Deployment'),
    rhs: deployment,
  },
  {
    name: 'a core Event from its Go zero object: its "" and null members set, and left unset',
    resolver: scheme,
    ref: { $ref: 'io.k8s.api.core.v1.Event' },
    lhs: zeroOf('v1', 'Event'),
    rhs: {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e' },
      involvedObject: { kind: 'Pod', name: 'p' },
      reason: 'R',
      firstTimestamp: '2026-01-01T00:00:00Z',
      reportingComponent: 'c',
    },
  },
  {
    name: 'a Pod from its Go zero object: empty and atomic members where it holds nils',
    resolver: scheme,
    ref: podRef,
    lhs: zeroOf('v1', 'Pod'),
    rhs: { apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: { containers: [] }, status: {} },
  },
  {
    name: 'a Pod whose structs hold keys they do not declare, among declared ones and alone',
    resolver: scheme,
    ref: podRef,
    lhs: zeroOf('v1', 'Pod'),
    rhs: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', extra: 'x' },
      spec: {
        containers: [
          { ...container('a'), zzz: { a: 1 }, resources: { limits: { cpu: '1' }, constructor: [1] } },
        ],
        securityContext: { unknown: true },
      },
      status: { phase: 'Pending' },
    },
  },
);

function viaCompare(c: Case): JSONObject {
  const cmp = compareValues(c.resolver, c.ref, { lhs: c.lhs, rhs: c.rhs, goTyped: true });
  return encodeFieldsV1(cmp.added.union(cmp.modified));
}

describe('addedFieldsV1', () => {
  for (const c of cases) {
    it(`writes what compare finds added: ${c.name}`, () => {
      const fast = addedFieldsV1(c.resolver, c.ref, { lhs: c.lhs, rhs: c.rhs });
      assert.equal(JSON.stringify(fast), JSON.stringify(viaCompare(c)));
    });

    it(`gives Updater.update the general path's sets, status ignored: ${c.name}`, () => {
      const ignored = FieldSet.of([{ kind: 'field', name: 'status' }]);
      const out = new Updater(c.resolver, c.ref).update(
        { live: c.lhs, next: c.rhs },
        { version: 'v1', managers: new Map(), manager: 'm', ignored },
      );
      const cmp = compareValues(c.resolver, c.ref, { lhs: c.lhs, rhs: c.rhs, goTyped: true });
      const expected = cmp.added.union(cmp.modified).recursiveDifference(ignored);
      const set = out.get('m')?.set;
      assert.ok(set !== undefined);
      assert.equal(JSON.stringify(encodeFieldsV1(set)), JSON.stringify(encodeFieldsV1(expected)));
    });
  }

  it('writes what compare finds, or leaves the pair to it, for pairs that are not a create', () => {
    const base = { resolver: podResolver, ref: podSchema };
    const pairs: readonly (readonly [JSONValue, JSONValue])[] = [
      [{ kind: 'Pod' }, { kind: 'Other', spec: {} }],
      [
        { kind: 'Pod', spec: {} },
        { kind: 'Pod', spec: {} },
      ],
      [
        { kind: 'Pod', spec: { containers: [{ name: 'a' }] } },
        { kind: 'Pod', spec: { containers: [] } },
      ],
      [
        { kind: 'Pod', spec: { nodeSelector: { a: '1' } } },
        { kind: 'Pod', spec: {} },
      ],
      [{ kind: 'Pod' }, { spec: { extra: { a: 'b' } } }],
      // A key that names a property of every object, which the left side lacks like any other.
      [{ kind: 'Pod' }, { kind: 'Pod', constructor: 'x' }],
    ];
    for (const [lhs, rhs] of pairs) {
      const fast = addedFieldsV1(base.resolver, base.ref, { lhs, rhs });
      if (fast === undefined) continue;
      const cmp = compareValues(base.resolver, base.ref, { lhs, rhs, goTyped: true });
      assert.equal(JSON.stringify(fast), JSON.stringify(encodeFieldsV1(cmp.added.union(cmp.modified))));
    }
    const run = (lhs: JSONValue, rhs: JSONValue) => addedFieldsV1(base.resolver, base.ref, { lhs, rhs });
    assert.equal(run({ kind: 'Pod' }, {}), undefined);
    assert.equal(run({ kind: 'Pod' }, ['not', 'a', 'map']), undefined);
    assert.deepEqual(run({ kind: 'Pod' }, { kind: 'Pod', constructor: 'x' }), { 'f:constructor': {} });
    assert.deepEqual(run({ kind: 'Pod' }, { spec: { extra: { a: 'b' } } }), {
      'f:spec': { '.': {}, 'f:extra': { '.': {}, 'f:a': {} } },
    });
  });
});
