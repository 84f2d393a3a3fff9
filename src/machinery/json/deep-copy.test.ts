import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deepCopyJSON } from './deep-copy.js';

describe('deepCopyJSON', () => {
  it('copies every level, so changing the copy leaves the original alone', () => {
    const original = { a: { b: [1, { c: 'x' }], d: null, e: true }, f: [[2]] };
    const copy = deepCopyJSON(original);
    assert.deepEqual(copy, original);
    copy.a.b.push(3);
    (copy.a.b[1] as { c: string }).c = 'y';
    copy.f[0]?.push(4);
    assert.deepEqual(original, { a: { b: [1, { c: 'x' }], d: null, e: true }, f: [[2]] });
  });

  it('returns scalars as they are and keeps undefined members, as structuredClone does', () => {
    assert.equal(deepCopyJSON('s'), 's');
    assert.equal(deepCopyJSON(null), null);
    const copy = deepCopyJSON({ gone: undefined, kept: 1 });
    assert.ok(Object.hasOwn(copy, 'gone'));
    assert.deepEqual(copy, structuredClone({ gone: undefined, kept: 1 }));
  });

  it('does not share frozen input with the copy', () => {
    const frozen: { m: { n: number } } = Object.freeze({ m: Object.freeze({ n: 1 }) });
    const copy = deepCopyJSON(frozen);
    copy.m.n = 2;
    assert.equal(frozen.m.n, 1);
    assert.ok(!Object.isFrozen(copy.m));
  });

  it('copies a `__proto__` member as a member, never as the prototype', () => {
    const parsed = JSON.parse('{"a":{"__proto__":{"polluted":"yes"}}}') as { a: object };
    const copy = deepCopyJSON(parsed);
    assert.equal(Object.getPrototypeOf(copy.a), Object.prototype);
    assert.equal((copy.a as { polluted?: string }).polluted, undefined);
    assert.deepEqual(Object.keys(copy.a), ['__proto__']);
    assert.equal(JSON.stringify(copy), JSON.stringify(parsed));
  });
});
