import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadWebhookTarget } from './webhook-client.js';
import { WebhookTokenAuthenticator } from './webhook-token-authenticator.js';

describe('WebhookTokenAuthenticator', () => {
  let server: Server;
  let url: string;
  let dir: string;
  const reviews: { token: string; authorization: string | undefined; audiences?: string[] }[] = [];

  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const review = JSON.parse(body) as {
          apiVersion: string;
          kind: string;
          spec: { token: string; audiences?: string[] };
        };
        assert.equal(`${review.apiVersion}/${review.kind}`, 'authentication.k8s.io/v1/TokenReview');
        reviews.push({
          token: review.spec.token,
          authorization: req.headers.authorization,
          ...(review.spec.audiences === undefined ? {} : { audiences: review.spec.audiences }),
        });
        if (review.spec.token === 'broken') {
          res.statusCode = 500;
          res.end();
          return;
        }
        const status =
          review.spec.token === 'good'
            ? { authenticated: true, user: { username: 'ada', uid: '42', groups: ['ops'] } }
            : review.spec.token === 'for-vault'
              ? { authenticated: true, user: { username: 'vera' }, audiences: ['vault'] }
              : { authenticated: false };
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ ...review, status }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/review`;
    dir = await mkdtemp(join(tmpdir(), 'capstan-webhook-'));
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the service and its credentials from a kubeconfig', async () => {
    const path = join(dir, 'webhook.yaml');
    await writeFile(
      path,
      `apiVersion: v1\nkind: Config\nclusters:\n- name: authn\n  cluster:\n    server: ${url}\nusers:\n- name: apiserver\n  user:\n    token: s3cret\n`,
    );
    assert.deepEqual(await loadWebhookTarget(path), { server: url, token: 's3cret' });
  });

  it('asks the webhook once per TTL and maps its answers', async () => {
    let now = 0;
    const authn = new WebhookTokenAuthenticator({
      target: { server: url, token: 's3cret' },
      cacheTTLMs: 120_000,
      now: () => now,
    });
    const signal = new AbortController().signal;
    const ada = { kind: 'user', user: { name: 'ada', uid: '42', groups: ['ops'] } };
    assert.deepEqual(await authn.authenticate('good', signal), ada);
    assert.deepEqual(await authn.authenticate('good', signal), ada);
    assert.deepEqual(reviews, [{ token: 'good', authorization: 'Bearer s3cret' }]);
    now += 120_001;
    assert.deepEqual(await authn.authenticate('good', signal), ada);
    assert.equal(reviews.length, 2);
    assert.deepEqual(await authn.authenticate('unknown', signal), { kind: 'none' });
    const broken = await authn.authenticate('broken', signal);
    assert.deepEqual(broken, {
      kind: 'invalid',
      reason: `Post "${url}": the server responded with the status code 500`,
    });
  });

  it('sends target audiences and vouches only for those the answer (or the API) names', async () => {
    const authn = new WebhookTokenAuthenticator({
      target: { server: url },
      cacheTTLMs: 120_000,
      implicitAudiences: ['api'],
    });
    const signal = new AbortController().signal;
    reviews.length = 0;
    assert.deepEqual(await authn.authenticate('for-vault', signal, ['vault', 'x']), {
      kind: 'user',
      user: { name: 'vera', groups: [] },
      audiences: ['vault'],
    });
    assert.deepEqual(await authn.authenticate('for-vault', signal, ['api']), { kind: 'none' });
    // No audiences in the answer: the API server's own.
    assert.deepEqual(await authn.authenticate('good', signal, ['api']), {
      kind: 'user',
      user: { name: 'ada', uid: '42', groups: ['ops'] },
      audiences: ['api'],
    });
    assert.deepEqual(
      reviews.map((r) => [r.token, r.audiences]),
      [
        ['for-vault', ['vault', 'x']],
        ['for-vault', ['api']],
        ['good', ['api']],
      ],
    );
  });
});
