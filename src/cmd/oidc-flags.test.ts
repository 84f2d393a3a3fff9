import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseFlags } from './flag-set.js';
import { capstanFlags } from './flags.js';
import { defaultServerRunOptions } from '../server/options/server-run-options.js';

describe('oidc flags', () => {
  it('keeps required claims named like Object.prototype members (kube: map keys like any other)', () => {
    const o = defaultServerRunOptions();
    parseFlags(
      ['--oidc-required-claim=__proto__=x,constructor=y', '--oidc-required-claim=hd=example.com'],
      capstanFlags,
      o,
    );
    assert.deepEqual(Object.entries(o.oidc.requiredClaims), [
      ['__proto__', 'x'],
      ['constructor', 'y'],
      ['hd', 'example.com'],
    ]);
    assert.equal(Object.getPrototypeOf(o.oidc.requiredClaims), Object.prototype);
  });
});
