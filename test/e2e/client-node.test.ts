// The real @kubernetes/client-node (1.x: object parameters, promises) against a Capstan process:
// list, create, replace, patch, delete, and an informer that follows add/update/delete and relists
// after the server answers its watch with 410 Expired.
/* eslint-disable @typescript-eslint/no-unsafe-class-instance-assignment, @typescript-eslint/no-misused-spread --
   client-node's models are generated data-only classes; its API is meant to take plain object literals. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CoreV1Api,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  type V1ConfigMap,
} from '@kubernetes/client-node';
import { freePort, startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import {
  firstWatchEvent,
  recordConfigMapInformer,
  statusOf,
  type RecordingInformer,
} from './support/client-node-helpers.js';

const ns = 'client-node';
const path = `/api/v1/namespaces/${ns}/configmaps`;
const cm = (name: string, data: Record<string, string>): V1ConfigMap => ({ metadata: { name }, data });

describe('@kubernetes/client-node against capstan', () => {
  let capstan: CapstanProcess;
  let dataDir: string;
  let port: number;
  let api: CoreV1Api;
  const kc = new KubeConfig();

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'capstan-client-node-'));
    port = await freePort();
    capstan = await startCapstanProcess({ dataDir, port });
    kc.loadFromFile(capstan.kubeconfigPath);
    api = kc.makeApiClient(CoreV1Api);
    await api.createNamespace({ body: { metadata: { name: ns } } });
  });

  after(async () => {
    await capstan.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('lists namespaces and the configmaps of a new namespace: only kube-root-ca.crt', async () => {
    const namespaces = await api.listNamespace();
    const names = namespaces.items.map((n) => n.metadata?.name);
    for (const name of ['default', 'kube-system', ns])
      assert.ok(names.includes(name), `${name} in ${names.join()}`);
    // Published into every namespace soon after it is created, as kube-controller-manager's
    // root-ca-cert-publisher does.
    let list = await api.listNamespacedConfigMap({ namespace: ns });
    for (let i = 0; i < 40 && list.items.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      list = await api.listNamespacedConfigMap({ namespace: ns });
    }
    assert.deepEqual(
      list.items.map((c) => [c.metadata?.name, Object.keys(c.data ?? {})]),
      [['kube-root-ca.crt', ['ca.crt']]],
    );
    assert.match(list.metadata?.resourceVersion ?? '', /^\d+$/);
  });

  it('creates, reads, replaces, patches and deletes a ConfigMap', async () => {
    const created = await api.createNamespacedConfigMap({ namespace: ns, body: cm('crud', { a: '1' }) });
    assert.equal(created.metadata?.namespace, ns);
    assert.match(created.metadata.uid ?? '', /^[0-9a-f-]{36}$/);
    const dup = await api.createNamespacedConfigMap({ namespace: ns, body: cm('crud', {}) }).catch(statusOf);
    assert.deepEqual(dup, {
      code: 409,
      reason: 'AlreadyExists',
      message: 'configmaps "crud" already exists',
    });

    const read = await api.readNamespacedConfigMap({ name: 'crud', namespace: ns });
    assert.deepEqual(read.data, { a: '1' });
    const replaced = await api.replaceNamespacedConfigMap({
      name: 'crud',
      namespace: ns,
      body: { ...read, data: { a: '2' } },
    });
    assert.deepEqual(replaced.data, { a: '2' });
    assert.notEqual(replaced.metadata?.resourceVersion, read.metadata?.resourceVersion);
    const stale = await api
      .replaceNamespacedConfigMap({ name: 'crud', namespace: ns, body: { ...read, data: { a: '3' } } })
      .catch(statusOf);
    assert.deepEqual(stale, {
      code: 409,
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on configmaps "crud": the object has been modified; ' +
        'please apply your changes to the latest version and try again',
    });

    const merged = await api.patchNamespacedConfigMap(
      { name: 'crud', namespace: ns, body: { data: { b: 'merged' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    assert.deepEqual(merged.data, { a: '2', b: 'merged' });
    // Without options the library sends a JSON patch.
    const jsonPatched = await api.patchNamespacedConfigMap({
      name: 'crud',
      namespace: ns,
      body: [{ op: 'replace', path: '/data/a', value: 'json' }],
    });
    assert.deepEqual(jsonPatched.data, { a: 'json', b: 'merged' });
    const strategic = await api.patchNamespacedConfigMap(
      { name: 'crud', namespace: ns, body: { metadata: { labels: { via: 'smp' } } } },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
    assert.deepEqual(strategic.metadata?.labels, { via: 'smp' });

    const deleted = await api.deleteNamespacedConfigMap({ name: 'crud', namespace: ns });
    assert.equal(deleted.status, 'Success');
    assert.deepEqual(deleted.details?.name, 'crud');
    const gone = await api.readNamespacedConfigMap({ name: 'crud', namespace: ns }).catch(statusOf);
    assert.deepEqual(gone, { code: 404, reason: 'NotFound', message: 'configmaps "crud" not found' });
  });

  it('round-trips a Secret, turning stringData into base64 data', async () => {
    await api.createNamespacedSecret({
      namespace: ns,
      body: { metadata: { name: 'token' }, stringData: { token: 'abc' }, type: 'Opaque' },
    });
    const secret = await api.readNamespacedSecret({ name: 'token', namespace: ns });
    assert.deepEqual(secret.data, { token: Buffer.from('abc').toString('base64') });
    await api.deleteNamespacedSecret({ name: 'token', namespace: ns });
  });

  describe('an informer', () => {
    let rec: RecordingInformer;
    before(() => {
      rec = recordConfigMapInformer(kc, ns);
    });
    after(async () => {
      await rec.informer.stop();
    });

    it('lists, then sees add, update and delete through its watch', async () => {
      await api.createNamespacedConfigMap({ namespace: ns, body: cm('early', { v: '1' }) });
      await rec.informer.start();
      await rec.settled(['add early {"v":"1"}']);
      await api.createNamespacedConfigMap({ namespace: ns, body: cm('later', { v: '1' }) });
      await api.createNamespacedConfigMap({ namespace: ns, body: cm('doomed', {}) });
      await rec.settled(['add later {"v":"1"}', 'add doomed {}']);
      await api.patchNamespacedConfigMap(
        { name: 'later', namespace: ns, body: { data: { v: '2' } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      await rec.settled(['update later {"v":"2"}']);
      await api.deleteNamespacedConfigMap({ name: 'early', namespace: ns });
      await rec.settled(['delete early {"v":"1"}']);
      assert.deepEqual(rec.cacheState(), await rec.serverState());
      assert.equal(rec.lists(), 1);
      assert.deepEqual(rec.errors, []);
    });

    it('relists after its watch gets 410 Expired, and its cache equals the server state', async () => {
      const lastSeen = rec.informer.get('later', ns)?.metadata?.resourceVersion ?? '';
      await rec.informer.stop();
      await api.deleteNamespacedConfigMap({ name: 'doomed', namespace: ns });
      await api.replaceNamespacedConfigMap({ name: 'later', namespace: ns, body: cm('later', { v: '3' }) });
      await api.createNamespacedConfigMap({ namespace: ns, body: cm('missed', { v: '1' }) });
      // A restarted server's watch cache starts at the newest revision: the informer's is too old.
      // (Neither the cache's window nor SQLite's compaction can be shrunk from outside.)
      await capstan.stop();
      capstan = await startCapstanProcess({ dataDir, port });

      const expired = await firstWatchEvent(kc, path, lastSeen);
      assert.equal(expired.type, 'ERROR');
      assert.equal(expired.object.code, 410);
      assert.equal(expired.object.reason, 'Expired');
      assert.match(expired.object.message ?? '', /^too old resource version: \d+ \(\d+\)$/);

      await rec.informer.start();
      await rec.settled(['delete doomed {}', 'update later {"v":"3"}', 'add missed {"v":"1"}']);
      assert.equal(rec.lists(), 2, 'the informer listed again');
      assert.deepEqual(rec.cacheState(), await rec.serverState());
      assert.deepEqual(rec.errors, []);

      // Its new watch works: a change after the relist arrives as an event.
      await api.deleteNamespacedConfigMap({ name: 'missed', namespace: ns });
      await rec.settled(['delete missed {"v":"1"}']);
      assert.deepEqual(rec.cacheState(), await rec.serverState());
    });
  });
});
