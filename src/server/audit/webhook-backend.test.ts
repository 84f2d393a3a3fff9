import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuditWebhookBackend } from './webhook-backend.js';
import { testEvent } from './testing/test-event.js';

describe('AuditWebhookBackend', () => {
  let server: Server;
  let url: string;
  /** The statuses to answer, in turn; 200 once used up. */
  let statuses: number[] = [];
  const posts: { kind: string; apiVersion: string; items: { auditID: string }[] }[] = [];

  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        posts.push(JSON.parse(body) as (typeof posts)[number]);
        res.writeHead(statuses.shift() ?? 200).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  const backend = (waits: number[], errors: [string, number][]): AuditWebhookBackend =>
    new AuditWebhookBackend({
      target: { server: url },
      initialBackoffMs: 1000,
      onError: (e, n) => errors.push([e.message, n]),
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    });

  it('posts the events of one call as one EventList, copied when received', async () => {
    posts.length = 0;
    statuses = [];
    const errors: [string, number][] = [];
    const b = backend([], errors);
    const first = testEvent('a');
    const sent = b.processEvents(first, testEvent('b'));
    first.auditID = 'changed later';
    assert.equal(await sent, true);
    assert.deepEqual(
      posts.map((p) => [p.kind, p.apiVersion, p.items.map((i) => i.auditID)]),
      [['EventList', 'audit.k8s.io/v1', ['a', 'b']]],
    );
    assert.deepEqual(errors, []);
  });

  it('retries a failed post with exponential backoff (x1.5, up to 20% jitter) until it is accepted', async () => {
    posts.length = 0;
    statuses = [500, 503, 429];
    const waits: number[] = [];
    const errors: [string, number][] = [];
    assert.equal(await backend(waits, errors).processEvents(testEvent('r')), true);
    assert.equal(posts.length, 4);
    assert.deepEqual(errors, []);
    assert.equal(waits.length, 3);
    [1000, 1500, 2250].forEach((base, i) => {
      const w = waits[i] ?? 0;
      assert.ok(w >= base && w <= base * 1.2, `wait ${String(i)}: ${String(w)}`);
    });
  });

  it('gives up after five attempts, reporting the events it drops', async () => {
    posts.length = 0;
    statuses = [500, 500, 500, 500, 500];
    const waits: number[] = [];
    const errors: [string, number][] = [];
    assert.equal(await backend(waits, errors).processEvents(testEvent('x'), testEvent('y')), false);
    assert.equal(posts.length, 5);
    assert.equal(waits.length, 4);
    assert.deepEqual(errors, [['the server responded with the status code 500', 2]]);
  });

  it('close() waits for the deliveries under way', async () => {
    posts.length = 0;
    statuses = [500];
    const b = backend([], []);
    void b.processEvents(testEvent('late'));
    await b.close();
    assert.equal(posts.length, 2);
  });
});
