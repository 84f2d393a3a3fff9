// The real kubectl against one Capstan process with --authentication-token-webhook-config-file: a
// TokenReview service in this process (HTTPS with its own CA) vouches for one token, which
// `kubectl --token` then uses; the service's other answers are 401. The same service answers the
// SubjectAccessReviews of --authorization-mode=Webhook,RBAC: it lets the vouched user do anything
// and user "x" read pods only.
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

interface AccessReviewBody {
  apiVersion: string;
  kind: string;
  spec: {
    user?: string;
    group?: string[];
    resourceAttributes?: { verb?: string; resource?: string; labelSelector?: unknown };
  };
}

/** The authorization service's answer: grace may do anything, x may read pods, others get no opinion. */
function accessReviewStatus(review: AccessReviewBody): Record<string, unknown> {
  const { user, resourceAttributes: r } = review.spec;
  if (user === 'grace') return { allowed: true };
  if (user !== 'x') return { allowed: false };
  const reads = ['get', 'list', 'watch'].includes(r?.verb ?? '') && r?.resource === 'pods';
  return reads
    ? { allowed: true, reason: 'x reads pods' }
    : { allowed: false, reason: 'x may only read pods' };
}

describe('kubectl against capstan: webhook token authentication', () => {
  let dir: string;
  let webhook: Server;
  let capstan: CapstanProcess;
  const reviewed: string[] = [];
  const accessReviews: AccessReviewBody[] = [];
  const session = kubectlSession(() => capstan.kubeconfigPath);

  before(async () => {
    await locateKubectl();
    const tls = tlsMaterial([]);
    webhook = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        const sent = JSON.parse(body) as { kind: string };
        if (sent.kind === 'SubjectAccessReview') {
          const access = sent as AccessReviewBody;
          accessReviews.push(access);
          res.end(JSON.stringify({ ...access, status: accessReviewStatus(access) }));
          return;
        }
        const review = sent as { apiVersion: string; kind: string; spec: { token: string } };
        reviewed.push(`${review.apiVersion}/${review.kind}`);
        const status =
          review.spec.token === 'vouched-token'
            ? { authenticated: true, user: { username: 'grace', uid: 'g-1', groups: ['navy'] } }
            : { authenticated: false };
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
      args: [
        '--storage-backend=memory',
        `--authentication-token-webhook-config-file=${config}`,
        '--authorization-mode=Webhook,RBAC',
        `--authorization-webhook-config-file=${config}`,
      ],
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

  it('--authorization-mode=Webhook: the service lets x read pods only, with kube’s 403 and can-i', async () => {
    const pods = await session.kubectl(['get', 'pods', '--as=x', '-l', 'app=web']);
    assert.deepEqual([pods.code, pods.stderr], [0, 'No resources found in default namespace.\n']);
    // kube's default --authorization-webhook-version, the selector sent as requirements.
    const listed = accessReviews.find(
      (r) => r.spec.user === 'x' && r.spec.resourceAttributes?.verb === 'list',
    );
    assert.equal(listed?.apiVersion, 'authorization.k8s.io/v1beta1');
    assert.deepEqual(listed.spec.group, ['system:authenticated']);
    assert.deepEqual(listed.spec.resourceAttributes?.labelSelector, {
      requirements: [{ key: 'app', operator: 'In', values: ['web'] }],
    });
    assert.equal(
      await session.fails(['get', 'secrets', '--as=x']),
      'Error from server (Forbidden): secrets is forbidden: User "x" cannot list resource "secrets" in API group "" in the namespace "default": x may only read pods\n',
    );
    assert.equal(await session.ok(['auth', 'can-i', 'list', 'pods', '--as=x']), 'yes\n');
    // A LocalSubjectAccessReview's selector requirements reach the webhook as the request's would.
    const lsar = {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'LocalSubjectAccessReview',
      metadata: { namespace: 'default' },
      spec: {
        user: 'x',
        resourceAttributes: {
          namespace: 'default',
          verb: 'watch',
          resource: 'pods',
          fieldSelector: { requirements: [{ key: 'spec.nodeName', operator: 'In', values: ['n1'] }] },
        },
      },
    };
    const answer = await session.ok(['create', '-f', '-', '-o', 'jsonpath={.status}'], JSON.stringify(lsar));
    assert.deepEqual(JSON.parse(answer), { allowed: true, reason: 'x reads pods' });
    assert.deepEqual(accessReviews.at(-1)?.spec.resourceAttributes, {
      namespace: 'default',
      verb: 'watch',
      version: '*',
      resource: 'pods',
      fieldSelector: { requirements: [{ key: 'spec.nodeName', operator: 'In', values: ['n1'] }] },
    });
    assert.equal(
      (await session.kubectl(['auth', 'can-i', 'delete', 'pods', '--as=x'])).stdout,
      'no - x may only read pods\n',
    );
  });
});
