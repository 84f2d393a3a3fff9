import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { copyAsJSON, copyAsJSONNotingShared } from './copy-as-json.js';

const roundTrip = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;

/** Same members in the same order, at every depth (deepEqual ignores key order). */
function assertSameJSON(got: unknown, want: unknown): void {
  assert.equal(JSON.stringify(got), JSON.stringify(want));
  assert.deepEqual(got, want);
}

describe('copyAsJSON', () => {
  it('gives what a JSON round trip gives', () => {
    const sparse: unknown[] = [1];
    sparse[3] = 'x';
    const cases: unknown[] = [
      { a: 1, b: [1, 'x', null, true, { c: {} }], d: 'é\ud800' },
      { gone: undefined, kept: [undefined, 2], n: NaN, inf: -Infinity, zero: -0 },
      [sparse, [], {}],
      { 2: 'two', 1: 'one', b: 'b', a: 'a' },
      -0,
      Infinity,
      'text',
      null,
      false,
    ];
    for (const value of cases) {
      assertSameJSON(copyAsJSON(value), roundTrip(value));
      assert.ok(Object.is(copyAsJSON(value), roundTrip(value)) || typeof value === 'object');
    }
  });

  it('keeps a member named __proto__ as its own, as JSON.parse does', () => {
    const value = JSON.parse('{"data":{"__proto__":{"x":"y"},"b":"c"}}') as { data: object };
    const copy = copyAsJSON(value) as { data: Record<string, unknown> };
    assert.deepEqual(Object.keys(copy.data), ['__proto__', 'b']);
    assert.equal(Object.getPrototypeOf(copy.data), Object.prototype);
    assertSameJSON(copy, roundTrip(value));
  });

  it('leaves out inherited members, as JSON.stringify does', () => {
    const child = Object.create({ inherited: 1 }) as Record<string, unknown>;
    child['own'] = 2;
    assertSameJSON(copyAsJSON({ child }), roundTrip({ child }));
  });

  it('shares nothing with its input', () => {
    const value = { a: { b: [{ c: 1 }] } };
    const copy = copyAsJSON(value) as typeof value;
    const inner = copy.a.b[0];
    if (inner === undefined) throw new Error('no element');
    inner.c = 2;
    assert.equal(value.a.b[0]?.c, 1);
  });
});

describe('copyAsJSONNotingShared', () => {
  it('copies as copyAsJSON does, noting the copies of the parts the original holds at the same path', () => {
    const original = { meta: { name: 'a' }, spec: { list: [{ x: 1 }, { y: 2 }], map: { k: 'v' } }, gone: {} };
    const moved = original.spec.map;
    const value = {
      meta: original.meta,
      spec: {
        list: [original.spec.list[0], { y: 3 }, original.spec.list[0]],
        map: { k: 'v' },
        elsewhere: moved,
      },
      added: [original.meta],
      gone: undefined,
    };
    const shared = new WeakSet<object>();
    const copy = copyAsJSONNotingShared(value, original, shared) as typeof value;
    assertSameJSON(copy, copyAsJSON(value));
    // Copies, noted: the original's parts where they were.
    assert.notEqual(copy.meta, original.meta);
    assert.ok(shared.has(copy.meta));
    assert.ok(shared.has(copy.spec.list[0] as object));
    // Not noted: what was rebuilt (even when equal), and the original's parts found at another path.
    for (const part of [copy, copy.spec, copy.spec.list, copy.spec.list[1], copy.spec.map, copy.added])
      assert.equal(shared.has(part as object), false);
    assert.equal(shared.has(copy.spec.elsewhere), false);
    assert.equal(shared.has(copy.spec.list[2] as object), false);
    assert.equal(shared.has(copy.added[0] as object), false);
  });

  it('notes the whole copy when the value is the original, and nothing for scalars', () => {
    const original = { a: [1] };
    const shared = new WeakSet<object>();
    const copy = copyAsJSONNotingShared(original, original, shared) as typeof original;
    assert.ok(shared.has(copy));
    assert.equal(shared.has(copy.a), false);
    assert.equal(copyAsJSONNotingShared('s', 's', shared), 's');
    assert.equal(copyAsJSONNotingShared(-0, 0, shared), 0);
  });
});
