import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { jsonEqual } from './json.js';

describe('jsonEqual', () => {
  it('compares JSON values structurally, member order aside', () => {
    assert.ok(jsonEqual({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 }));
    assert.ok(!jsonEqual({ a: 1 }, { a: '1' }));
    assert.ok(!jsonEqual([1, 2], [2, 1]));
    assert.ok(!jsonEqual({ a: null }, {}));
  });

  it('never takes a member one side lacks for the prototype member of that name', () => {
    // Read by name, a member y lacks is y's prototype's: Object.prototype for __proto__, which
    // compares equal to an empty object; as many members on each side would hide the difference.
    const parse = (text: string): unknown => JSON.parse(text);
    assert.ok(!jsonEqual(parse('{"__proto__":{}}'), { a: 1 }));
    assert.ok(!jsonEqual({ a: 1 }, parse('{"__proto__":{}}')));
    assert.ok(!jsonEqual(parse('{"constructor":{}}'), { a: 1 }));
    assert.ok(!jsonEqual(parse('{"toString":{}}'), { a: 1 }));
    assert.ok(jsonEqual(parse('{"__proto__":{}}'), parse('{"__proto__":{}}')));
  });

  it('agrees with a comparison of canonical texts on generated values', () => {
    const canonical = (v: unknown): string =>
      JSON.stringify(v, (_k, x: unknown) =>
        typeof x === 'object' && x !== null && !Array.isArray(x)
          ? Object.fromEntries(Object.entries(x).sort(([p], [q]) => (p < q ? -1 : p > q ? 1 : 0)))
          : x,
      );
    // A small alphabet, so that equal pairs come up often, with keys such as __proto__ and constructor.
    const key = fc.constantFrom('a', 'b', '__proto__', 'constructor', '0');
    const value = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom(0, 1, '', 'a', true, null),
        fc.array(tie('v'), { maxLength: 2 }),
        fc.dictionary(key, tie('v'), { maxKeys: 3 }),
      ),
    })).v;
    fc.assert(
      fc.property(value, value, (x, y) => {
        const a: unknown = JSON.parse(JSON.stringify(x));
        const b: unknown = JSON.parse(JSON.stringify(y));
        assert.equal(jsonEqual(a, b), canonical(a) === canonical(b));
        assert.ok(jsonEqual(a, JSON.parse(JSON.stringify(a))));
      }),
      { numRuns: 2000 },
    );
  });

  it('takes a member set to undefined as absent, as JSON.stringify does', () => {
    assert.ok(jsonEqual({ a: 1, b: undefined }, { a: 1 }));
    assert.ok(jsonEqual({ a: 1 }, { a: 1, b: undefined }));
    assert.ok(!jsonEqual({ a: 1, b: undefined }, { a: 1, c: 2 }));
  });
});
