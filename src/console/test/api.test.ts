import { afterEach, it } from 'node:test';
import assert from 'node:assert/strict';
import { groupVersionPath, resourcePath, takeLines, watch, type WatchEvent } from '../api.js';

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
  delete (globalThis as { sessionStorage?: unknown }).sessionStorage;
});

it('takes the complete lines of a watch stream and keeps the partial one', () => {
  assert.deepEqual(takeLines('{"a":1}\n{"b"'), { lines: ['{"a":1}'], rest: '{"b"' });
  assert.deepEqual(takeLines('{"b"'), { lines: [], rest: '{"b"' });
  assert.deepEqual(takeLines('x\n\n  \ny\n'), { lines: ['x', 'y'], rest: '' });
});

it('reads events split across chunks anywhere, one callback each, in order', async () => {
  const events = [1, 2, 3].map((n) => JSON.stringify({ type: 'ADDED', object: { n } })).join('\n') + '\n';
  // Chunks cut inside events and inside a multi-byte character.
  const bytes = new TextEncoder().encode(events.replace('"n":2', '"n":2,"s":"é"'));
  const inside = bytes.indexOf(0xc3) + 1;
  const cuts = [5, 31, inside, inside + 20, bytes.length];
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      let at = 0;
      for (const cut of cuts) {
        c.enqueue(bytes.slice(at, cut));
        at = cut;
      }
      c.close();
    },
  });
  const seen: { url: string; auth: string | undefined }[] = [];
  globalThis.fetch = (input, init) => {
    seen.push({ url: input as string, auth: (init?.headers as Record<string, string>)['authorization'] });
    return Promise.resolve(new Response(body));
  };
  globalThis.sessionStorage = { getItem: () => 'tok' } as unknown as Storage;
  const got: WatchEvent<{ n: number; s?: string }>[] = [];
  await watch<{ n: number; s?: string }>('/api/v1/pods?watch=1', {
    signal: new AbortController().signal,
    onEvent: (e) => got.push(e),
  });
  assert.deepEqual(
    got.map((e) => [e.type, e.object.n, e.object.s]),
    [
      ['ADDED', 1, undefined],
      ['ADDED', 2, 'é'],
      ['ADDED', 3, undefined],
    ],
  );
  assert.deepEqual(seen, [{ url: '/api/v1/pods?watch=1', auth: 'Bearer tok' }]);
});

it('names collections and objects as the API does', () => {
  const pods = { group: '', version: 'v1', name: 'pods', namespaced: true };
  const crds = {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    name: 'customresourcedefinitions',
    namespaced: false,
  };
  assert.equal(groupVersionPath('', 'v1'), '/api/v1');
  assert.equal(groupVersionPath('apps', 'v1'), '/apis/apps/v1');
  assert.equal(resourcePath(pods, ''), '/api/v1/pods');
  assert.equal(resourcePath(pods, 'kube system', 'a/b'), '/api/v1/namespaces/kube%20system/pods/a%2Fb');
  assert.equal(
    resourcePath(crds, 'ignored', 'x.y'),
    '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/x.y',
  );
});
