import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuditWebhookBackend } from './webhook-backend.js';
import type { AuditEvent } from './types.js';

const event = (auditID: string): AuditEvent => ({
  kind: 'Event',
  apiVersion: 'audit.k8s.io/v1',
  level: 'Metadata',
  auditID,
  stage: 'ResponseComplete',
  requestURI: '/api',
  verb: 'get',
  user: { username: 'u' },
  sourceIPs: ['127.0.0.1'],
  requestReceivedTimestamp: '2026-01-01T00:00:00.000000Z',
  stageTimestamp: '2026-01-01T00:00:00.000000Z',
});

describe('AuditWebhookBackend', () => {
  let server: Server;
  let url: string;
  let status = 200;
  const posts: { kind: string; items: { auditID: string }[] }[] = [];

  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        posts.push(JSON.parse(body) as (typeof posts)[number]);
        res.writeHead(status).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('batch mode: sends full batches at once and the rest at close; an event is copied when received', async () => {
    posts.length = 0;
    const errors: number[] = [];
    const backend = new AuditWebhookBackend({
      target: { server: url },
      mode: 'batch',
      maxBatchSize: 2,
      maxBatchWaitMs: 60_000,
      onError: (_e, n) => errors.push(n),
    });
    const first = event('a');
    backend.processEvents(first);
    first.auditID = 'changed later';
    backend.processEvents(event('b'), event('c'));
    await backend.close();
    assert.deepEqual(
      posts.map((p) => [p.kind, p.items.map((i) => i.auditID)]),
      [
        ['EventList', ['a', 'b']],
        ['EventList', ['c']],
      ],
    );
    assert.deepEqual(errors, []);
  });

  it('blocking mode sends each call; a refused batch is reported with its size', async () => {
    posts.length = 0;
    status = 500;
    const errors: [string, number][] = [];
    const backend = new AuditWebhookBackend({
      target: { server: url },
      mode: 'blocking',
      maxBatchSize: 400,
      maxBatchWaitMs: 30_000,
      onError: (e, n) => errors.push([e.message, n]),
    });
    backend.processEvents(event('x'), event('y'));
    await backend.close();
    status = 200;
    assert.equal(posts.length, 1);
    assert.deepEqual(errors, [['the server responded with the status code 500', 2]]);
  });
});
