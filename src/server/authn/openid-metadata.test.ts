// openid-metadata: which issuers kube serves discovery for, and the keyset of an RSA key.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { keyIDFor } from '../../registry/core/serviceaccount/jwt.js';
import { openIDConfigJSON, openIDKeysetJSON, openIDMetadataRefusal } from './openid-metadata.js';

describe('openid metadata', () => {
  it('is served for an https issuer without query or fragment only', () => {
    assert.equal(openIDMetadataRefusal('https://issuer.example.com/cluster'), undefined);
    assert.equal(
      openIDMetadataRefusal('http://issuer.example.com'),
      'issuer URL must use https scheme, got: http://issuer.example.com',
    );
    assert.equal(
      openIDMetadataRefusal('https://issuer.example.com?a=b'),
      'issuer URL may not include a query, got: https://issuer.example.com?a=b',
    );
    assert.equal(
      openIDMetadataRefusal('https://issuer.example.com#x'),
      'issuer URL may not include a fragment, got: https://issuer.example.com#x',
    );
    assert.equal(openIDMetadataRefusal('api'), 'invalid issuer URL: api');
  });

  it('writes RSA keys as go-jose does and lists each algorithm once, sorted', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey;
    const { keys } = JSON.parse(openIDKeysetJSON([rsa, ec])) as { keys: Record<string, string>[] };
    assert.deepEqual(Object.keys(keys[0] ?? {}), ['use', 'kty', 'kid', 'alg', 'n', 'e']);
    assert.deepEqual([keys[0]?.kid, keys[0]?.alg, keys[0]?.e], [keyIDFor(rsa), 'RS256', 'AQAB']);
    assert.deepEqual([keys[1]?.crv, keys[1]?.alg], ['P-384', 'ES384']);
    const config = JSON.parse(
      openIDConfigJSON({ issuer: 'https://i', publicKeys: [rsa, ec, rsa] }, 'h:1'),
    ) as {
      id_token_signing_alg_values_supported: string[];
      jwks_uri: string;
    };
    assert.deepEqual(config.id_token_signing_alg_values_supported, ['ES384', 'RS256']);
    assert.equal(config.jwks_uri, 'https://h:1/openid/v1/jwks');
  });
});
