import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mayEscapeSurrogate, parseWellFormed, wellFormedJSON } from './well-formed.js';

describe('wellFormedJSON', () => {
  it('reads a lone surrogate in a string or a key as U+FFFD, as Go decodes it', () => {
    assert.deepEqual(parseWellFormed('{"name":"a\\ud800b","tail":"\\udfff"}'), {
      name: 'a\ufffdb',
      tail: '\ufffd',
    });
    assert.deepEqual(Object.keys(parseWellFormed('{"k\\udc00":1,"z":2}') as object), ['k\ufffd', 'z']);
    assert.deepEqual(parseWellFormed('["\\ud83d", ["\\ude00x"]]'), ['\ufffd', ['\ufffdx']]);
  });

  it('keeps a surrogate pair, escaped or not, and shares what holds no lone surrogate', () => {
    assert.equal(parseWellFormed('"\\ud83d\\ude00"'), '😀');
    const value = { a: { b: ['x', '😀'] }, c: 1, d: null };
    assert.equal(wellFormedJSON(value), value);
    const mixed = { kept: { b: ['x'] }, changed: ['\ud800'] };
    const out = wellFormedJSON(mixed) as typeof mixed;
    assert.notEqual(out, mixed);
    assert.equal(out.kept, mixed.kept, 'a part without one is shared');
    assert.deepEqual(out.changed, ['\ufffd']);
    assert.deepEqual(mixed.changed, ['\ud800'], 'the input is left as it was');
  });

  it('keeps the members order, a __proto__ key as a member, and the later of two keys made one', () => {
    const out = parseWellFormed('{"a":1,"__proto__":{"x":"\\ud800"},"b\\ud800":2,"b\\udbff":3}') as Record<
      string,
      unknown
    >;
    assert.deepEqual(Object.keys(out), ['a', '__proto__', 'b\ufffd']);
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(out, '__proto__')?.value, { x: '\ufffd' });
    assert.equal(out['b\ufffd'], 3, 'the later key wins, as in Go');
  });

  it('looks for a walk only where the text escapes a surrogate', () => {
    assert.equal(mayEscapeSurrogate('{"a":"\\u003c"}'), false);
    assert.equal(mayEscapeSurrogate('{"a":"😀"}'), false);
    assert.equal(mayEscapeSurrogate('{"a":"\\uD800"}'), true);
    assert.equal(mayEscapeSurrogate('{"a":"\\udc00"}'), true);
  });
});
