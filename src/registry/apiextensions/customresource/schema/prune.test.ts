import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { pruneUnknownFields } from './prune.js';

const schema = (): JSONSchemaProps => ({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
        labels: {
          type: 'object',
          additionalProperties: { type: 'object', properties: { v: { type: 'string' } } },
        },
        free: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { s: { type: 'object' } },
        },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } },
        },
      },
    },
  },
});

describe('pruneUnknownFields', () => {
  it('drops unknown fields at every level and reports them sorted', () => {
    const obj: Record<string, unknown> = {
      apiVersion: 'x/v1',
      kind: 'K',
      metadata: { name: 'a', bogus: 1 },
      extra: true,
      spec: {
        replicas: 1,
        foo: 'x',
        items: [{ name: 'a', bar: 1 }, 'scalar', { baz: [] }],
        labels: { k: { v: 's', w: 1 } },
      },
    };
    const paths = pruneUnknownFields(obj, schema(), { isResourceRoot: true });
    assert.deepEqual(paths, [
      'metadata.bogus',
      'extra',
      'spec.foo',
      'spec.items[0].bar',
      'spec.items[2].baz',
      'spec.labels.k.w',
    ]);
    assert.deepEqual(obj, {
      apiVersion: 'x/v1',
      kind: 'K',
      metadata: { name: 'a' },
      spec: { replicas: 1, items: [{ name: 'a' }, 'scalar', {}], labels: { k: { v: 's' } } },
    });
  });

  it('keeps unknown fields under preserve-unknown-fields but prunes specified children', () => {
    const obj: Record<string, unknown> = { spec: { free: { any: { deep: 1 }, s: { gone: 1 } } } };
    const paths = pruneUnknownFields(obj, schema(), { isResourceRoot: true });
    assert.deepEqual(paths, ['spec.free.s.gone']);
    assert.deepEqual(obj, { spec: { free: { any: { deep: 1 }, s: {} } } });
  });

  it('keeps apiVersion, kind and metadata of embedded resources and prunes inside their metadata', () => {
    const obj: Record<string, unknown> = {
      spec: {
        template: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'p', nope: 1 },
          spec: { a: 'x', b: 2 },
          z: 1,
        },
      },
    };
    const paths = pruneUnknownFields(obj, schema(), { isResourceRoot: true });
    assert.deepEqual(paths, ['spec.template.spec.b', 'spec.template.z', 'spec.template.metadata.nope']);
    assert.deepEqual(obj, {
      spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { a: 'x' } } },
    });
  });

  it('prunes apiVersion/kind/metadata when not at a resource root', () => {
    const obj: Record<string, unknown> = { apiVersion: 'v1', kind: 'K', spec: {} };
    const paths = pruneUnknownFields(obj, schema(), { isResourceRoot: false });
    assert.deepEqual(paths, []);
    assert.deepEqual(obj, { spec: {} });
  });

  it('treats additionalProperties: true as keeping keys but pruning objects below them', () => {
    const s: JSONSchemaProps = {
      type: 'object',
      properties: { m: { type: 'object', additionalProperties: true } },
    };
    const obj: Record<string, unknown> = { m: { a: 1, b: { c: 1 } } };
    assert.deepEqual(pruneUnknownFields(obj, s, { isResourceRoot: true }), ['m.b.c']);
    assert.deepEqual(obj, { m: { a: 1, b: {} } });
  });

  it('does not crash on wrong types (array for object, scalar for array, null, non-object metadata)', () => {
    const obj: Record<string, unknown> = {
      metadata: 'nope',
      spec: { items: { name: 'x' }, labels: [1, { v: 1, q: 2 }], template: null, replicas: { a: 1 } },
    };
    const paths = pruneUnknownFields(obj, schema(), { isResourceRoot: true });
    // An array where an object is specified is walked with no item schema: all object keys go.
    assert.deepEqual(paths, ['spec.items.name', 'spec.labels[1].q', 'spec.labels[1].v', 'spec.replicas.a']);
    assert.equal(obj['metadata'], 'nope');
  });

  it('reports owner reference unknown fields in root metadata', () => {
    const obj: Record<string, unknown> = {
      metadata: { name: 'a', ownerReferences: [{ name: 'o', kind: 'K', what: 1 }] },
    };
    assert.deepEqual(pruneUnknownFields(obj, schema(), { isResourceRoot: true }), [
      'metadata.ownerReferences[0].what',
    ]);
  });
});
