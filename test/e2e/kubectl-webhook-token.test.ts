// The real kubectl against one Capstan process with --authentication-token-webhook-config-file: a
// TokenReview service in this process (HTTPS with its own CA) vouches for one token, which
// `kubectl --token` then uses; the service's other answers are 401.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { locateKubectl } from './support/kubectl.js';
import { kubectlSession } from './support/kubectl-session.js';
import { tableRows } from './support/kube-objects.js';
import { tlsMaterial } from '../integration/support/webhook-server.js';

const unauthorized = 'error: You must be logged in to the server (Unauthorized)\n';

describe('kubectl against capstan: webhook token authentication', () => {
  let dir: string;
  let webhook: Server;
  let capstan: CapstanProcess;
  const reviewed: string[] = [];
  const session = kubectlSession(() => capstan.kubeconfigPath);

  before(async () => {
    await locateKubectl();
    const tls = tlsMaterial([]);
    webhook = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const review = JSON.parse(body) as { apiVersion: string; kind: string; spec: { token: string } };
        reviewed.push(`${review.apiVersion}/${review.kind}`);
        const status =
          review.spec.token === 'vouched-token'
            ? { authenticated: true, user: { username: 'grace', uid: 'g-1', groups: ['navy'] } }
            : { authenticated: false };
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', status }));
      });
    });
    await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
    dir = await mkdtemp(join(tmpdir(), 'capstan-e2e-webhook-token-'));
    const config = join(dir, 'webhook.kubeconfig');
    await writeFile(
      config,
      [
        'clusters:',
        '- cluster:',
        `    server: https://127.0.0.1:${String((webhook.address() as AddressInfo).port)}/review`,
        `    certificate-authority-data: ${Buffer.from(tls.ca).toString('base64')}`,
        'users:',
        '- user: {}',
        '',
      ].join('\n'),
    );
    capstan = await startCapstanProcess({
      args: ['--storage-backend=memory', `--authentication-token-webhook-config-file=${config}`],
    });
  });
  after(async () => {
    await capstan.stop();
    webhook.closeAllConnections();
    await new Promise((resolve) => webhook.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('kubectl --token with the token the TokenReview service vouches for: auth whoami shows its user', async () => {
    const rows = tableRows(await session.ok(['--token=vouched-token', 'auth', 'whoami']));
    assert.deepEqual(rows[1], ['Username', 'grace']);
    assert.deepEqual(rows[2], ['UID', 'g-1']);
    assert.deepEqual(rows[3], ['Groups', '[navy', 'system:authenticated]']);
    assert.match(
      await session.ok(['--token=vouched-token', 'get', 'namespaces', '-o', 'name']),
      /namespace\/default/,
    );
    // kube's default --authentication-token-webhook-version.
    assert.ok(
      reviewed.length > 0 && reviewed.every((r) => r === 'authentication.k8s.io/v1beta1/TokenReview'),
    );
  });

  it('answers a token the service does not vouch for with 401', async () => {
    assert.equal(await session.fails(['--token=unknown-token', 'get', 'pods']), unauthorized);
  });
});
