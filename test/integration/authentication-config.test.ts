// --authentication-config in process: a JWT authenticator for an issuer in this process (JWKS on
// loopback HTTPS) whose claim mappings are CEL expressions; SelfSubjectReview shows the user they
// make, and a token its claim validation rule refuses is 401.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startInProcess, type InProcessServer } from './support/in-process-server.js';
import { TestIssuer } from '../../src/server/authn/jwt/testing/test-issuer.js';

const indent = (text: string, by: string): string =>
  text
    .trim()
    .split('\n')
    .map((l) => `${by}${l}`)
    .join('\n');

describe('--authentication-config', () => {
  let dir: string;
  let issuer: TestIssuer;
  let server: InProcessServer;

  before(async () => {
    issuer = await TestIssuer.start();
    dir = await mkdtemp(join(tmpdir(), 'capstan-authn-config-'));
    const config = [
      'apiVersion: apiserver.config.k8s.io/v1beta1',
      'kind: AuthenticationConfiguration',
      'jwt:',
      '- issuer:',
      `    url: ${issuer.url}`,
      '    audiences: [capstan]',
      '    certificateAuthority: |',
      indent(issuer.caPem, '      '),
      '  claimValidationRules:',
      "  - expression: 'claims.email_verified == true'",
      '    message: email must be verified',
      '  claimMappings:',
      '    username: { expression: \'"corp:" + claims.email.split("@")[0]\' }',
      '    groups: { expression: \'claims.teams.map(t, "team:" + t)\' }',
      "    uid: { expression: 'claims.sub' }",
      '    extra:',
      "    - { key: corp.example/site, valueExpression: 'claims.site' }",
    ].join('\n');
    await writeFile(join(dir, 'authn.yaml'), `${config}\n`);
    server = await startInProcess((o) => {
      o.storage.backend = 'memory';
      o.storage.dataDir = dir;
      o.authenticationConfigFile = join(dir, 'authn.yaml');
    });
  });
  after(async () => {
    await server.stop();
    await issuer.close();
    await rm(dir, { recursive: true, force: true });
  });

  const review = (token: string): Promise<Response> =>
    fetch(`${server.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
    });

  it('maps the claims with the CEL expressions', async () => {
    const token = await issuer.token('capstan', {
      claims: {
        sub: 'u-42',
        email: 'ada@corp.example',
        email_verified: true,
        teams: ['infra', 'sre'],
        site: 'ber',
      },
    });
    const res = await review(token);
    assert.equal(res.status, 201);
    const body = (await res.json()) as { status: { userInfo: unknown } };
    assert.deepEqual(body.status.userInfo, {
      username: 'corp:ada',
      uid: 'u-42',
      groups: ['team:infra', 'team:sre', 'system:authenticated'],
      extra: { 'corp.example/site': ['ber'] },
    });
  });

  it('refuses a token its claim validation rule does not pass, and a wrong audience, with 401', async () => {
    const unverified = await issuer.token('capstan', {
      claims: { sub: 'u-1', email: 'eve@corp.example', email_verified: false, teams: [], site: 'x' },
    });
    assert.equal((await review(unverified)).status, 401);
    const wrongAud = await issuer.token('other', {
      claims: { sub: 'u-1', email: 'eve@corp.example', email_verified: true, teams: [], site: 'x' },
    });
    assert.equal((await review(wrongAud)).status, 401);
  });
});
