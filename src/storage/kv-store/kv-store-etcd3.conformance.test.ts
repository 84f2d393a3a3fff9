// KvStore must pass the storage conformance suite unchanged over a real etcd.
import { randomUUID } from 'node:crypto';
import { Etcd3Backend } from '../backends/etcd3/etcd-backend.js';
import { describeWithEtcd } from '../backends/etcd3/testing/describe-with-etcd.js';
import { runStorageConformance, type TestObject } from '../testing/conformance.js';
import { KvStore } from './kv-store.js';

describeWithEtcd(
  'KvStore over etcd3',
  (fx) => {
    runStorageConformance('KvStore over etcd3', async () => {
      const backend = await Etcd3Backend.open({ endpoints: fx.etcd().endpoints });
      // Each harness gets its own root so cases never see each other's keys.
      const store = new KvStore<TestObject>({
        backend,
        pathPrefix: `/registry-${randomUUID()}`,
        groupResource: { group: '', resource: 'pods' },
      });
      return {
        store,
        compact: (revision) => backend.compact(revision),
        close: () => backend.close(),
      };
    });
  },
  { progressNotifyInterval: '100ms' },
);
