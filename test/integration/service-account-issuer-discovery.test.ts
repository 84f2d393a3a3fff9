// The service account issuer's OIDC discovery documents, as kube serves them for an https issuer:
// the configuration names the issuer and the keyset's URL, and the keyset's key verifies a token
// the TokenRequest API mints. One in-process server.
import assert from 'node:assert/strict';
import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';

describe('service account issuer discovery', () => {
  let server: CapstanServer;
  const call = async (method: string, path: string, body?: unknown): Promise<Response> => {
    const token = server.kubeConfig.users[0]?.user.token ?? '';
    return fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  };

  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
  });
  after(() => server.stop());

  it('serves the configuration with the issuer, the keyset URL and the key algorithms', async () => {
    const res = await call('GET', '/.well-known/openid-configuration');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=3600');
    assert.equal(
      await res.text(),
      JSON.stringify({
        issuer: 'https://kubernetes.default.svc.cluster.local',
        jwks_uri: `https://${new URL(server.url).host}/openid/v1/jwks`,
        response_types_supported: ['id_token'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['ES256'],
      }),
    );
  });

  it('serves a keyset whose key verifies a minted service account token', async () => {
    const res = await call('GET', '/openid/v1/jwks');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/jwk-set+json');
    const { keys } = (await res.json()) as {
      keys: (JsonWebKey & { kid: string; use: string; alg: string })[];
    };
    assert.equal(keys.length, 1);
    const [key] = keys;
    assert.ok(key !== undefined);
    assert.deepEqual(Object.keys(key), ['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y']);
    assert.deepEqual([key.use, key.kty, key.crv, key.alg], ['sig', 'EC', 'P-256', 'ES256']);

    // The default ServiceAccount comes from a controller shortly after start.
    let minted: Response | undefined;
    for (let i = 0; i < 100; i++) {
      minted = await call('POST', '/api/v1/namespaces/default/serviceaccounts/default/token', {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { audiences: ['vault'] },
      });
      if (minted.status !== 404) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(minted?.status, 201);
    const jwt = ((await minted.json()) as { status: { token: string } }).status.token;
    const [header = '', payload = '', signature = ''] = jwt.split('.');
    assert.equal((JSON.parse(Buffer.from(header, 'base64url').toString()) as { kid: string }).kid, key.kid);
    const publicKey = createPublicKey({ key, format: 'jwk' });
    const signed = Buffer.from(`${header}.${payload}`);
    assert.ok(
      verify(
        'sha256',
        signed,
        { key: publicKey, dsaEncoding: 'ieee-p1363' },
        Buffer.from(signature, 'base64url'),
      ),
    );
  });
});
