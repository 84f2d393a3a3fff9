// startCapstan's authorizationWebhook option, in process: a SubjectAccessReview service in this
// process lets one user read pods, and the server asks it (at the version the option names) for the
// requests of users no other mode allows.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCapstan, type CapstanServer } from '../../src/index.js';

interface Review {
  apiVersion: string;
  spec: { user?: string; resourceAttributes?: { verb?: string; resource?: string } };
}

describe('startCapstan({ authorizationWebhook })', () => {
  let dir: string;
  let webhook: Server;
  let server: CapstanServer | undefined;
  const reviews: Review[] = [];

  before(async () => {
    webhook = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const review = JSON.parse(body) as Review;
        reviews.push(review);
        const attrs = review.spec.resourceAttributes;
        const allowed = review.spec.user === 'reader' && attrs?.resource === 'pods' && attrs.verb === 'list';
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            apiVersion: review.apiVersion,
            kind: 'SubjectAccessReview',
            status: { allowed, ...(allowed ? {} : { reason: 'reader may only list pods' }) },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
    dir = await mkdtemp(join(tmpdir(), 'capstan-authz-webhook-'));
    const config = join(dir, 'authz.kubeconfig');
    const port = (webhook.address() as AddressInfo).port;
    await writeFile(
      config,
      `clusters:\n- cluster:\n    server: http://127.0.0.1:${port}/\nusers:\n- user: {}\n`,
    );
    const tokens = join(dir, 'tokens.csv');
    await writeFile(tokens, 'reader-token,reader,reader-uid\n');
    server = await startCapstan({
      storage: 'memory',
      scheme: 'http',
      tokenAuthFile: tokens,
      authorizationModes: ['Webhook'],
      authorizationWebhook: { configFile: config, version: 'v1' },
    });
  });
  after(async () => {
    // The webhook first: a server that failed to start must not leave it holding the process.
    webhook.closeAllConnections();
    await new Promise((resolve) => webhook.close(resolve));
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const get = (path: string): Promise<Response> =>
    fetch(`${server?.url ?? ''}${path}`, { headers: { authorization: 'Bearer reader-token' } });

  it('allows what the service allows, at the version asked for, and forbids the rest', async () => {
    assert.equal((await get('/api/v1/namespaces/default/pods')).status, 200);
    const forbidden = await get('/api/v1/namespaces/default/secrets');
    assert.equal(forbidden.status, 403);
    assert.equal(
      ((await forbidden.json()) as { message: string }).message,
      'secrets is forbidden: User "reader" cannot list resource "secrets" in API group "" in the namespace "default": reader may only list pods',
    );
    assert.ok(reviews.length >= 2);
    assert.ok(reviews.every((r) => r.apiVersion === 'authorization.k8s.io/v1'));
  });
});
