// KvStore behaviour beyond the shared conformance suite: faults and the transformer hook.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { SqliteBackend } from '../backends/sqlite/sqlite-backend.js';
import { isStatusError } from '../../machinery/errors/index.js';
import { maxStoredValueBytes } from '../api-errors.js';
import { isStorageError } from '../errors.js';
import type { Watch, WatchEvent } from '../interfaces.js';
import type { Transformer } from '../value/transformer.js';
import { KvStore } from './kv-store.js';

const pods = { group: '', resource: 'pods' };

async function open(transformer?: Transformer): Promise<{ backend: SqliteBackend; store: KvStore }> {
  const backend = await SqliteBackend.open({ path: ':memory:', compaction: { intervalMs: 0 } });
  const store = new KvStore<KubeObject>({
    backend,
    groupResource: pods,
    ...(transformer ? { transformer } : {}),
  });
  return { backend, store };
}

describe('KvStore faults', () => {
  it('corrupt stored bytes give a CorruptObj error naming the key, and other keys stay readable', async () => {
    const { backend, store } = await open();
    await store.create('/pods/ns/good', { metadata: { name: 'good' } });
    await backend.create('/registry/pods/ns/bad', Buffer.from('{"metadata": {"name": "bad"'));
    await assert.rejects(store.get('/pods/ns/bad'), (err) => {
      assert.ok(isStorageError(err, 'CorruptObj'));
      assert.equal(err.key, '/registry/pods/ns/bad');
      assert.match(err.message, /unable to decode the stored object/);
      return true;
    });
    await assert.rejects(store.getList('/pods/ns', { recursive: true }), (err) =>
      isStorageError(err, 'CorruptObj'),
    );
    assert.equal((await store.get('/pods/ns/good'))?.metadata?.name, 'good');
    // A stored JSON value that is not an object is corrupt too.
    await backend.create('/registry/pods/ns/array', Buffer.from('[1,2]'));
    await assert.rejects(store.get('/pods/ns/array'), (err) => isStorageError(err, 'CorruptObj'));
    await backend.close();
  });

  it('refuses a value larger than etcd takes with a 413, on create and update, storing nothing', async () => {
    const { backend, store } = await open();
    const big = (n: number): KubeObject => ({ metadata: { name: 'big', annotations: { a: 'x'.repeat(n) } } });
    const tooLarge = (err: unknown): boolean => {
      assert.ok(isStatusError(err));
      assert.equal(err.status.code, 413);
      assert.equal(err.status.reason, 'RequestEntityTooLarge');
      assert.equal(err.status.message, 'Request entity too large: etcdserver: request is too large');
      return true;
    };
    await assert.rejects(store.create('/pods/ns/big', big(maxStoredValueBytes)), tooLarge);
    assert.equal((await backend.get('/registry/pods/ns/big')).kv, null);
    const created = await store.create('/pods/ns/big', big(maxStoredValueBytes - 1000));
    await assert.rejects(
      store.guaranteedUpdate('/pods/ns/big', { tryUpdate: () => big(maxStoredValueBytes) }),
      tooLarge,
    );
    const kept = await store.get('/pods/ns/big');
    assert.equal(kept?.metadata?.resourceVersion, created.metadata?.resourceVersion);
    await backend.close();
  });

  it('refuses keys that could leave the prefix', async () => {
    const { backend, store } = await open();
    for (const key of ['/pods/../secrets/x', '..', '/pods/./x', '/pods/ns/..', '', '/']) {
      await assert.rejects(store.get(key), (err) => isStorageError(err, 'InvalidError'), key);
      await assert.rejects(
        store.create(key, { metadata: {} }),
        (err) => isStorageError(err, 'InvalidError'),
        key,
      );
    }
    await backend.close();
  });

  it('a closed backend answers every verb with Unreachable, never a crash', async () => {
    const { backend, store } = await open();
    await store.create('/pods/ns/a', { metadata: { name: 'a' } });
    await backend.close();
    const unreachable = (err: unknown): boolean => isStorageError(err, 'Unreachable');
    await assert.rejects(store.get('/pods/ns/a'), unreachable);
    await assert.rejects(store.create('/pods/ns/b', { metadata: { name: 'b' } }), unreachable);
    await assert.rejects(store.getList('/pods/ns', { recursive: true }), unreachable);
    await assert.rejects(store.delete('/pods/ns/a'), unreachable);
    await assert.rejects(store.count('/pods/ns'), unreachable);
    await assert.rejects(store.readinessCheck(), unreachable);
  });
});

describe('KvStore transformer hook', () => {
  // A reversible toy transformer: values carry a prefix naming the "key" they were written with.
  const withKey = (name: string, readable: string[]): Transformer => ({
    transformToStorage: (data) => Buffer.concat([Buffer.from(`${name}:`), data]),
    transformFromStorage: (data) => {
      const text = data.toString('utf8');
      const used = readable.find((k) => text.startsWith(`${k}:`));
      if (used === undefined) throw new Error('no key can read this value');
      return { data: Buffer.from(text.slice(used.length + 1)), stale: used !== name };
    },
  });

  it('stores transformed bytes and reads them back through the transformer', async () => {
    const { backend, store } = await open(withKey('k1', ['k1']));
    await store.create('/pods/ns/a', { metadata: { name: 'a' }, data: 'x' });
    const raw = await backend.get('/registry/pods/ns/a');
    assert.ok(raw.kv?.value.toString('utf8').startsWith('k1:{'));
    assert.equal((await store.get('/pods/ns/a'))?.data, 'x');
    await backend.close();
  });

  it('an unchanged update of a stale value is rewritten with the writing key', async () => {
    const backend = await SqliteBackend.open({ path: ':memory:', compaction: { intervalMs: 0 } });
    const old = new KvStore<KubeObject>({ backend, groupResource: pods, transformer: withKey('k1', ['k1']) });
    const created = await old.create('/pods/ns/a', { metadata: { name: 'a' } });
    const createdB = await old.create('/pods/ns/b', { metadata: { name: 'b' } });
    const rotated = new KvStore<KubeObject>({
      backend,
      groupResource: pods,
      transformer: withKey('k2', ['k2', 'k1']),
    });
    const updated = await rotated.guaranteedUpdate('/pods/ns/a', { tryUpdate: (cur) => cur ?? {} });
    assert.notEqual(updated.metadata?.resourceVersion, created.metadata?.resourceVersion);
    const raw = await backend.get('/registry/pods/ns/a');
    assert.ok(raw.kv?.value.toString('utf8').startsWith('k2:{'));
    // Even from a cached state said current: the cache's copy cannot tell a stale value.
    const updatedB = await rotated.guaranteedUpdate('/pods/ns/b', {
      cachedExisting: {
        object: structuredClone(createdB),
        // Served JSON whose resourceVersion member is empty: the stored bytes are all of it.
        served: { json: Buffer.from(JSON.stringify({ metadata: { name: 'b' } })), rvStart: 0, rvEnd: 0 },
        current: true,
      },
      tryUpdate: (cur) => cur ?? {},
    });
    assert.notEqual(updatedB.metadata?.resourceVersion, createdB.metadata?.resourceVersion);
    const rawB = await backend.get('/registry/pods/ns/b');
    assert.ok(rawB.kv?.value.toString('utf8').startsWith('k2:{'));
    // A value no configured key can read is a clear error, not garbage.
    const other = new KvStore<KubeObject>({
      backend,
      groupResource: pods,
      transformer: withKey('k3', ['k3']),
    });
    await assert.rejects(other.get('/pods/ns/a'), (err) => {
      // kube's storage.InternalError: the message is the transformer's reason alone.
      assert.ok(isStorageError(err, 'InternalError'));
      assert.equal(err.message, 'no key can read this value');
      return true;
    });
    await backend.close();
  });
});

describe('KvStore encodings', () => {
  it("a watch that shares objects gets the write's own object and the stored bytes; others get a decode", async () => {
    const { backend, store } = await open();
    const shared = await store.watch('/pods/ns', {
      recursive: true,
      resourceVersion: '1',
      shareObjects: true,
    });
    const plain = await store.watch('/pods/ns', { recursive: true, resourceVersion: '1' });
    const created = await store.create('/pods/ns/a', { metadata: { name: 'a', labels: { x: '<y>' } } });
    const deleted = await store.delete('/pods/ns/a');
    const next = async (w: Watch): Promise<WatchEvent | undefined> =>
      (await w[Symbol.asyncIterator]().next()).value as WatchEvent | undefined;
    const [added, removed] = [await next(shared), await next(shared)];
    assert.ok(added?.type === 'ADDED' && removed?.type === 'DELETED');
    assert.equal(added.object, created, 'the very object create returned');
    const stored = '{"metadata":{"name":"a","labels":{"x":"\\u003cy\\u003e"}}}';
    const st = added.stored;
    assert.ok(st !== undefined);
    assert.equal(st.data.toString(), stored);
    assert.equal(st.revision, Number(created.metadata?.resourceVersion));
    assert.equal(st.key, '/pods/ns/a');
    assert.equal(removed.stored?.data.toString(), stored, 'a deletion carries the last state');
    assert.deepEqual(removed.object, deleted);
    const fromPlain = await next(plain);
    assert.ok(fromPlain?.type === 'ADDED');
    assert.notEqual(fromPlain.object, created);
    assert.deepEqual(fromPlain.object, created);
    shared.stop();
    plain.stop();
    await backend.close();
  });

  it('getEncoded is the stored JSON with the resourceVersion spliced in', async () => {
    const { backend, store } = await open();
    const created = await store.create('/pods/ns/a', { apiVersion: 'v1', metadata: { name: 'a' } });
    const json = await store.getEncoded('/pods/ns/a');
    assert.equal(
      json?.toString(),
      `{"apiVersion":"v1","metadata":{"name":"a","resourceVersion":"${created.metadata?.resourceVersion ?? ''}"}}`,
    );
    assert.equal(await store.getEncoded('/pods/ns/b', { ignoreNotFound: true }), null);
    await assert.rejects(store.getEncoded('/pods/ns/b'), (err) => isStorageError(err, 'KeyNotFound'));
    // Bytes without a metadata object (another writer's) are decoded and encoded again.
    await backend.create('/registry/pods/ns/bare', Buffer.from('{"kind":"Pod"}'));
    const bare = JSON.parse(String(await store.getEncoded('/pods/ns/bare'))) as KubeObject;
    assert.equal(bare.kind, 'Pod');
    assert.match(bare.metadata?.resourceVersion ?? '', /^\d+$/);
    await backend.close();
  });

  it("getListEncoded's items are the stored bytes with each one's resourceVersion spliced in, page by page", async () => {
    const { backend, store } = await open();
    for (const name of ['a', 'b', 'c'])
      await store.create(`/pods/ns/${name}`, { metadata: { name, labels: { n: name } } });
    // Another writer's key order is kept: the bytes are served, not decoded and encoded again.
    await backend.create('/registry/pods/ns/d', Buffer.from('{"metadata":{"labels":{"n":"d"},"name":"d"}}'));
    const first = await store.getListEncoded('/pods/ns', { recursive: true, limit: 2 });
    const rest = await store.getListEncoded('/pods/ns', {
      recursive: true,
      limit: 2,
      continue: first.metadata.continue ?? '',
    });
    const items = [...first.items, ...rest.items].map(String);
    const one = await Promise.all(
      ['a', 'b', 'c', 'd'].map(async (n) => String(await store.getEncoded(`/pods/ns/${n}`))),
    );
    assert.deepEqual(items, one);
    assert.match(
      items[3] ?? '',
      /^\{"metadata":\{"resourceVersion":"\d+","labels":\{"n":"d"\},"name":"d"\}\}$/,
    );
    assert.equal(first.metadata.remainingItemCount, 2);
    await backend.close();
  });
});
