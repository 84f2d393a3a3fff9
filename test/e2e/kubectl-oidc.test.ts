// The real kubectl against one Capstan process with --oidc-*: an OIDC issuer in this process
// (discovery and JWKS on loopback HTTPS, tokens signed with jose) issues the tokens kubectl sends
// with --token; `kubectl auth whoami` shows the mapped user; a wrong audience, an expired token
// and another issuer's token are 401.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { locateKubectl } from './support/kubectl.js';
import { kubectlSession } from './support/kubectl-session.js';
import { tableRows } from './support/kube-objects.js';
import { TestIssuer } from '../../src/server/authn/jwt/testing/test-issuer.js';

const unauthorized = 'error: You must be logged in to the server (Unauthorized)\n';

describe('kubectl against capstan: OIDC tokens', () => {
  let dir: string;
  let issuer: TestIssuer;
  let capstan: CapstanProcess;
  const session = kubectlSession(() => capstan.kubeconfigPath);

  before(async () => {
    await locateKubectl();
    dir = await mkdtemp(join(tmpdir(), 'capstan-e2e-oidc-'));
    issuer = await TestIssuer.start();
    const caFile = join(dir, 'oidc-ca.crt');
    await writeFile(caFile, issuer.caPem);
    capstan = await startCapstanProcess({
      args: [
        '--storage-backend=memory',
        `--oidc-issuer-url=${issuer.url}`,
        '--oidc-client-id=capstan-e2e',
        `--oidc-ca-file=${caFile}`,
        '--oidc-groups-claim=groups',
        '--oidc-groups-prefix=oidc:',
        '--oidc-required-claim=tenant=blue',
      ],
    });
  });
  after(async () => {
    await capstan.stop();
    await issuer.close();
    await rm(dir, { recursive: true, force: true });
  });

  const token = (
    claims: Record<string, unknown>,
    more: Parameters<TestIssuer['token']>[1] = {},
  ): Promise<string> => issuer.token('capstan-e2e', { ...more, claims: { tenant: 'blue', ...claims } });

  it('kubectl --token with an issued token: auth whoami shows the prefixed user and groups', async () => {
    const t = await token({ sub: 'jane', groups: ['devs', 'qa'] });
    const rows = tableRows(await session.ok([`--token=${t}`, 'auth', 'whoami']));
    assert.deepEqual(rows[1], ['Username', `${issuer.url}#jane`]);
    assert.deepEqual(rows[2], ['Groups', '[oidc:devs', 'oidc:qa', 'system:authenticated]']);
    assert.match(await session.ok([`--token=${t}`, 'get', 'namespaces', '-o', 'name']), /namespace\/default/);
  });

  it('answers a wrong audience, an expired token, a missing required claim and another issuer with 401', async () => {
    const wrongAud = await token({ sub: 'jane' }, { audience: 'someone-else' });
    assert.equal(await session.fails([`--token=${wrongAud}`, 'get', 'pods']), unauthorized);
    const expired = await token({ sub: 'jane' }, { expiresIn: -120 });
    assert.equal(await session.fails([`--token=${expired}`, 'get', 'pods']), unauthorized);
    const otherTenant = await token({ sub: 'jane', tenant: 'red' });
    assert.equal(await session.fails([`--token=${otherTenant}`, 'get', 'pods']), unauthorized);
    const otherIssuer = await token({ sub: 'jane' }, { issuer: 'https://elsewhere.example' });
    assert.equal(await session.fails([`--token=${otherIssuer}`, 'get', 'pods']), unauthorized);
  });
});
