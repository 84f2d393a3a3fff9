// --authentication-token-webhook-config-file end to end in process: a TokenReview service in this
// process vouches for one token; the server serves its user and answers other tokens 401.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startInProcess, type InProcessServer } from './support/in-process-server.js';

describe('webhook token authentication', () => {
  let dir: string;
  let webhook: Server;
  let server: InProcessServer;
  const audiencesSent: unknown[] = [];

  before(async () => {
    webhook = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const review = JSON.parse(body) as { spec: { token: string; audiences?: string[] } };
        audiencesSent.push(review.spec.audiences);
        const status =
          review.spec.token === 'webhook-token'
            ? { authenticated: true, user: { username: 'grace', groups: ['navy'] } }
            : { authenticated: false };
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', status }));
      });
    });
    await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
    dir = await mkdtemp(join(tmpdir(), 'capstan-webhook-authn-'));
    const config = join(dir, 'webhook.kubeconfig');
    const port = (webhook.address() as AddressInfo).port;
    await writeFile(
      config,
      `clusters:\n- cluster:\n    server: http://127.0.0.1:${port}/\nusers:\n- user: {}\n`,
    );
    server = await startInProcess((o) => {
      o.storage.backend = 'memory';
      o.storage.dataDir = dir;
      o.authenticationTokenWebhookConfigFile = config;
    });
  });
  after(async () => {
    await server.stop();
    await new Promise((resolve) => webhook.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  const review = (token: string): Promise<Response> =>
    fetch(`${server.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
    });

  it('authenticates the token the webhook knows, and answers others 401', async () => {
    const ok = await review('webhook-token');
    assert.equal(ok.status, 201);
    const body = (await ok.json()) as { status: { userInfo: unknown } };
    assert.deepEqual(body.status.userInfo, { username: 'grace', groups: ['navy', 'system:authenticated'] });
    // As kube's WithAuthentication: every request's token is checked for the API audiences.
    assert.deepEqual(audiencesSent, [['https://kubernetes.default.svc.cluster.local']]);
    const refused = await review('someone-else');
    assert.equal(refused.status, 401);
    assert.deepEqual(await refused.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Unauthorized',
      reason: 'Unauthorized',
      code: 401,
    });
  });
});
