// @kubernetes/client-node's informer against Capstan on etcd with the watch cache off and a one-second
// compaction interval: while its watch is stopped, etcd compacts past its resourceVersion; when it
// starts again the server answers 410 Expired, and the informer lists afresh.
/* eslint-disable @typescript-eslint/no-unsafe-class-instance-assignment --
   client-node's models are generated data-only classes; its API is meant to take plain object literals. */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { CoreV1Api, KubeConfig, type V1ConfigMap } from '@kubernetes/client-node';
import { describeWithEtcd } from '../../src/storage/backends/etcd3/testing/describe-with-etcd.js';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import {
  eventually,
  firstWatchEvent,
  recordConfigMapInformer,
  type RecordingInformer,
  type WatchEvent,
} from './support/client-node-helpers.js';

const ns = 'compaction';
const path = `/api/v1/namespaces/${ns}/configmaps`;
const cm = (name: string, data: Record<string, string>): V1ConfigMap => ({ metadata: { name }, data });

describeWithEtcd('@kubernetes/client-node informer across an etcd compaction', (fx) => {
  let capstan: CapstanProcess;
  let api: CoreV1Api;
  let rec: RecordingInformer;
  const kc = new KubeConfig();

  before(async () => {
    capstan = await startCapstanProcess({
      args: [
        '--storage-backend=etcd3',
        `--etcd-servers=${fx.etcd().endpoints.join(',')}`,
        '--watch-cache=false',
        '--etcd-compaction-interval=1s',
      ],
    });
    kc.loadFromFile(capstan.kubeconfigPath);
    api = kc.makeApiClient(CoreV1Api);
    await api.createNamespace({ body: { metadata: { name: ns } } });
    rec = recordConfigMapInformer(kc, ns);
  });

  after(async () => {
    await rec.informer.stop();
    await capstan.stop();
  });

  it('relists after its watch gets 410 Expired, and its cache equals the server state', async () => {
    await api.createNamespacedConfigMap({ namespace: ns, body: cm('kept', { v: '1' }) });
    await api.createNamespacedConfigMap({ namespace: ns, body: cm('doomed', {}) });
    await rec.informer.start();
    await rec.settled(['add kept {"v":"1"}', 'add doomed {}']);
    const lastSeen = rec.informer.get('doomed', ns)?.metadata?.resourceVersion ?? '';
    await rec.informer.stop();

    await api.deleteNamespacedConfigMap({ name: 'doomed', namespace: ns });
    await api.replaceNamespacedConfigMap({ name: 'kept', namespace: ns, body: cm('kept', { v: '2' }) });
    await api.createNamespacedConfigMap({ namespace: ns, body: cm('missed', { v: '1' }) });
    // kube's compactor compacts to the revision it saw one interval earlier: a few seconds at most.
    let first: WatchEvent | undefined;
    await eventually(
      async () => {
        first = await firstWatchEvent(kc, path, lastSeen);
        return first.type === 'ERROR';
      },
      `a watch from ${lastSeen} to be refused`,
      { seen: () => first, timeoutMs: 15_000 },
    );
    assert.deepEqual(first?.object, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'The resourceVersion for the provided watch is too old.',
      reason: 'Expired',
      code: 410,
    });

    await rec.informer.start();
    await rec.settled(['delete doomed {}', 'update kept {"v":"2"}', 'add missed {"v":"1"}']);
    assert.equal(rec.lists(), 2, 'the informer listed again');
    assert.deepEqual(rec.cacheState(), await rec.serverState());
    assert.deepEqual(rec.errors, []);
  });
});
