// The backend-neutral kv contract, run against Etcd3Backend on a real etcd.
import { runBackendSuite } from '../../kv/testing/backend-suite.js';
import { Etcd3Backend } from './etcd-backend.js';
import { describeWithEtcd } from './testing/describe-with-etcd.js';

describeWithEtcd(
  'etcd3 backend',
  (fx) => {
    runBackendSuite('etcd3', () => Etcd3Backend.open({ endpoints: fx.etcd().endpoints }), {
      // etcd grants at least its minimum lease TTL (about 2 s with default heartbeats).
      ttlSeconds: 1,
      timeoutMs: 6000,
    });
  },
  // etcd 3.4.23 answers progress requests out of order, so the backend relies on periodic reports.
  { progressNotifyInterval: '100ms' },
);
