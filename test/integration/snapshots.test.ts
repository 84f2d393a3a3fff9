// Snapshot, restore and fork on an in-process memory server, seen through @kubernetes/client-node:
// a restore undoes changes (an informer sees them undone), a fork serves the snapshot while the
// original goes on.
/* eslint-disable @typescript-eslint/no-unsafe-class-instance-assignment, @typescript-eslint/no-misused-spread --
   spreading a V1ConfigMap copies its data fields, which are all it has;
   client-node's models are generated data-only classes; its API is meant to take plain object literals. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CoreV1Api, KubeConfig, Watch, type V1ConfigMap } from '@kubernetes/client-node';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { recordConfigMapInformer } from '../e2e/support/client-node-helpers.js';

const ns = 'default';
let server: CapstanServer;
let api: CoreV1Api;
const kc = new KubeConfig();
before(async () => {
  server = await startCapstan();
  kc.loadFromFile(server.kubeconfigPath);
  api = kc.makeApiClient(CoreV1Api);
});
after(() => server.stop());

const apiOf = (s: CapstanServer): CoreV1Api => {
  const k = new KubeConfig();
  k.loadFromFile(s.kubeconfigPath);
  return k.makeApiClient(CoreV1Api);
};

/** The configmaps as stored, resourceVersions aside (a restore writes, so they move on). */
async function configMaps(client: CoreV1Api): Promise<string[]> {
  const list = await client.listNamespacedConfigMap({ namespace: ns, labelSelector: 'snap=yes' });
  return list.items.map((cm: V1ConfigMap) => {
    const { resourceVersion: _rv, ...meta } = cm.metadata ?? {};
    return JSON.stringify({ ...cm, metadata: meta });
  });
}

const cm = (name: string, colour: string): V1ConfigMap => ({
  metadata: { name, labels: { snap: 'yes' } },
  data: { colour },
});

describe('snapshot, restore and fork', () => {
  it('restores every object, and an informer sees the changes undone', async () => {
    for (const [name, colour] of [
      ['one', 'red'],
      ['two', 'green'],
      ['three', 'blue'],
    ] as const)
      await api.createNamespacedConfigMap({ namespace: ns, body: cm(name, colour) });
    const before = await configMaps(api);
    const threeRV = (await api.readNamespacedConfigMap({ namespace: ns, name: 'three' })).metadata
      ?.resourceVersion;
    const name = await server.snapshot();

    await api.replaceNamespacedConfigMap({ namespace: ns, name: 'one', body: cm('one', 'black') });
    await api.deleteNamespacedConfigMap({ namespace: ns, name: 'two' });
    await api.createNamespacedConfigMap({ namespace: ns, body: cm('four', 'white') });
    assert.notDeepEqual(await configMaps(api), before);

    const rec = recordConfigMapInformer(kc, ns);
    await rec.informer.start();
    try {
      await rec.settled(['add one {"colour":"black"}', 'add four {"colour":"white"}']);
      await server.restore(name);
      await rec.settled([
        'update one {"colour":"red"}',
        'add two {"colour":"green"}',
        'delete four {"colour":"white"}',
      ]);
      assert.deepEqual(rec.cacheState(), await rec.serverState());
    } finally {
      await rec.informer.stop();
    }
    assert.deepEqual(await configMaps(api), before);
    // What the restore did not need to touch keeps its resourceVersion.
    assert.equal(
      (await api.readNamespacedConfigMap({ namespace: ns, name: 'three' })).metadata?.resourceVersion,
      threeRV,
    );
  });

  it('forks a server that serves the snapshot while the original goes on', async () => {
    const before = await configMaps(api);
    const name = await server.snapshot();
    const fork = await server.fork(name);
    try {
      assert.notEqual(fork.url, server.url);
      await api.createNamespacedConfigMap({ namespace: ns, body: cm('only-original', 'grey') });
      const forkApi = apiOf(fork);
      assert.deepEqual(await configMaps(forkApi), before);
      // The fork opened the snapshot as it was: the same objects at the same resourceVersions.
      const rvOf = async (c: CoreV1Api): Promise<string | undefined> =>
        (await c.readNamespacedConfigMap({ namespace: ns, name: 'three' })).metadata?.resourceVersion;
      assert.equal(await rvOf(forkApi), await rvOf(api));
      await forkApi.deleteNamespacedConfigMap({ namespace: ns, name: 'one' });
      assert.equal((await configMaps(api)).length, before.length + 1);
      assert.equal((await configMaps(forkApi)).length, before.length - 1);
    } finally {
      await fork.stop();
    }
  });

  it('a fork and its original go their own ways for the objects the snapshot holds', async () => {
    const labels = { fork: 'own-ways' };
    for (const name of ['held-a', 'held-b'])
      await api.createNamespacedConfigMap({
        namespace: ns,
        body: { metadata: { name, labels }, data: { colour: 'first' } },
      });
    const name = await server.snapshot();
    const fork = await server.fork(name);
    try {
      const forkApi = apiOf(fork);
      const colours = async (c: CoreV1Api): Promise<string[]> =>
        (await c.listNamespacedConfigMap({ namespace: ns, labelSelector: 'fork=own-ways' })).items.map(
          (m: V1ConfigMap) => `${m.metadata?.name ?? ''}=${m.data?.colour ?? ''}`,
        );
      const set = (c: CoreV1Api, n: string, colour: string): Promise<V1ConfigMap> =>
        c.replaceNamespacedConfigMap({
          namespace: ns,
          name: n,
          body: { metadata: { name: n, labels }, data: { colour } },
        });
      const atFork = await forkApi.listNamespacedConfigMap({ namespace: ns, labelSelector: 'fork=own-ways' });
      const forkRV = Number(atFork.metadata?.resourceVersion);
      // A watch on the fork from its list sees the fork's change, never the original's.
      const k = new KubeConfig();
      k.loadFromFile(fork.kubeconfigPath);
      const seen: string[] = [];
      let controller: AbortController | undefined;
      const firstEvent = new Promise<void>((resolve, reject) => {
        void new Watch(k)
          .watch(
            `/api/v1/namespaces/${ns}/configmaps`,
            { resourceVersion: String(forkRV), labelSelector: 'fork=own-ways' },
            (type: string, obj: V1ConfigMap) => {
              seen.push(`${type} ${obj.metadata?.name ?? ''}=${obj.data?.colour ?? ''}`);
              resolve();
            },
            (err: unknown) => {
              reject(err instanceof Error ? err : new Error(`the watch ended: ${String(err)}`));
            },
          )
          .then((c) => (controller = c));
      });
      await set(api, 'held-a', 'original');
      const written = await set(forkApi, 'held-b', 'fork');
      try {
        await firstEvent;
      } finally {
        controller?.abort();
      }
      assert.deepEqual(seen, ['MODIFIED held-b=fork']);
      // The fork's resourceVersions go on from the snapshot's.
      assert.ok(Number(written.metadata?.resourceVersion) > forkRV);
      assert.deepEqual(await colours(api), ['held-a=original', 'held-b=first']);
      assert.deepEqual(await colours(forkApi), ['held-a=first', 'held-b=fork']);
    } finally {
      await fork.stop();
    }
  });

  it('forks a snapshot taken right after a compaction, while the caches list again', async () => {
    const before = await configMaps(api);
    await server.compact();
    const name = await server.snapshot();
    const fork = await server.fork(name);
    try {
      const forkApi = apiOf(fork);
      assert.deepEqual(await configMaps(forkApi), before);
      await forkApi.createNamespacedConfigMap({ namespace: ns, body: cm('after-compaction', 'gold') });
      assert.equal((await configMaps(forkApi)).length, before.length + 1);
    } finally {
      await fork.stop();
    }
  });

  it('refuses a snapshot name it did not give', async () => {
    await assert.rejects(server.restore('snapshot-99'), /no snapshot "snapshot-99"/);
  });
});
