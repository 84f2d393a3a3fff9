// The Cacher must pass the storage conformance suite over a real etcd too (see
// cacher.conformance.test.ts for the options that differ from a raw store).
import { randomUUID } from 'node:crypto';
import { Etcd3Backend } from '../backends/etcd3/etcd-backend.js';
import { describeWithEtcd } from '../backends/etcd3/testing/describe-with-etcd.js';
import { KvStore } from '../kv-store/kv-store.js';
import { runStorageConformance } from '../testing/conformance.js';
import type { TestObject } from '../testing/test-object.js';
import { newPod, podsCacherOver, podsResource } from './testing/pods.js';

describeWithEtcd(
  'Cacher over etcd3',
  (fx) => {
    runStorageConformance(
      'Cacher over KvStore over etcd3',
      async () => {
        const backend = await Etcd3Backend.open({ endpoints: fx.etcd().endpoints });
        const store = new KvStore<TestObject>({
          backend,
          pathPrefix: `/registry-${randomUUID()}`,
          groupResource: podsResource,
          newFunc: newPod,
        });
        const cacher = podsCacherOver(store);
        await cacher.whenReady();
        return {
          store: cacher,
          compact: (revision) => backend.compact(revision),
          close: async () => {
            await cacher.stop();
            await backend.close();
          },
        };
      },
      { laggingReads: true, rawKeys: false, compactedWatchExpires: false, takesCachedExisting: false },
    );
  },
  { progressNotifyInterval: '100ms' },
);
