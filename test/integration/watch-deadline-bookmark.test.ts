// A watch with allowWatchBookmarks gets a BOOKMARK shortly before its timeout, so a client resuming
// after the timeout starts close to now (kube's cacher uses the request deadline for it).
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { startCapstan } from '../../src/index.js';

test('the watch cache sends a bookmark before a watch times out', async () => {
  const server = await startCapstan({ storage: 'memory', scheme: 'http' });
  try {
    const token = server.kubeConfig.users[0]?.user.token ?? '';
    const path = '/api/v1/namespaces/default/configmaps?watch=true&allowWatchBookmarks=true&timeoutSeconds=3';
    const started = Date.now();
    // A write during the watch moves the cache past the watch's start: the bookmark then carries news.
    const write = setTimeout(() => {
      const req = request(`${server.url}/api/v1/namespaces/default/configmaps`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      });
      req.end(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'during' } }));
    }, 300);
    const body = await new Promise<string>((resolve, reject) => {
      request(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => {
          resolve(text);
        });
      })
        .on('error', reject)
        .end();
    });
    clearTimeout(write);
    const events = body
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { type: string; object: { metadata?: { resourceVersion?: string } } });
    const added = events.find((e) => e.type === 'ADDED');
    assert.ok(added !== undefined, `no ADDED in ${body}`);
    const bookmark = events.find((e) => e.type === 'BOOKMARK');
    assert.ok(bookmark !== undefined, `no BOOKMARK in ${body}`);
    const rv = (e: typeof added): number => Number(e.object.metadata?.resourceVersion);
    assert.ok(rv(bookmark) >= rv(added), 'the bookmark is not behind the change it follows');
    assert.match(bookmark.object.metadata?.resourceVersion ?? '', /^[1-9][0-9]*$/);
    assert.ok(Date.now() - started >= 2900, 'the watch lasted its timeout');
  } finally {
    await server.stop();
  }
});
