import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { JWTAuthenticator } from './jwt-authenticator.js';
import type { JWTAuthenticatorConfig } from './authentication-config.js';
import { jwtAuthenticatorFromOidcFlags, parseAuthenticationConfig } from './load-authentication-config.js';
import { TestIssuer } from './testing/test-issuer.js';
import type { AuthenticationResult } from '../token-auth.js';

const flags = {
  clientID: 'capstan',
  caFile: '',
  usernameClaim: 'sub',
  usernamePrefix: '',
  groupsClaim: 'groups',
  groupsPrefix: 'oidc:',
  requiredClaims: {},
  signingAlgs: ['RS256'],
};

const userOf = (r: AuthenticationResult): unknown => (r.kind === 'user' ? r.user : r);

describe('JWT authenticator against a local HTTPS issuer', () => {
  let issuer: TestIssuer;
  let oidc: JWTAuthenticator;

  before(async () => {
    issuer = await TestIssuer.start();
    const config = await jwtAuthenticatorFromOidcFlags({ ...flags, issuerURL: issuer.url });
    oidc = await JWTAuthenticator.create({
      config: { ...config, issuer: { ...config.issuer, certificateAuthority: issuer.caPem } },
    });
  });
  after(() => issuer.close());

  it('maps sub with the issuer-URL prefix and the groups claim with its prefix', async () => {
    const token = await issuer.token('capstan', { claims: { sub: 'jane', groups: ['dev', 'ops'] } });
    assert.deepEqual(userOf(await oidc.authenticate(token)), {
      name: `${issuer.url}#jane`,
      groups: ['oidc:dev', 'oidc:ops'],
    });
  });

  it('refuses an expired token, a wrong audience and leaves another issuer to others', async () => {
    const expired = await issuer.token('capstan', { claims: { sub: 'jane' }, expiresIn: -60 });
    const r1 = await oidc.authenticate(expired);
    assert.ok(r1.kind === 'invalid');
    assert.match(r1.reason, /"exp" claim timestamp check failed/);
    const wrongAud = await issuer.token('capstan', { claims: { sub: 'jane' }, audience: 'someone-else' });
    assert.deepEqual(await oidc.authenticate(wrongAud), {
      kind: 'invalid',
      reason: 'oidc: verify token: oidc: expected audience in ["capstan"] got ["someone-else"]',
    });
    const other = await issuer.token('capstan', {
      claims: { sub: 'jane' },
      issuer: 'https://elsewhere.example',
    });
    assert.deepEqual(await oidc.authenticate(other), { kind: 'none' });
    assert.deepEqual(await oidc.authenticate('not-a-jwt'), { kind: 'none' });
  });

  it('fetches the JWKS again for a key it does not know', async () => {
    const before = issuer.jwksFetches;
    await issuer.rotate();
    const token = await issuer.token('capstan', { claims: { sub: 'kid2' } });
    assert.equal((await oidc.authenticate(token)).kind, 'user');
    assert.equal(issuer.jwksFetches, before + 1);
  });

  it('email claim: no prefix, and email_verified must not be false; required claims', async () => {
    const config = await jwtAuthenticatorFromOidcFlags({
      ...flags,
      issuerURL: issuer.url,
      usernameClaim: 'email',
      requiredClaims: { hd: 'example.com' },
    });
    const a = await JWTAuthenticator.create({
      config: { ...config, issuer: { ...config.issuer, certificateAuthority: issuer.caPem } },
    });
    const ok = await issuer.token('capstan', {
      claims: { email: 'j@example.com', email_verified: true, hd: 'example.com' },
    });
    assert.deepEqual(userOf(await a.authenticate(ok)), { name: 'j@example.com', groups: [] });
    const unverified = await issuer.token('capstan', {
      claims: { email: 'j@example.com', email_verified: false, hd: 'example.com' },
    });
    assert.deepEqual(await a.authenticate(unverified), {
      kind: 'invalid',
      reason: 'oidc: email not verified',
    });
    const noHd = await issuer.token('capstan', { claims: { email: 'j@example.com' } });
    assert.deepEqual(await a.authenticate(noHd), {
      kind: 'invalid',
      reason: 'oidc: required claim hd not present in ID token',
    });
  });

  it('claims named like Object.prototype members are claims like any other (kube: map keys)', async () => {
    const config = await jwtAuthenticatorFromOidcFlags({
      ...flags,
      issuerURL: issuer.url,
      groupsClaim: 'constructor',
      requiredClaims: JSON.parse('{"__proto__":"x","toString":"y"}') as Record<string, string>,
    });
    const a = await JWTAuthenticator.create({
      config: { ...config, issuer: { ...config.issuer, certificateAuthority: issuer.caPem } },
    });
    const claims = JSON.parse('{"sub":"jane","__proto__":"x","toString":"y"}') as Record<string, unknown>;
    const ok = await issuer.token('capstan', { claims });
    assert.deepEqual(userOf(await a.authenticate(ok)), { name: `${issuer.url}#jane`, groups: [] });
    const grouped = await issuer.token('capstan', { claims: { ...claims, constructor: ['dev'] } });
    assert.deepEqual(userOf(await a.authenticate(grouped)), {
      name: `${issuer.url}#jane`,
      groups: ['oidc:dev'],
    });
    const noProto = await issuer.token('capstan', { claims: { sub: 'jane', toString: 'y' } });
    assert.deepEqual(await a.authenticate(noProto), {
      kind: 'invalid',
      reason: 'oidc: required claim __proto__ not present in ID token',
    });
    const noToString = await issuer.token('capstan', {
      claims: JSON.parse('{"sub":"jane","__proto__":"x"}') as Record<string, unknown>,
    });
    assert.deepEqual(await a.authenticate(noToString), {
      kind: 'invalid',
      reason: 'oidc: required claim toString not present in ID token',
    });
    const uid = await JWTAuthenticator.create({
      config: {
        ...config,
        issuer: { ...config.issuer, certificateAuthority: issuer.caPem },
        claimMappings: { username: { claim: 'valueOf', prefix: '' } },
        claimValidationRules: [],
      },
    });
    assert.deepEqual(await uid.authenticate(noProto), {
      kind: 'invalid',
      reason: 'oidc: parse username claims "valueOf": claim not present',
    });
  });

  it('authentication-config: CEL claim mappings, claim and user validation rules', async () => {
    const file = parseAuthenticationConfig(
      [
        'apiVersion: apiserver.config.k8s.io/v1beta1',
        'kind: AuthenticationConfiguration',
        'jwt:',
        '- issuer:',
        `    url: ${issuer.url}`,
        '    audiences: [capstan, other]',
        '    audienceMatchPolicy: MatchAny',
        '  claimValidationRules:',
        '  - expression: \'claims.tier == "gold"\'',
        '    message: tier must be gold',
        '  claimMappings:',
        '    username: { expression: \'"cel:" + claims.preferred_username\' }',
        '    groups: { expression: \'claims.roles.map(r, "role:" + r)\' }',
        '    uid: { claim: sub }',
        '    extra:',
        "    - { key: example.com/tier, valueExpression: 'claims.tier' }",
        "    - { key: example.com/nick, valueExpression: 'has(claims.nick) ? claims.nick : null' }",
        '  userValidationRules:',
        '  - expression: \'!user.username.startsWith("cel:system")\'',
        '    message: no system users',
      ].join('\n'),
    );
    const jwt0 = file.jwt[0] as JWTAuthenticatorConfig;
    const a = await JWTAuthenticator.create({
      config: { ...jwt0, issuer: { ...jwt0.issuer, certificateAuthority: issuer.caPem } },
    });
    const token = await issuer.token('other', {
      claims: { sub: 'u-1', preferred_username: 'jane', roles: ['admin', 'dev'], tier: 'gold' },
    });
    assert.deepEqual(userOf(await a.authenticate(token)), {
      name: 'cel:jane',
      uid: 'u-1',
      groups: ['role:admin', 'role:dev'],
      extra: { 'example.com/tier': ['gold'] },
    });
    const silver = await issuer.token('capstan', {
      claims: { sub: 'u', preferred_username: 'j', roles: [], tier: 'silver' },
    });
    assert.deepEqual(await a.authenticate(silver), {
      kind: 'invalid',
      reason: 'oidc: error evaluating claim validation expression: tier must be gold',
    });
    const system = await issuer.token('capstan', {
      claims: { sub: 'u', preferred_username: 'system:x', roles: [], tier: 'gold' },
    });
    assert.deepEqual(await a.authenticate(system), {
      kind: 'invalid',
      reason: 'oidc: error evaluating user info validation rule: no system users',
    });
  });

  it('authentication-config validation reports kube field errors', () => {
    assert.throws(
      () =>
        parseAuthenticationConfig(
          [
            'apiVersion: apiserver.config.k8s.io/v1alpha1',
            'kind: AuthenticationConfiguration',
            'jwt:',
            '- issuer: { url: "http://x.example", audiences: [a, b] }',
            '  claimMappings: { username: { claim: sub } }',
          ].join('\n'),
        ),
      {
        message:
          '[jwt[0].issuer.url: Invalid value: "http://x.example": URL scheme must be https, jwt[0].issuer.audienceMatchPolicy: Invalid value: "": audienceMatchPolicy must be MatchAny for multiple audiences, jwt[0].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing]',
      },
    );
  });
});
