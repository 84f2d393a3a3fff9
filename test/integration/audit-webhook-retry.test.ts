// The audit webhook in batch mode against a real HTTPS receiver (its own CA, a bearer token) that
// fails and recovers: requests are served all along; a batch the receiver refuses is sent again
// with kube's backoff and arrives once it recovers; one refused five times is logged and dropped.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startInProcess, type InProcessServer } from './support/in-process-server.js';
import { tlsMaterial } from './support/webhook-server.js';
import { waitFor } from './support/wait-for.js';
import type { AuditEvent } from '../../src/server/audit/types.js';

const receiverToken = 'audit-receiver-token';

const policy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: None
  nonResourceURLs: ["/healthz*", "/readyz*", "/livez*"]
- level: Metadata
`;

describe('audit webhook: retries while the receiver is down', () => {
  let dir: string;
  let receiver: Server;
  let server: InProcessServer;
  /** How many posts to refuse from now on (Infinity: down for good). */
  let refuse = 0;
  /** Every post, accepted or not: the auditIDs it carried and the Authorization it came with. */
  const posts: { ids: string[]; authorization: string; accepted: boolean }[] = [];

  before(async () => {
    const tls = tlsMaterial([]);
    receiver = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const list = JSON.parse(body) as { items: AuditEvent[] };
        const accepted = refuse <= 0;
        if (!accepted) refuse--;
        posts.push({
          ids: list.items.map((e) => e.auditID),
          authorization: req.headers.authorization ?? '',
          accepted,
        });
        res.writeHead(accepted ? 200 : 503).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    dir = await mkdtemp(join(tmpdir(), 'capstan-audit-retry-'));
    const port = (receiver.address() as AddressInfo).port;
    await writeFile(
      join(dir, 'webhook.kubeconfig'),
      [
        'clusters:',
        '- cluster:',
        `    server: https://127.0.0.1:${String(port)}/audit`,
        `    certificate-authority-data: ${Buffer.from(tls.ca).toString('base64')}`,
        'users:',
        '- user:',
        `    token: ${receiverToken}`,
        '',
      ].join('\n'),
    );
    await writeFile(join(dir, 'policy.yaml'), policy);
    server = await startInProcess((o) => {
      o.storage.backend = 'memory';
      o.storage.dataDir = dir;
      o.auditPolicyFile = join(dir, 'policy.yaml');
      o.auditWebhookConfigFile = join(dir, 'webhook.kubeconfig');
      o.auditWebhookBatch.maxBatchWaitMs = 20;
      o.auditWebhookInitialBackoffMs = 20;
    });
  });
  after(async () => {
    refuse = 0;
    await server.stop();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  const postsWith = (auditID: string) => posts.filter((p) => p.ids.includes(auditID));

  it('sends a refused batch again until the receiver takes it', async () => {
    refuse = 2;
    const res = await server.request('/api/v1/namespaces/default/configmaps', {
      method: 'POST',
      body: { metadata: { name: 'audited' } },
    });
    assert.equal(res.status, 201);
    const auditID = res.headers.get('audit-id') ?? '';
    await waitFor(
      'the event delivered',
      () => Promise.resolve(postsWith(auditID)),
      (p) => p.some((x) => x.accepted),
    );
    assert.deepEqual(
      postsWith(auditID).map((p) => p.accepted),
      [false, false, true],
    );
    assert.ok(posts.every((p) => p.authorization === `Bearer ${receiverToken}`));
  });

  it('serves requests while the receiver is down, logs and drops a batch refused five times, then recovers', async () => {
    refuse = Infinity;
    const down = await server.request('/api/v1/namespaces/default/configmaps/audited');
    assert.equal(down.status, 200);
    const lost = down.headers.get('audit-id') ?? '';
    await waitFor(
      'the batch given up',
      () => Promise.resolve(server.logLines.filter((l) => l.includes("Error in audit plugin 'webhook'"))),
      (lines) => lines.length > 0,
    );
    assert.equal(postsWith(lost).length, 5);
    assert.ok(postsWith(lost).every((p) => !p.accepted));
    // The log names the failure, not the events' content.
    assert.ok(!server.logLines.some((l) => l.includes(lost)));
    refuse = 0;
    const back = await server.request('/api/v1/namespaces/default/configmaps/audited', { method: 'DELETE' });
    assert.equal(back.status, 200);
    const auditID = back.headers.get('audit-id') ?? '';
    await waitFor(
      'the event after recovery',
      () => Promise.resolve(postsWith(auditID)),
      (p) => p.some((x) => x.accepted),
    );
  });
});
