import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { managerOrUserAgent } from './field-managers.js';

// kube's prefixFromUserAgent, character by character: the reference the fast path must agree with.
function byCharacter(userAgent: string): string {
  let out = '';
  for (const ch of userAgent.split('/')[0] ?? '') {
    if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch)) continue;
    if (Buffer.byteLength(out + ch) > 128) break;
    out += ch;
  }
  return out;
}

describe('managerOrUserAgent', () => {
  it('takes the fieldManager parameter when given', () => {
    assert.equal(managerOrUserAgent('mine', 'kubectl/v1.33.1'), 'mine');
  });

  it("takes the user agent's printable prefix up to its first slash, at most 128 bytes", () => {
    assert.equal(
      managerOrUserAgent(undefined, 'kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0'),
      'kubectl',
    );
    assert.equal(managerOrUserAgent('', 'OpenAPI-Generator/22.6.0/python'), 'OpenAPI-Generator');
    assert.equal(managerOrUserAgent(undefined, 'no slash at all'), 'no slash at all');
    assert.equal(managerOrUserAgent(undefined, ''), '');
    assert.equal(managerOrUserAgent(undefined, '/v1'), '');
    assert.equal(managerOrUserAgent(undefined, 'a\u0001b\tc\u007f/x'), 'abc');
    assert.equal(managerOrUserAgent(undefined, 'x'.repeat(130)), 'x'.repeat(128));
    assert.equal(managerOrUserAgent(undefined, `${'x'.repeat(128)}/1`), 'x'.repeat(128));
    // A rune that does not fit whole ends the name.
    assert.equal(managerOrUserAgent(undefined, `${'x'.repeat(127)}é`), 'x'.repeat(127));
    assert.equal(managerOrUserAgent(undefined, 'héllo wörld/2'), 'héllo wörld');
  });

  it('agrees with the character-by-character rule on any user agent', () => {
    const chars = fc.constantFrom('a', 'Z', '/', ' ', '-', '~', '\u007f', '\u0001', 'é', '日', '\t');
    const agents = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ unit: chars, maxLength: 300 }),
      fc.string({ unit: 'binary', maxLength: 200 }),
    );
    fc.assert(
      fc.property(agents, (ua) => managerOrUserAgent(undefined, ua) === byCharacter(ua)),
      { numRuns: 2000 },
    );
  });
});
