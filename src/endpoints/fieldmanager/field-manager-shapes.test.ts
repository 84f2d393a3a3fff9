// A create or an apply whose shape an earlier one had records what it records alone (a create with
// the earlier create's FieldsV1 object); objects of other shapes do not share what was recorded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { KubeObject } from '../../api/meta.js';
import { builtinFieldManager } from '../testing/field-manager.js';
import { maxShapeBytes } from '../../machinery/json/shapes.js';

const withoutTimes = (obj: KubeObject): unknown => ({
  ...obj,
  metadata: {
    ...obj.metadata,
    managedFields: obj.metadata?.managedFields?.map(({ time: _time, ...e }) => e),
  },
});

const text: fc.Arbitrary<string> = fc.constantFrom('', 'a', 'b', 'app', 'x-1');
const strings = fc.dictionary(fc.constantFrom('app', 'tier', 'a/b', 'zz'), text, { maxKeys: 3 });

/** Pods that differ where a create's field set does (and where it does not). */
const pods = fc.record({
  name: text,
  generateName: fc.option(text, { nil: undefined }),
  namespace: text,
  labels: strings,
  annotations: fc.option(strings, { nil: undefined }),
  containers: fc.array(
    fc.record({
      name: fc.constantFrom('app', 'side', ''),
      image: text,
      ports: fc.option(
        fc.array(fc.record({ containerPort: fc.constantFrom(80, 443, 0) }), { maxLength: 2 }),
        {
          nil: undefined,
        },
      ),
      env: fc.option(
        fc.array(fc.record({ name: fc.constantFrom('A', 'B'), value: text }), { maxLength: 2 }),
        {
          nil: undefined,
        },
      ),
    }),
    { minLength: 1, maxLength: 2 },
  ),
  nodeName: fc.option(text, { nil: undefined }),
  priority: fc.option(fc.constantFrom(0, 5), { nil: undefined }),
  hostNetwork: fc.option(fc.boolean(), { nil: undefined }),
});

type PodCase = typeof pods extends fc.Arbitrary<infer T> ? T : never;
type Masked = { [K in 'name' | 'namespace' | 'labels' | 'annotations']: PodCase['name'] } & {
  generateName: PodCase['generateName'];
};

function pod(p: PodCase): KubeObject {
  const meta: Record<string, unknown> = { name: p.name, namespace: p.namespace, labels: p.labels };
  if (p.generateName !== undefined) meta['generateName'] = p.generateName;
  if (p.annotations !== undefined) meta['annotations'] = p.annotations;
  const spec: Record<string, unknown> = { containers: p.containers };
  if (p.nodeName !== undefined) spec['nodeName'] = p.nodeName;
  if (p.priority !== undefined) spec['priority'] = p.priority;
  if (p.hostNetwork !== undefined) spec['hostNetwork'] = p.hostNetwork;
  return { apiVersion: 'v1', kind: 'Pod', metadata: meta, spec };
}

/**
 * A second Pod that differs from the first at most in the members the key masks, each drawn from
 * values that include the empty string: the pairs a wrong key would confuse.
 */
const masked = fc.record({
  name: text,
  generateName: fc.option(text, { nil: undefined }),
  namespace: text,
  labels: text,
  annotations: text,
});
const variant = (p: PodCase, m: Masked): PodCase => {
  const values = <V extends string>(map: Record<string, V>, v: V): Record<string, V> =>
    Object.fromEntries(Object.keys(map).map((k) => [k, v]));
  return {
    ...p,
    name: m.name,
    generateName: p.generateName === undefined ? undefined : m.generateName,
    namespace: m.namespace,
    labels: values(p.labels, m.labels),
    annotations: p.annotations === undefined ? undefined : values(p.annotations, m.annotations),
  };
};

describe('field manager: a create remembers its field set by the shape of the object', () => {
  it('records for every object what a field manager that never saw its shape records', () => {
    const shared = builtinFieldManager('v1', 'Pod', { zero: true });
    fc.assert(
      fc.property(pods, masked, (p, m) => {
        const q = variant(p, m);
        const alone = builtinFieldManager('v1', 'Pod', { zero: true }).createNoErrors(pod(q), 'creator');
        // The first's shape is remembered, then found by its key, then compared with the second: in a
        // field manager that saw only these, and in one where earlier runs' shapes stay too.
        for (const fm of [builtinFieldManager('v1', 'Pod', { zero: true }), shared]) {
          for (let i = 0; i < 2; i++) fm.createNoErrors(pod(p), 'creator');
          for (let i = 0; i < 2; i++)
            assert.deepEqual(withoutTimes(fm.createNoErrors(pod(q), 'creator')), withoutTimes(alone));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('objects that differ only in name, namespace, label and annotation values share one FieldsV1 object', () => {
    const fm = builtinFieldManager('v1', 'ConfigMap');
    const cm = (name: string, value: string, data: Record<string, string>): KubeObject => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: `ns-${name}`, labels: { app: value }, annotations: { note: value } },
      data,
    });
    const fieldsV1 = (obj: KubeObject): unknown => obj.metadata?.managedFields?.[0]?.fieldsV1;
    const first = fm.createNoErrors(cm('a', 'x', { k: '1' }), 'creator');
    const second = fm.createNoErrors(cm('b', 'y', { k: '1' }), 'other');
    assert.equal(fieldsV1(second), fieldsV1(first));
    assert.equal(second.metadata?.managedFields?.[0]?.manager, 'other');
    assert.equal(second.metadata.name, 'b');
    // Another data key, or value (values other than metadata's are as they are), or an empty label
    // value (a string's zero), is another shape.
    assert.notEqual(fieldsV1(fm.createNoErrors(cm('c', 'x', { j: '1' }), 'creator')), fieldsV1(first));
    assert.notEqual(fieldsV1(fm.createNoErrors(cm('d', 'x', { k: '2' }), 'creator')), fieldsV1(first));
  });

  it('a big object is not remembered: not keyed past a body of maxShapeBytes, nor kept past a key that long', () => {
    const fm = builtinFieldManager('v1', 'ConfigMap');
    const fieldsV1 = (obj: KubeObject): unknown => obj.metadata?.managedFields?.[0]?.fieldsV1;
    const big = (name: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name },
      data: { k: 'v'.repeat(maxShapeBytes) },
    });
    // Its body is as long: not keyed.
    const bodyBytes = JSON.stringify(big('a')).length;
    const first = fm.createNoErrors(big('a'), 'creator', bodyBytes);
    assert.notEqual(fieldsV1(fm.createNoErrors(big('b'), 'creator', bodyBytes)), fieldsV1(first));
    // Keyed (a caller that knows no body), but the key is too long to keep.
    const keyed = fm.createNoErrors(big('c'), 'creator');
    assert.notEqual(fieldsV1(fm.createNoErrors(big('d'), 'creator')), fieldsV1(keyed));
    assert.deepEqual(fieldsV1(keyed), fieldsV1(first));
  });
});

describe('field manager: an apply remembers its configuration’s field set by its shape', () => {
  const fmOf = (): ReturnType<typeof builtinFieldManager> => builtinFieldManager('v1', 'Pod', { zero: true });
  const creator = fmOf();
  /** A Pod in `ns` with containers of these names. */
  const named = (name: string, containers: readonly string[]): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'ns', labels: { app: 'x' } },
    spec: { containers: containers.map((c) => ({ name: c, image: 'i' })) },
  });
  const created = creator.createNoErrors(named('live', ['app']), 'creator');
  const live: KubeObject = { ...created, metadata: { ...created.metadata, uid: 'u', resourceVersion: '1' } };
  /** The applied object without its managedFields' times, or the error the apply threw. */
  const applying = (fm: ReturnType<typeof fmOf>, config: KubeObject): unknown => {
    try {
      return withoutTimes(fm.apply(live, config, { manager: 'applier', force: true }));
    } catch (err) {
      return err instanceof Error ? err.message : err;
    }
  };

  it('records for every configuration what a field manager that never saw its shape records', () => {
    const shared = fmOf();
    fc.assert(
      fc.property(pods, masked, (p, m) => {
        const q = pod(variant(p, m));
        const alone = applying(fmOf(), q);
        for (const fm of [fmOf(), shared]) {
          for (let i = 0; i < 2; i++) applying(fm, pod(p));
          for (let i = 0; i < 2; i++) assert.deepEqual(applying(fm, q), alone);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a configuration that does not fit the schema is refused each time, after one of its shape that fits', () => {
    const fm = fmOf();
    const fits = named('a', ['app']);
    // Two containers named alike: duplicate entries of the list keyed by name.
    const twice = named('a', ['app', 'app']);
    assert.equal(typeof applying(fm, fits), 'object');
    for (let i = 0; i < 2; i++) assert.match(String(applying(fm, twice)), /duplicate entries for key/);
  });
});
