import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CustomResourceDefinition } from '../../api/apiextensions/v1/crd.js';
import type { JSONSchemaProps } from '../../api/apiextensions/v1/json-schema-props.js';
import { LIST_META } from '../../api/meta/v1/list-meta.js';
import { OBJECT_META } from '../../api/meta/v1/object-meta.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import { customResourceDefinitionName, customResourceDefinitions } from './cr-openapi-schema.js';
import { customResourceOpenAPI } from './cr-openapi.js';

const crd = (schema: JSONSchemaProps | undefined, extra: Partial<CustomResourceDefinition['spec']> = {}) =>
  ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          ...(schema ? { schema: { openAPIV3Schema: schema } } : {}),
        },
        { name: 'v0', served: false, storage: false },
      ],
      ...extra,
    },
  }) as CustomResourceDefinition;

type Obj = Record<string, unknown>;
const props = (s: unknown): Record<string, Obj> => (s as Obj)['properties'] as Record<string, Obj>;

const schema: JSONSchemaProps = {
  type: 'object',
  description: 'A CronTab.',
  properties: {
    spec: {
      type: 'object',
      required: ['cronSpec', 'note'],
      properties: {
        cronSpec: { type: 'string', pattern: '^\\S+$' },
        note: { type: 'string', nullable: true },
        port: { 'x-kubernetes-int-or-string': true },
        choice: { type: 'string', anyOf: [{ enum: ['a'] }, { enum: ['b'] }] },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { x: { type: 'string' } },
        },
        free: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { y: { type: 'string' } },
        },
      },
    },
  },
};

describe('custom resource OpenAPI definitions', () => {
  it('names definitions with the group reversed', () => {
    assert.equal(
      customResourceDefinitionName({ group: 'stable.example.com', version: 'v1', kind: 'CronTab' }),
      'com.example.stable.v1.CronTab',
    );
  });

  it('v3: the schema as written, with TypeMeta, ObjectMeta and the group-version-kind', () => {
    const defs = customResourceDefinitions(crd(schema), { version: 'v1', v2: false });
    assert.deepEqual(Object.keys(defs), [
      'com.example.stable.v1.CronTab',
      'com.example.stable.v1.CronTabList',
    ]);
    const kind = defs['com.example.stable.v1.CronTab'] as Obj;
    assert.equal(kind['description'], 'A CronTab.');
    assert.deepEqual(kind['x-kubernetes-group-version-kind'], [
      { group: 'stable.example.com', kind: 'CronTab', version: 'v1' },
    ]);
    assert.equal(props(kind)['metadata']?.['$ref'], OBJECT_META);
    assert.equal(props(kind)['apiVersion']?.['type'], 'string');
    assert.match(String(props(kind)['kind']?.['description']), /^Kind is a string value representing/);
    const spec = props(props(kind)['spec']);
    assert.deepEqual(spec['note'], { type: 'string', nullable: true });
    assert.deepEqual(spec['cronSpec'], { type: 'string', pattern: '^\\S+$' });
    assert.deepEqual(spec['port']?.['anyOf'], [{ type: 'integer' }, { type: 'string' }]);
    assert.deepEqual(Object.keys(props(spec['template'])), ['x', 'apiVersion', 'kind', 'metadata']);
    assert.deepEqual(spec['template']?.['required'], ['kind', 'apiVersion']);
    assert.deepEqual(Object.keys(props(spec['free'])), ['y']);
    const list = defs['com.example.stable.v1.CronTabList'] as Obj;
    assert.equal(list['description'], 'CronTabList is a list of CronTab');
    assert.deepEqual(props(list)['items']?.['items'], { $ref: 'com.example.stable.v1.CronTab' });
    assert.equal(props(list)['metadata']?.['$ref'], LIST_META);
    assert.deepEqual(list['x-kubernetes-group-version-kind'], [
      { group: 'stable.example.com', kind: 'CronTabList', version: 'v1' },
    ]);
  });

  it('v2: ToStructuralOpenAPIV2 drops junctors, nullable types and preserved fields', () => {
    const defs = customResourceDefinitions(crd(schema), { version: 'v1', v2: true });
    const spec = props(props(defs['com.example.stable.v1.CronTab'])['spec']);
    assert.deepEqual(spec['note'], {});
    assert.deepEqual(props(defs['com.example.stable.v1.CronTab'])['spec']?.['required'], ['cronSpec']);
    assert.deepEqual(spec['port'], { 'x-kubernetes-int-or-string': true });
    assert.deepEqual(spec['choice'], { type: 'string' });
    assert.deepEqual(spec['free'], { 'x-kubernetes-preserve-unknown-fields': true });
    assert.deepEqual(Object.keys(props(spec['template'])), ['x', 'apiVersion', 'kind', 'metadata']);
  });

  it('v2: a schema preserving unknown fields at its root, or none, is an opaque object', () => {
    for (const c of [crd(undefined), crd({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true })]) {
      const kind = customResourceDefinitions(c, { version: 'v1', v2: true })['com.example.stable.v1.CronTab'];
      assert.deepEqual(kind, {
        type: 'object',
        'x-kubernetes-group-version-kind': [{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }],
      });
      const v3 = customResourceDefinitions(c, { version: 'v1', v2: false })['com.example.stable.v1.CronTab'];
      assert.equal(props(v3)['metadata']?.['$ref'], OBJECT_META);
    }
  });

  it('uses the CRD listKind when it names one', () => {
    const c = crd(schema, { names: { plural: 'crontabs', kind: 'CronTab', listKind: 'CronTabCollection' } });
    assert.ok(
      'com.example.stable.v1.CronTabCollection' in customResourceDefinitions(c, { version: 'v1', v2: false }),
    );
  });
});

describe('customResourceOpenAPI', () => {
  it('defines the served versions, and defines them anew when the served groups change', () => {
    const served: { groups: readonly APIGroupInfo[]; crds: readonly CustomResourceDefinition[] } = {
      groups: [],
      crds: [crd(schema)],
    };
    const source = customResourceOpenAPI(served);
    const first = source.definitions('v3');
    assert.deepEqual(Object.keys(first), [
      'com.example.stable.v1.CronTab',
      'com.example.stable.v1.CronTabList',
    ]);
    assert.equal(source.definitions('v3'), first);
    assert.notEqual(source.definitions('v2'), first);
    served.crds = [];
    assert.equal(source.definitions('v3'), first, 'kept until the groups change');
    served.groups = [];
    assert.deepEqual(source.definitions('v3'), {});
    assert.equal(source.groups(), served.groups);
  });
});
