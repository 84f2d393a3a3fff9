// The history read under RBAC on etcd (the console asked for, as it is off there by default): see
// history-rbac-cases.ts.
import { describeWithEtcd } from '../../src/storage/backends/etcd3/testing/describe-with-etcd.js';
import { historyRbacSuite } from './history-rbac-cases.js';

describeWithEtcd('the history read under RBAC on etcd', (etcd) => {
  historyRbacSuite(() => ({
    storage: 'etcd3',
    etcdServers: etcd.etcd().endpoints,
    etcdPrefix: '/history-rbac',
    console: true,
  }));
});
