import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { signJwt } from '../../registry/core/serviceaccount/jwt.js';
import { serviceAccountTokenAuthenticator } from './service-account-authenticator.js';
import { loadServiceAccountKeys } from './service-account-keys.js';
import { audienceAgnostic, type TokenAuthenticator } from './token-authenticator.js';
import { tokenReviewAuthenticator } from './token-review-authenticator.js';

const signal = new AbortController().signal;
const api = 'https://kubernetes.default.svc.cluster.local';
const tokens = new Map([['admin-token', { name: 'admin', uid: 'a1', groups: ['system:masters'] }]]);
const oidc: TokenAuthenticator = (token) =>
  Promise.resolve(
    token === 'oidc-token'
      ? { kind: 'user', user: { name: 'https://issuer#jane', groups: [] } }
      : { kind: 'none' },
  );

describe('tokenReviewAuthenticator', () => {
  it('runs the static tokens audience agnostic: for the API audiences only', async () => {
    const review = tokenReviewAuthenticator({ tokens, authenticators: [], apiAudiences: [api] });
    assert.deepEqual(await review('admin-token', [api], signal), {
      authenticated: true,
      user: { name: 'admin', uid: 'a1', groups: ['system:masters', 'system:authenticated'] },
      audiences: [api],
    });
    assert.deepEqual(await review('admin-token', ['vault'], signal), {
      authenticated: false,
      error: 'invalid bearer token',
    });
    assert.deepEqual(await review('nobody', [api], signal), {
      authenticated: false,
      error: 'invalid bearer token',
    });
    // No audiences anywhere: no audience check, none answered.
    const plain = tokenReviewAuthenticator({ tokens, authenticators: [] });
    assert.deepEqual(await plain('admin-token', [], signal), {
      authenticated: true,
      user: { name: 'admin', uid: 'a1', groups: ['system:masters', 'system:authenticated'] },
    });
  });

  it('wraps an audience agnostic authenticator as kube does', async () => {
    const review = tokenReviewAuthenticator({
      tokens: new Map(),
      authenticators: [audienceAgnostic([api], oidc)],
      apiAudiences: [api],
    });
    assert.deepEqual(await review('oidc-token', ['other', api], signal), {
      authenticated: true,
      user: { name: 'https://issuer#jane', groups: ['system:authenticated'] },
      audiences: [api],
    });
    assert.equal((await review('oidc-token', ['other'], signal)).authenticated, false);
  });

  it('checks service account tokens against the review audiences', async () => {
    const keys = await loadServiceAccountKeys({
      signingKeyFile: '',
      keyFiles: [],
      issuers: [],
      apiAudiences: [],
      generatedKeyPath: undefined,
    });
    const now = Math.floor(Date.now() / 1000);
    const token = signJwt(keys.signer, {
      iss: api,
      aud: ['vault', 'nomad'],
      sub: 'system:serviceaccount:team:robot',
      exp: now + 600,
      iat: now,
      nbf: now,
      jti: 'j1',
      'kubernetes.io': { namespace: 'team', serviceaccount: { name: 'robot', uid: 'sa-uid' } },
    });
    const review = tokenReviewAuthenticator({
      tokens: new Map(),
      authenticators: [serviceAccountTokenAuthenticator({ keys })],
      apiAudiences: keys.apiAudiences,
    });
    const vault = await review(token, ['nomad', 'x'], signal);
    assert.ok(vault.authenticated);
    assert.deepEqual(vault.audiences, ['nomad']);
    assert.deepEqual(vault.user.groups, [
      'system:serviceaccounts',
      'system:serviceaccounts:team',
      'system:authenticated',
    ]);
    assert.deepEqual(await review(token, [api], signal), {
      authenticated: false,
      error: `token audiences ["vault" "nomad"] is invalid for the target audiences ["${api}"]`,
    });
  });
});
