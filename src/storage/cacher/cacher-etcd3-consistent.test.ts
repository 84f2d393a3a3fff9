// A consistent list (resourceVersion "") over an etcd that cannot be asked for watch progress (before
// 3.4.31 / 3.5.13, as Debian's 3.4.23): when other keys moved etcd's revision past the cache's, kube
// (without ConsistentListFromCache support) reads etcd. Waiting for a periodic progress notification
// instead stalled such reads for seconds, e.g. the first requests after a restart.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import { Etcd3Backend } from '../backends/etcd3/etcd-backend.js';
import { describeWithEtcd } from '../backends/etcd3/testing/describe-with-etcd.js';
import { KvStore } from '../kv-store/kv-store.js';
import type { TestObject } from '../testing/test-object.js';
import { newPod, podsCacherOver, podsResource, testTiming } from './testing/pods.js';

describeWithEtcd('Cacher over an etcd without progress requests', (fx) => {
  it('serves a consistent list from etcd instead of waiting for the cache', { timeout: 15_000 }, async () => {
    const backend = await Etcd3Backend.open({ endpoints: fx.etcd().endpoints, progressRequests: 'never' });
    const store = new KvStore<TestObject>({
      backend,
      pathPrefix: `/registry-${randomUUID()}`,
      groupResource: podsResource,
      newFunc: newPod,
    });
    // A wait for freshness longer than the test may take: only a read of etcd can answer in time.
    const cacher = podsCacherOver(store, { timing: { ...testTiming, waitForFreshMs: 60_000 } });
    try {
      await cacher.whenReady();
      const pod: TestObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a', namespace: 'ns' } };
      await cacher.create('/pods/ns/a', pod);
      const other = await backend.create(`/elsewhere-${randomUUID()}`, Buffer.from('x'));
      assert.ok(other.ok);
      const list = await cacher.getList('/pods/ns', { recursive: true });
      assert.deepEqual(
        list.items.map((p) => p.metadata.name),
        ['a'],
      );
      assert.ok(Number(list.metadata.resourceVersion) >= other.revision, list.metadata.resourceVersion);
    } finally {
      await cacher.stop();
      await backend.close();
    }
  });
});
