// The watch cache decodes what it holds as the storage codec decodes stored bytes: a built-in
// object's bytes hold the zero times Go writes (a pod template's "creationTimestamp":null), which a
// read from the cache leaves out as a read from storage and the request decoder do, so that an
// update's old object (from the cache) and new one (from a request) compare equal where they are.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import type { KubeObject } from '../../api/meta.js';
import { SqliteBackend } from '../backends/sqlite/sqlite-backend.js';
import { builtinJSONCodec } from '../codec.js';
import { KvStore } from '../kv-store/kv-store.js';
import { Cacher } from './cacher.js';

const codec = builtinJSONCodec(builtinScheme());
const resource = { group: 'apps', resource: 'statefulsets' };

const statefulSet = (name: string): KubeObject => ({
  kind: 'StatefulSet',
  apiVersion: 'apps/v1',
  metadata: { name, namespace: 'ns', uid: `u-${name}`, creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: {
    selector: { matchLabels: { a: 'b' } },
    template: {
      metadata: { labels: { a: 'b' } },
      spec: { containers: [{ name: 'c', image: 'i', resources: {} }] },
    },
    serviceName: 's',
  },
  status: { replicas: 0, availableReplicas: 0 },
});

describe('Cacher decodes with the storage codec', () => {
  let backend: SqliteBackend;
  let store: KvStore;
  let cacher: Cacher;

  before(async () => {
    backend = await SqliteBackend.open({ path: ':memory:', compaction: { intervalMs: 0 } });
    store = new KvStore({ backend, groupResource: resource, codec });
    await store.create('/statefulsets/ns/before', statefulSet('before'));
    cacher = new Cacher({
      storage: store,
      groupResource: resource,
      resourcePrefix: '/statefulsets',
      keyFunc: (obj) => `/statefulsets/${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`,
      newFunc: () => ({ kind: 'StatefulSet', apiVersion: 'apps/v1' }),
      getAttrsFunc: (obj) => ({ labels: obj.metadata?.labels ?? {}, fields: {} }),
      decode: codec.decode,
      log: () => undefined,
    });
    await cacher.whenReady();
  });
  after(async () => {
    await cacher.stop();
    await backend.close();
  });

  it('stores the zero creationTimestamp and reads every object back without it, listed or watched', async () => {
    const created = await cacher.create('/statefulsets/ns/after', statefulSet('after'));
    await cacher.whenIdle();
    const template = (obj: KubeObject | null): unknown =>
      (obj as { spec: { template: { metadata: unknown } } } | null)?.spec.template.metadata;
    assert.deepEqual(template(created), { labels: { a: 'b' } });
    const encoded = String(await cacher.getEncoded('/statefulsets/ns/after', { resourceVersion: '0' }));
    assert.match(encoded, /"template":\{"metadata":\{"creationTimestamp":null,"labels":\{"a":"b"\}\}/);
    for (const name of ['before', 'after']) {
      const fromCache = await cacher.get(`/statefulsets/ns/${name}`, { resourceVersion: '0' });
      const shared = await cacher.get(`/statefulsets/ns/${name}`, { resourceVersion: '0', readOnly: true });
      const fromStorage = await store.get(`/statefulsets/ns/${name}`);
      assert.deepEqual(template(fromCache), { labels: { a: 'b' } }, name);
      assert.deepEqual(fromCache, fromStorage, name);
      assert.deepEqual(shared, fromStorage, name);
    }
    assert.deepEqual(await cacher.get('/statefulsets/ns/after', { resourceVersion: '0' }), created);
    const list = await cacher.getList('/statefulsets/ns', { recursive: true, resourceVersion: '0' });
    for (const item of list.items) assert.deepEqual(template(item), { labels: { a: 'b' } });
    const watch = await cacher.watch('/statefulsets/ns', { recursive: true, resourceVersion: '0' });
    try {
      const seen: unknown[] = [];
      for await (const ev of watch) {
        seen.push(template(ev.object as KubeObject));
        if (seen.length === 2) break;
      }
      assert.deepEqual(seen, [{ labels: { a: 'b' } }, { labels: { a: 'b' } }]);
    } finally {
      watch.stop();
    }
  });
});
