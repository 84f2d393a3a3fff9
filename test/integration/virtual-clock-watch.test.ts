// A watch on a server with a virtual clock: its periodic BOOKMARK, the one just before its timeout,
// and the timeout itself all come when the test advances the clock, with no wall-clock wait.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request, type IncomingMessage } from 'node:http';
import { startCapstan, type CapstanServer } from '../../src/index.js';

let server: CapstanServer;
let token: string;
before(async () => {
  server = await startCapstan({ scheme: 'http', clock: 'virtual' });
  token = server.kubeConfig.users[0]?.user.token ?? '';
});
after(() => server.stop());

interface Event {
  type: string;
  object: { metadata?: { name?: string; resourceVersion?: string } };
}

/** A watch's events as they arrive, and its end. */
function openWatch(path: string): {
  events: Event[];
  next: (type: string) => Promise<Event>;
  ended: Promise<void>;
  close: () => void;
} {
  const events: Event[] = [];
  const waiting: { type: string; resolve: (e: Event) => void }[] = [];
  let res: IncomingMessage | undefined;
  let buffered = '';
  const req = request(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const ended = new Promise<void>((resolve, reject) => {
    req.on('response', (r) => {
      res = r;
      r.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          const e = JSON.parse(buffered.slice(0, nl)) as Event;
          buffered = buffered.slice(nl + 1);
          events.push(e);
          for (const w of waiting.filter((x) => x.type === e.type)) {
            waiting.splice(waiting.indexOf(w), 1);
            w.resolve(e);
          }
        }
      });
      r.on('end', resolve);
    });
    req.on('error', reject);
  });
  req.end();
  const next = (type: string): Promise<Event> => new Promise((resolve) => waiting.push({ type, resolve }));
  return { events, next, ended, close: () => (res === undefined ? req.destroy() : res.destroy()) };
}

const createConfigMap = async (name: string): Promise<void> => {
  const res = await fetch(`${server.url}/api/v1/namespaces/default/configmaps`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } }),
  });
  assert.equal(res.status, 201);
};

describe('watch on the virtual clock', () => {
  it(
    'sends bookmarks and times out when the clock is advanced, not before',
    { timeout: 15_000 },
    async () => {
      const started = performance.now();
      const watch = openWatch(
        '/api/v1/namespaces/default/configmaps?watch=true&allowWatchBookmarks=true&timeoutSeconds=300',
      );
      try {
        const added = watch.next('ADDED');
        await createConfigMap('first');
        assert.equal((await added).object.metadata?.name, 'first');
        // Nothing is due yet: the clock has not moved.
        await server.clock.advance('50s');
        assert.deepEqual(
          watch.events.map((e) => e.type),
          ['ADDED'],
        );
        // The bookmark frequency is one minute.
        const bookmark = watch.next('BOOKMARK');
        await server.clock.advance('12s');
        assert.equal(
          (await bookmark).object.metadata?.resourceVersion,
          (await added).object.metadata?.resourceVersion,
        );
        let over = false;
        void watch.ended.then(() => (over = true));
        // Up to just before the timeout: the watch is still open, with a bookmark two seconds before it.
        await server.clock.advance(300_000 - 62_000 - 1000);
        assert.equal(over, false);
        assert.equal(watch.events.filter((e) => e.type === 'BOOKMARK').length >= 2, true);
        await server.clock.advance('2s');
        await watch.ended;
        assert.ok(performance.now() - started < 10_000, 'a five-minute watch took no real minutes');
      } finally {
        watch.close();
      }
    },
  );
});
