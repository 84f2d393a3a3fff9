// --service-account-jwks-uri: parsed into the options, checked with kube's words, and named as
// jwks_uri by the discovery document.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { openIDConfigJSON } from '../server/authn/openid-metadata.js';
import { defaultServerRunOptions, validateServerRunOptions } from '../server/options/server-run-options.js';
import { parseFlags } from './flag-set.js';
import { capstanFlags } from './flags.js';

describe('--service-account-jwks-uri', () => {
  const withFlag = (value: string) => {
    const o = defaultServerRunOptions();
    parseFlags([`--service-account-jwks-uri=${value}`], capstanFlags, o);
    return o;
  };

  it('takes an https URL', () => {
    const o = withFlag('https://keys.example.com/openid/v1/jwks');
    assert.equal(o.serviceAccountJWKSURI, 'https://keys.example.com/openid/v1/jwks');
    assert.deepEqual(validateServerRunOptions(o), []);
  });

  it('refuses another scheme and what is not a URL, as kube words it', () => {
    assert.deepEqual(validateServerRunOptions(withFlag('http://keys.example.com/jwks')), [
      'service-account-jwks-uri requires https scheme, parsed as: http://keys.example.com/jwks',
    ]);
    assert.equal(validateServerRunOptions(withFlag('keys')).length, 1);
  });

  it('is the jwks_uri of the discovery document', () => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const input = {
      issuer: 'https://issuer',
      publicKeys: [publicKey],
      jwksURI: 'https://keys.example.com/k',
    };
    assert.equal(
      (JSON.parse(openIDConfigJSON(input, 'ignored:6443')) as { jwks_uri: string }).jwks_uri,
      'https://keys.example.com/k',
    );
  });
});
