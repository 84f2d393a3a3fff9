// A server on a virtual clock: timestamps come from it, and advancing it past --event-ttl expires
// an Event (the TTL sweep runs on the clock's timers), with no wall-clock wait.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstan, type CapstanServer } from '../../src/index.js';

let server: CapstanServer;
let headers: Record<string, string>;
before(async () => {
  server = await startCapstan({ scheme: 'http', clock: 'virtual' });
  headers = {
    authorization: `Bearer ${server.kubeConfig.users[0]?.user.token ?? ''}`,
    'content-type': 'application/json',
  };
});
after(() => server.stop());

const eventsPath = '/api/v1/namespaces/default/events';

async function createEvent(name: string): Promise<Record<string, { creationTimestamp?: string }>> {
  const res = await fetch(`${server.url}${eventsPath}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name },
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' },
      reason: 'Tested',
      message: 'a test event',
    }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as Record<string, { creationTimestamp?: string }>;
}

/** Reads a watch stream until a line matches, or the stream ends. */
async function waitForLine(
  body: ReadableStream<Uint8Array>,
  match: (line: string) => boolean,
): Promise<string> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (match(line)) return line;
    }
  }
  throw new Error('the watch ended first');
}

describe('virtual clock', () => {
  it('stamps objects with its time, not the system time', async () => {
    await server.clock.advance('24h');
    const created = await createEvent('stamped');
    const stamp = Date.parse(created['metadata']?.creationTimestamp ?? '');
    assert.equal(stamp, Math.floor(server.clock.now() / 1000) * 1000);
    assert.ok(stamp > Date.now() + 23 * 3_600_000, 'a day ahead of the system clock');
  });

  it('expires an Event once advanced past --event-ttl', { timeout: 15_000 }, async () => {
    const created = await createEvent('short-lived');
    const rv = (created['metadata'] as { resourceVersion?: string }).resourceVersion ?? '';
    const watch = await fetch(
      `${server.url}${eventsPath}?watch=true&timeoutSeconds=7200&fieldSelector=metadata.name%3Dshort-lived&resourceVersion=${rv}`,
      { headers },
    );
    assert.ok(watch.body !== null);
    // The watch runs on the same clock: asked for two hours, it outlives the advance.
    await server.clock.advance('59m');
    assert.equal((await fetch(`${server.url}${eventsPath}/short-lived`, { headers })).status, 200);
    await server.clock.advance('2m');
    const deleted = await waitForLine(watch.body, (l) => l.includes('"type":"DELETED"'));
    assert.match(deleted, /"name":"short-lived"/);
    assert.equal((await fetch(`${server.url}${eventsPath}/short-lived`, { headers })).status, 404);
  });

  it(
    'lets a service account token expire when advanced past its expiration',
    { timeout: 15_000 },
    async () => {
      // The service accounts controller makes `default` soon after the namespace exists.
      let res: Response;
      do {
        res = await fetch(`${server.url}/api/v1/namespaces/default/serviceaccounts/default/token`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            apiVersion: 'authentication.k8s.io/v1',
            kind: 'TokenRequest',
            spec: { expirationSeconds: 600 },
          }),
        });
        if (res.status === 404) await new Promise((resolve) => setTimeout(resolve, 20));
      } while (res.status === 404);
      assert.equal(res.status, 201);
      const issued = (await res.json()) as { status: { token: string; expirationTimestamp: string } };
      assert.equal(
        Date.parse(issued.status.expirationTimestamp),
        Math.floor(server.clock.now() / 1000) * 1000 + 600_000,
      );
      const asToken = { authorization: `Bearer ${issued.status.token}` };
      assert.equal((await fetch(`${server.url}${eventsPath}`, { headers: asToken })).status, 200);
      await server.clock.advance('9m');
      assert.equal((await fetch(`${server.url}${eventsPath}`, { headers: asToken })).status, 200);
      // Past the expiration and kube's minute of leeway for clock skew.
      await server.clock.advance('2m1s');
      assert.equal((await fetch(`${server.url}${eventsPath}`, { headers: asToken })).status, 401);
    },
  );

  it('refuses to advance a server on the system clock', async () => {
    const real = await startCapstan({ scheme: 'http' });
    try {
      assert.equal(real.clock.virtual, false);
      await assert.rejects(real.clock.advance('1s'), /system clock/);
    } finally {
      await real.stop();
    }
  });
});
