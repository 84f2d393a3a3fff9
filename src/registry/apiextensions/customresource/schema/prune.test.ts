import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import fc from 'fast-check';
import { prunedPaths, pruneUnknownFields, prunes } from './prune.js';

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

  it('prunes keys named as Object.prototype members that the schema does not declare', () => {
    const obj = {
      apiVersion: 'x/v1',
      kind: 'W',
      metadata: { name: 'n' },
      spec: JSON.parse('{"replicas":1,"toString":"x","constructor":{"b":1},"hasOwnProperty":2}') as unknown,
    };
    assert.deepEqual(pruneUnknownFields(obj, schema(), { isResourceRoot: true }), [
      'spec.constructor',
      'spec.hasOwnProperty',
      'spec.toString',
    ]);
    assert.deepEqual(obj.spec, { replicas: 1 });
  });
});

describe('prunes (whether pruning removes anything)', () => {
  const leaf = fc.constantFrom<JSONSchemaProps>({}, { type: 'string' }, { type: 'object' });
  const node: fc.Arbitrary<JSONSchemaProps> = fc.letrec<{ s: JSONSchemaProps }>((tie) => {
    const sub = fc.oneof({ maxDepth: 3, depthIdentifier: 'schema' }, leaf, tie('s'));
    return {
      s: fc
        .record(
          {
            properties: fc.dictionary(fc.constantFrom('a', 'b', 'apiVersion', 'metadata'), sub, {
              maxKeys: 3,
            }),
            additionalProperties: fc.oneof(fc.constant(undefined), fc.boolean(), sub),
            items: fc.oneof(fc.constant(undefined), sub),
            preserve: fc.boolean(),
            embedded: fc.boolean(),
          },
          { requiredKeys: [] },
        )
        .map(({ preserve, embedded, ...rest }) => {
          const out: Record<string, unknown> = {};
          for (const [k, v] of Object.entries(rest)) if (v !== undefined) out[k] = v;
          if (preserve === true) out['x-kubernetes-preserve-unknown-fields'] = true;
          if (embedded === true) out['x-kubernetes-embedded-resource'] = true;
          return out;
        }),
    };
  }).s;
  const value = fc.letrec<{ v: unknown }>((tie) => ({
    v: fc.oneof(
      { maxDepth: 4 },
      fc.constantFrom('s', 1, null, true),
      fc.array(tie('v'), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom('a', 'b', 'c', 'kind', 'metadata', 'toString'), tie('v'), { maxKeys: 3 }),
    ),
  })).v;

  it('agrees with the pruning walk on a copy, on generated schemas and values', () => {
    const verdicts = { false: 0, true: 0 };
    fc.assert(
      fc.property(node, value, (s, data) => {
        const copy = structuredClone(data);
        const before = JSON.stringify(copy);
        prunedPaths(copy, s);
        const pruned = JSON.stringify(copy) !== before;
        assert.equal(prunes(data, s), pruned, JSON.stringify({ s, data }));
        verdicts[pruned ? 'true' : 'false']++;
      }),
      { numRuns: 5000 },
    );
    assert.ok(Math.min(verdicts.false, verdicts.true) > 500, JSON.stringify(verdicts));
  });
});
