// The merge patch builds its result around the target's parts the patch does not reach, then copies
// it: the same result as merging into a copy of the target, fresh, and with those parts noted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { mergePatch } from './merge-patch.js';

type JSONObject = Record<string, unknown>;
const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 7386 as evanphx/json-patch applies it, on a JSON copy of the target: the oracle. */
function reference(target: unknown, patch: unknown): unknown {
  const prune = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(prune);
    if (!isObject(v)) return v;
    return Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (x === null ? [] : [[k, prune(x)]])));
  };
  const merge = (doc: JSONObject, p: JSONObject): void => {
    for (const [k, v] of Object.entries(p)) {
      const cur = doc[k];
      if (v === null) Reflect.deleteProperty(doc, k);
      else if (!isObject(cur)) doc[k] = prune(v);
      else if (!isObject(v)) doc[k] = v;
      else merge(cur, v);
    }
  };
  if (!isObject(patch) || !isObject(target)) return JSON.parse(JSON.stringify(prune(patch))) as unknown;
  const doc = JSON.parse(JSON.stringify(target)) as JSONObject;
  merge(doc, JSON.parse(JSON.stringify(patch)) as JSONObject);
  return doc;
}

const key = fc.constantFrom('a', 'b', 'c');
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom<unknown>(null, 1, 'x', true),
    fc.array(tie('tree'), { maxLength: 2 }),
    fc.dictionary(key, tie('tree'), { maxKeys: 3 }),
  ),
}));

describe('mergePatch', () => {
  it('gives what merging into a copy of the target gives, fresh, leaving both inputs alone', () => {
    fc.assert(
      fc.property(fc.dictionary(key, tree, { maxKeys: 3 }), tree, (target, patch) => {
        const before = JSON.stringify({ target, patch });
        const shared = new WeakSet<object>();
        const got = mergePatch(target, patch, shared);
        assert.equal(JSON.stringify(got), JSON.stringify(reference(target, patch)));
        assert.equal(JSON.stringify(mergePatch(target, patch)), JSON.stringify(got));
        assert.equal(JSON.stringify({ target, patch }), before);
        // Nothing of the result is the target's or the patch's own.
        const inputs = new Set<unknown>();
        const collect = (v: unknown): void => {
          if (typeof v !== 'object' || v === null) return;
          inputs.add(v);
          for (const x of Object.values(v)) collect(x);
        };
        collect(target);
        collect(patch);
        const fresh = (v: unknown): void => {
          if (typeof v !== 'object' || v === null) return;
          assert.equal(inputs.has(v), false);
          for (const x of Object.values(v)) fresh(x);
        };
        fresh(got);
      }),
      { numRuns: 500 },
    );
  });

  it('prunes nulls from a value that replaces no object, as evanphx/json-patch does', () => {
    const patch = { a: [{ b: null, c: 1 }] };
    assert.deepEqual(mergePatch({ a: { x: 1 } }, patch, new WeakSet()), { a: [{ b: null, c: 1 }] });
    assert.deepEqual(mergePatch({ a: 'x' }, patch, new WeakSet()), { a: [{ c: 1 }] });
    assert.deepEqual(mergePatch({}, patch, new WeakSet()), { a: [{ c: 1 }] });
  });

  it('notes the copies of the parts the patch did not reach', () => {
    const target = { metadata: { labels: { a: '1' }, annotations: { n: 'x' } }, spec: { list: [{ k: 1 }] } };
    const shared = new WeakSet<object>();
    const got = mergePatch(target, { metadata: { labels: { b: '2' } } }, shared) as typeof target;
    assert.deepEqual(got.metadata.labels, { a: '1', b: '2' });
    for (const part of [got.spec, got.metadata.annotations]) assert.ok(shared.has(part));
    for (const part of [got, got.metadata, got.metadata.labels]) assert.equal(shared.has(part), false);
  });
});
