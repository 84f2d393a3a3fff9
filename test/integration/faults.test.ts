// Faults injected into an in-process server, observed through @kubernetes/client-node: each answer
// a proper Status, a Retry-After a retry loop honours, added latency, and an informer that rides out
// a dropped watch and relists after a forced 410.
/* eslint-disable @typescript-eslint/no-unsafe-class-instance-assignment --
   client-node's models are generated data-only classes; its API is meant to take plain object literals. */
import { after, before, describe, it } from 'node:test';
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { request, type RequestOptions } from 'node:https';
import assert from 'node:assert/strict';
import {
  ApiException,
  CoreV1Api,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
import { startCapstan, type CapstanServer, type FaultCode } from '../../src/index.js';
import { recordConfigMapInformer, statusOf } from '../e2e/support/client-node-helpers.js';

let server: CapstanServer;
let api: CoreV1Api;
const kc = new KubeConfig();
const ns = 'default';
before(async () => {
  server = await startCapstan();
  kc.loadFromFile(server.kubeconfigPath);
  api = kc.makeApiClient(CoreV1Api);
});
after(() => server.stop());

const failure = async (call: Promise<unknown>): Promise<unknown> => {
  try {
    await call;
  } catch (err) {
    return err;
  }
  assert.fail('the call should have failed');
};

describe('fault injection', () => {
  it('answers with each fault code as kube-apiserver words it, for the rule’s lifetime', async () => {
    await api.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'target' } } });
    const expected: Record<FaultCode, string> = {
      409: 'Conflict',
      410: 'Expired',
      429: 'TooManyRequests',
      500: 'InternalError',
      503: 'ServiceUnavailable',
      504: 'Timeout',
    };
    for (const [code, reason] of Object.entries(expected)) {
      server.faults.add({
        verb: 'get',
        resource: 'configmaps',
        name: 'target',
        respond: Number(code) as FaultCode,
        times: 1,
      });
      const status = statusOf(await failure(api.readNamespacedConfigMap({ namespace: ns, name: 'target' })));
      assert.deepEqual([status.code, status.reason], [Number(code), reason]);
    }
    // Each rule was for one request: the next read is served.
    assert.equal(
      (await api.readNamespacedConfigMap({ namespace: ns, name: 'target' })).metadata?.name,
      'target',
    );
    assert.deepEqual(server.faults.list(), []);
  });

  it('fails an update with 409 Conflict until the rule is removed', async () => {
    const id = server.faults.add({ verb: 'update', resource: 'configmaps', respond: 409 });
    const body = { metadata: { name: 'target' }, data: { a: '1' } };
    for (let i = 0; i < 2; i++) {
      const status = statusOf(
        await failure(api.replaceNamespacedConfigMap({ namespace: ns, name: 'target', body })),
      );
      assert.equal(status.code, 409);
      assert.equal(
        status.message,
        'Operation cannot be fulfilled on configmaps "target": the object has been modified; please apply your changes to the latest version and try again',
      );
    }
    assert.equal(server.faults.remove(id), true);
    const updated = await api.replaceNamespacedConfigMap({ namespace: ns, name: 'target', body });
    assert.deepEqual(updated.data, { a: '1' });
  });

  it('sends Retry-After with 429, which a retry loop honours', async () => {
    server.faults.add({ verb: 'list', resource: 'configmaps', respond: 429, retryAfterSeconds: 1, times: 1 });
    const waits: number[] = [];
    const started = performance.now();
    let items: number | undefined;
    while (items === undefined) {
      try {
        items = (await api.listNamespacedConfigMap({ namespace: ns })).items.length;
      } catch (err) {
        if (!(err instanceof ApiException) || err.code !== 429) throw err;
        const seconds = Number((err.headers as Record<string, string>)['retry-after']);
        waits.push(seconds);
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      }
    }
    assert.deepEqual(waits, [1]);
    assert.ok(performance.now() - started >= 1000);
    assert.ok(items >= 1);
  });

  it('adds latency to the requests it matches only', async () => {
    server.faults.add({ verb: 'get', resource: 'configmaps', name: 'target', latencyMs: 300, times: 1 });
    const t0 = performance.now();
    await api.readNamespacedConfigMap({ namespace: ns, name: 'target' });
    assert.ok(performance.now() - t0 >= 300);
    const slow = server.requests({ verb: 'get', resource: 'configmaps', name: 'target' }).at(-1);
    assert.ok(slow !== undefined && slow.latencyMs >= 300, String(slow?.latencyMs));
  });

  it('drops a watch after N events; an informer watches again and misses nothing', async () => {
    server.faults.add({ verb: 'watch', resource: 'configmaps', dropWatchAfterEvents: 1, times: 1 });
    const rec = recordConfigMapInformer(kc, ns);
    server.clearRequests();
    await rec.informer.start();
    try {
      await api.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'w1' } } });
      await rec.settled(['add w1 {}']);
      await api.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'w2' } } });
      await rec.settled(['add w2 {}']);
      assert.deepEqual(rec.cacheState(), await rec.serverState());
      // A watch is logged when it ends: the one dropped after w1 has, while the informer still runs.
      assert.equal(server.requests({ verb: 'watch', resource: 'configmaps' }).length, 1);
      assert.equal(rec.lists(), 1, 'a clean end of a watch needs no relist');
    } finally {
      await rec.informer.stop();
    }
    assert.deepEqual(rec.errors, []);
  });

  it('answers a watch with 410 Expired once; the informer lists again', async () => {
    server.faults.add({ verb: 'watch', resource: 'configmaps', respond: 410, times: 1 });
    const rec = recordConfigMapInformer(kc, ns);
    await rec.informer.start();
    try {
      await api.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'after-410' } } });
      await rec.settled(['add after-410 {}']);
      assert.equal(rec.lists(), 2, 'listed again after the 410');
    } finally {
      await rec.informer.stop();
    }
  });

  it('stalls a watch after N events: it stays open and says nothing more', async () => {
    server.faults.add({
      verb: 'watch',
      resource: 'configmaps',
      name: 'stalled',
      stallWatchAfterEvents: 1,
      times: 1,
    });
    const stalled = await rawWatch('fieldSelector=metadata.name%3Dstalled');
    const witness = await rawWatch('fieldSelector=metadata.name%3Dstalled');
    try {
      await api.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'stalled' } } });
      await api.patchNamespacedConfigMap(
        { namespace: ns, name: 'stalled', body: { data: { a: '1' } } },
        mergePatch,
      );
      await api.patchNamespacedConfigMap(
        { namespace: ns, name: 'stalled', body: { data: { a: '2' } } },
        mergePatch,
      );
      // The unfaulted watch of the same object saw all three; the stalled one only the first.
      await witness.until(3);
      assert.deepEqual(stalled.types(), ['ADDED']);
      assert.equal(stalled.ended(), false);
    } finally {
      stalled.close();
      witness.close();
    }
  });

  it('compacts the store and breaks every watch: watching again from before it is 410, informers relist', async () => {
    const rec = recordConfigMapInformer(kc, ns);
    // While the caches list again, watches are answered 429, which ends a client-node informer: it
    // is started again, as client-node's documentation has it.
    let stopped = false;
    rec.informer.on('error', () => {
      if (!stopped) setTimeout(() => void rec.informer.start(), 200);
    });
    await rec.informer.start();
    try {
      await api.createNamespacedConfigMap({
        namespace: ns,
        body: { metadata: { name: 'before-compaction' } },
      });
      await rec.settled(['add before-compaction {}']);
      const old = (await api.listNamespacedConfigMap({ namespace: ns })).metadata?.resourceVersion ?? '';
      const watch = await rawWatch(`resourceVersion=${old}`);
      // A change after `old`: the compaction forgets the revisions a watch from `old` would replay.
      await api.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'between' } } });
      await rec.settled(['add between {}']);
      // And one the informer does not see: it resumes from before the compacted revision.
      await api.createNamespacedConfigMap({
        namespace: 'kube-public',
        body: { metadata: { name: 'elsewhere' } },
      });
      const revision = await server.compact();
      assert.ok(revision > Number(old), `${String(revision)} <= ${old}`);
      await watch.untilEnded();
      // While the caches list again a watch is answered 429 (kube's too-early answer); then 410.
      let first = '';
      for (let tries = 0; tries < 80; tries++) {
        const again = await rawWatch(`resourceVersion=${old}`);
        await again.untilEnded();
        first = again.lines()[0] ?? '';
        if (first.startsWith('{"type"')) break;
        assert.match(first, /"code":429/);
        // It says to retry after a second; the caches list again after about that long.
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.match(first, /^\{"type":"ERROR","object":\{"kind":"Status".*"code":410/);
      await api.createNamespacedConfigMap({
        namespace: ns,
        body: { metadata: { name: 'after-compaction' } },
      });
      await rec.settled(['add after-compaction {}']);
      assert.ok(rec.lists() >= 2, 'the informer listed again');
      assert.deepEqual(rec.cacheState(), await rec.serverState());
    } finally {
      stopped = true;
      await rec.informer.stop();
    }
  });
});

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** A watch of the namespace's configmaps through plain HTTP, its lines kept as they come. */
async function rawWatch(query: string): Promise<{
  types(): string[];
  lines(): string[];
  ended(): boolean;
  until(n: number): Promise<void>;
  untilEnded(): Promise<void>;
  close(): void;
}> {
  const opts: RequestOptions = {};
  await kc.applyToHTTPSOptions(opts);
  const req = request(`${server.url}/api/v1/namespaces/${ns}/configmaps?watch=1&${query}`, opts);
  req.end();
  const [res] = (await once(req, 'response')) as [IncomingMessage];
  const lines: string[] = [];
  let ended = false;
  let wake: () => void = () => undefined;
  void (async () => {
    let rest = '';
    try {
      for await (const chunk of res as AsyncIterable<Buffer>) {
        rest += chunk.toString();
        const parts = rest.split('\n');
        rest = parts.pop() ?? '';
        lines.push(...parts.filter((l) => l !== ''));
        wake();
      }
    } catch {
      // aborted
    }
    ended = true;
    wake();
  })();
  const waitFor = async (done: () => boolean): Promise<void> => {
    const deadline = Date.now() + 8000;
    while (!done()) {
      if (Date.now() > deadline) assert.fail(`watch: ${JSON.stringify(lines)}, ended ${String(ended)}`);
      await new Promise<void>((r) => {
        wake = r;
        setTimeout(r, 50);
      });
    }
  };
  return {
    types: () => lines.map((l) => String((JSON.parse(l) as { type?: string }).type)),
    lines: () => lines,
    ended: () => ended,
    until: (n) => waitFor(() => lines.length >= n),
    untilEnded: () => waitFor(() => ended),
    close: () => {
      req.destroy();
    },
  };
}
