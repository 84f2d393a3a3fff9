// An object's shape: its JSON with the name, generated name, namespace, uid, resourceVersion and
// label and annotation values masked to whether they are empty. sameShape, which compares an object with a parsed key,
// agrees with comparing keys (member order aside); ShapeMemo finds what was remembered for a shape.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { KubeObject } from '../../api/meta.js';
import { maxShapeBytes, sameShape, shapeKey, ShapeMemo } from './shapes.js';

/** JSON text with every object's members sorted: keys that differ only in member order agree. */
function sortedText(text: string): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : typeof v === 'object' && v !== null
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(sort(JSON.parse(text)));
}

const keyOf = (obj: KubeObject): string => {
  const key = shapeKey(obj);
  if (key === undefined) throw new Error('not keyed');
  return key;
};

const word = fc.constantFrom('', 'a', 'b', '-');
const scalar = fc.oneof(word, fc.constantFrom(0, 1, -0, true, false, null));
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, scalar, tie('list'), tie('object')),
  list: fc.array(tie('value'), { maxLength: 3 }),
  object: fc.dictionary(fc.constantFrom('a', 'b', 'name', 'labels', '0'), tie('value'), { maxKeys: 3 }),
})).value;

const objects = fc.record({
  name: word,
  namespace: fc.option(word, { nil: undefined }),
  labels: fc.option(fc.dictionary(fc.constantFrom('app', 'tier'), scalar, { maxKeys: 2 }), {
    nil: undefined,
  }),
  annotations: fc.option(fc.dictionary(fc.constantFrom('note'), word, { maxKeys: 1 }), { nil: undefined }),
  uid: fc.option(word, { nil: undefined }),
  resourceVersion: fc.option(word, { nil: undefined }),
  creationTimestamp: fc.option(word, { nil: undefined }),
  spec: json,
});
type Parts = typeof objects extends fc.Arbitrary<infer T> ? T : never;

/** The object of the parts; a member left out is absent, or present and undefined (`undefinedAs`). */
function build(p: Parts, undefinedAs: 'absent' | 'undefined' = 'absent'): KubeObject {
  const meta: Record<string, unknown> = { name: p.name };
  const put = (key: string, value: unknown): void => {
    if (value !== undefined || undefinedAs === 'undefined') meta[key] = value;
  };
  put('namespace', p.namespace);
  put('labels', p.labels);
  put('annotations', p.annotations);
  put('uid', p.uid);
  put('resourceVersion', p.resourceVersion);
  put('creationTimestamp', p.creationTimestamp);
  return { apiVersion: 'v1', kind: 'Thing', metadata: meta, spec: p.spec };
}

/** One small change to a JSON value: a near pair, which random pairs almost never are. */
function nudge(v: unknown, pick: number): unknown {
  if (Array.isArray(v)) {
    const list = v as readonly unknown[];
    if (list.length === 0 || pick % 5 === 0) return pick % 2 === 0 ? [...list, 'a'] : list.slice(1);
    const at = pick % list.length;
    return list.map((x, i) => (i === at ? nudge(x, Math.floor(pick / 7)) : x));
  }
  if (typeof v === 'object' && v !== null) {
    const keys = Object.keys(v);
    const obj = v as Record<string, unknown>;
    if (keys.length === 0 || pick % 5 === 0) return { ...obj, b: pick % 2 === 0 ? undefined : 'a' };
    const key = keys[pick % keys.length] as string;
    if (pick % 5 === 1) return Object.fromEntries(keys.reverse().map((k) => [k, obj[k]]));
    if (pick % 5 === 2) return { ...obj, [key]: undefined };
    return { ...obj, [key]: nudge(obj[key], Math.floor(pick / 7)) };
  }
  return [null, 'a', '', 0, 1, true, [], {}][pick % 8] ?? null;
}

const variants = fc.record({
  name: fc.option(word, { nil: undefined }),
  /** Another value of a metadata string: masked (uid, resourceVersion) or not (creationTimestamp). */
  meta: fc.option(fc.tuple(fc.constantFrom('uid', 'resourceVersion', 'creationTimestamp'), word), {
    nil: undefined,
  }),
  label: fc.option(scalar, { nil: undefined }),
  spec: fc.option(fc.nat(), { nil: undefined }),
  /** A member of metadata left out. */
  drop: fc.option(
    fc.constantFrom('namespace', 'labels', 'annotations', 'uid', 'resourceVersion', 'creationTimestamp'),
    { nil: undefined },
  ),
});

function variant(p: Parts, v: typeof variants extends fc.Arbitrary<infer T> ? T : never): Parts {
  const labels = p.labels === undefined || v.label === undefined ? p.labels : { ...p.labels, app: v.label };
  const out = {
    ...p,
    name: v.name ?? p.name,
    labels,
    spec: v.spec === undefined ? p.spec : nudge(p.spec, v.spec),
    ...(v.meta === undefined ? {} : { [v.meta[0]]: v.meta[1] }),
  };
  return v.drop === undefined ? out : { ...out, [v.drop]: undefined };
}

describe('shapes: sameShape agrees with the shape keys', () => {
  it('an object has the shape of a parsed key exactly when their keys agree, member order aside', () => {
    fc.assert(
      fc.property(objects, variants, fc.boolean(), (p, v, undefinedMembers) => {
        const a = build(p);
        const b = build(variant(p, v), undefinedMembers ? 'undefined' : 'absent');
        const model = JSON.parse(keyOf(a)) as Record<string, unknown>;
        assert.equal(sameShape(model, b), sortedText(keyOf(a)) === sortedText(keyOf(b)));
      }),
      { numRuns: 2000 },
    );
  });

  it('masks the name, namespace, uid, resourceVersion and label and annotation values to their zero-ness only', () => {
    const obj = (name: string, label: unknown, meta: Record<string, string>): KubeObject =>
      ({
        apiVersion: 'v1',
        kind: 'Thing',
        metadata: { name, labels: { app: label }, ...meta },
      }) as KubeObject;
    const versioned = { uid: 'u', resourceVersion: '1', creationTimestamp: 't' };
    const model = JSON.parse(keyOf(obj('a', 'x', versioned))) as Record<string, unknown>;
    assert.equal(sameShape(model, obj('b', 'y', versioned)), true);
    assert.equal(sameShape(model, obj('', 'y', versioned)), false);
    assert.equal(sameShape(model, obj('b', '', versioned)), false);
    assert.equal(sameShape(model, obj('b', 1, versioned)), false);
    assert.equal(sameShape(model, obj('b', 'y', { ...versioned, uid: 'v', resourceVersion: '2' })), true);
    assert.equal(sameShape(model, obj('b', 'y', { ...versioned, resourceVersion: '' })), false);
    // Other metadata is as it is.
    assert.equal(sameShape(model, obj('b', 'y', { ...versioned, creationTimestamp: 's' })), false);
  });

  it('refuses what JSON would write otherwise than it holds, where the key is then compared', () => {
    const obj = (spec: unknown): KubeObject => ({ apiVersion: 'v1', kind: 'Thing', metadata: {}, spec });
    const model = (spec: unknown): Record<string, unknown> =>
      JSON.parse(keyOf(obj(spec))) as Record<string, unknown>;
    assert.equal(sameShape(model([null]), obj([undefined])), false);
    assert.equal(sameShape(model({ at: 0 }), obj({ at: new Date(0) })), false);
    assert.equal(sameShape(model(null), obj(Number.NaN)), false);
    // An undefined member is left out, as JSON text leaves it out.
    assert.equal(sameShape(model({ a: 1 }), obj({ a: 1, b: undefined })), true);
  });
});

describe('shapes: shapeKey', () => {
  const cm = (name: string, value: string, data: Record<string, string>): KubeObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: `ns-${name}`, labels: { app: value }, annotations: { note: value } },
    data,
  });

  it('keys data values, and empty label values apart from others', () => {
    assert.equal(shapeKey(cm('a', 'x', { k: '1' })), shapeKey(cm('b', 'y', { k: '1' })));
    assert.notEqual(shapeKey(cm('a', 'x', { k: '2' })), shapeKey(cm('a', 'x', { k: '1' })));
    assert.notEqual(shapeKey(cm('a', '', { k: '1' })), shapeKey(cm('a', 'x', { k: '1' })));
  });

  it('does not key an object carrying managedFields, nor one from a body over maxShapeBytes', () => {
    assert.equal(shapeKey({ ...cm('a', 'x', {}), metadata: { name: 'a', managedFields: [] } }), undefined);
    const small: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} };
    assert.equal(shapeKey(small, maxShapeBytes + 1), undefined);
    assert.notEqual(shapeKey(small, maxShapeBytes), undefined);
  });
});

describe('shapes: ShapeMemo', () => {
  const obj = (name: string, n: number): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Thing',
    metadata: { name },
    spec: { n },
  });
  const find = (memo: ShapeMemo<number>, o: KubeObject): number | undefined => {
    const found = memo.lookup(o);
    return found !== undefined && 'value' in found ? found.value : undefined;
  };
  const remember = (memo: ShapeMemo<number>, o: KubeObject, value: number): void => {
    const found = memo.lookup(o);
    if (found === undefined || 'value' in found) throw new Error('expected a miss');
    memo.remember(found.key, value);
  };

  it('finds the value of the last shape and of earlier ones, and nothing for others', () => {
    const memo = new ShapeMemo<number>();
    remember(memo, obj('a', 1), 10);
    remember(memo, obj('a', 2), 20);
    assert.equal(find(memo, obj('b', 2)), 20);
    assert.equal(find(memo, obj('c', 1)), 10);
    assert.equal(find(memo, obj('d', 1)), 10);
    assert.equal(find(memo, obj('e', 2)), 20);
    assert.equal(find(memo, obj('f', 3)), undefined);
  });

  it('forgets the oldest of more than 32 shapes, and keeps no key over maxShapeBytes', () => {
    const memo = new ShapeMemo<number>();
    for (let n = 0; n <= 32; n++) {
      remember(memo, obj('a', n), n);
      // Found: the misses in a row start again, and every object is keyed.
      assert.equal(find(memo, obj('b', n)), n);
    }
    assert.equal(find(memo, obj('b', 0)), undefined);
    assert.equal(find(memo, obj('b', 1)), 1);
    assert.equal(find(memo, obj('b', 32)), 32);
    const big: KubeObject = {
      apiVersion: 'v1',
      kind: 'Thing',
      metadata: {},
      spec: 'x'.repeat(maxShapeBytes),
    };
    remember(memo, big, 1);
    assert.equal(find(memo, big), undefined);
  });

  it('after 16 lookups in a row that found nothing, keys one object in 16 until one is found', () => {
    const memo = new ShapeMemo<number>();
    for (let n = 0; n < 16; n++) remember(memo, obj('a', n), n);
    const outcome = (found: ReturnType<ShapeMemo<number>['lookup']>): unknown =>
      found === undefined ? 'not keyed' : 'value' in found ? found.value : 'new shape';
    const seen = Array.from({ length: 16 }, () => outcome(memo.lookup(obj('b', 3))));
    assert.deepEqual(seen, [...Array<string>(15).fill('not keyed'), 3]);
    // Found: every object is keyed again.
    assert.equal(find(memo, obj('c', 5)), 5);
    assert.equal(outcome(memo.lookup(obj('c', 99))), 'new shape');
  });

  it('keys nothing for an object without metadata', () => {
    assert.equal(new ShapeMemo<number>().lookup({ apiVersion: 'v1', kind: 'Thing' }), undefined);
  });
});
