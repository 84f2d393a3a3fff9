// bench/storage's etcd3 columns: KvStore over Etcd3Backend (create = txn(mod_revision == 0 → put), get,
// paged and full lists) against the bare calls a client would make for the same results (put,
// range + JSON.parse) on the same EtcdClient, to the same etcd member, in the same run, alternating
// halves. Reads go to the same keys on both sides.
import type { KubeObject } from '../src/api/meta.js';
import { Etcd3Backend } from '../src/storage/backends/etcd3/etcd-backend.js';
import { keyBytes } from '../src/storage/backends/etcd3/kv-convert.js';
import { etcdInstalled, startEtcd } from '../src/storage/backends/etcd3/testing/etcd-process.js';
import { KvStore } from '../src/storage/kv-store/kv-store.js';
import { prefixEnd } from '../src/storage/kv/backend.js';
import { concurrent, podLike, sequential, type Rate, type Row } from './support.js';

const creates = 1000;
const concurrentCreates = 3000;
const inFlight = 64;
const gets = 5000;
const smallLists = 300;
const largeLists = 6;

type Rates = Record<'create' | 'createConcurrent' | 'get' | 'list100' | 'list10k', number>;

/**
 * Runs each side in two halves, bare-capstan-bare-capstan, so drift on a shared machine falls on
 * both; `i` is the first index of the half. Returns operations per second for bare and capstan.
 */
async function alternating(
  count: number,
  sides: Record<'bare' | 'capstan', (i: number) => Promise<Rate>>,
): Promise<[number, number]> {
  const seconds = { bare: 0, capstan: 0 };
  for (const half of [0, count / 2]) {
    seconds.bare += (await sides.bare(half)).seconds;
    seconds.capstan += (await sides.capstan(half)).seconds;
  }
  return [count / seconds.bare, count / seconds.capstan];
}

const value = (name: string): Buffer => Buffer.from(JSON.stringify(podLike(name)));
const parse = (kv: { value: Buffer }): unknown => JSON.parse(kv.value.toString('utf8'));

export async function etcd3Rows(): Promise<{ rows: Row[]; version: string; dataOn: string } | string> {
  if (!etcdInstalled()) return 'etcd is not installed (apt-get install etcd-server)';
  const etcd = await startEtcd({ name: 'capstan-bench' });
  const backend = new Etcd3Backend({ endpoints: etcd.endpoints });
  try {
    const client = backend.etcdClient;
    const store = new KvStore<KubeObject>({ backend, groupResource: { group: '', resource: 'pods' } });
    const version = (await client.call('status', {})).version;
    const bare: Partial<Rates> = {};
    const capstan: Partial<Rates> = {};
    const put = (key: string, name: string) => client.call('put', { key: keyBytes(key), value: value(name) });
    // Warm both paths (connection, JIT) before measuring.
    await sequential(300, (i) => put(`/registry/pods/warm/raw-${i}`, `w-${i}`));
    await sequential(300, (i) => store.create(`/pods/warm/c-${i}`, podLike(`w-${i}`)));
    [bare.create, capstan.create] = await alternating(creates, {
      bare: (i) => sequential(creates / 2, (j) => put(`/registry/pods/raw/c-${i + j}`, `c-${i + j}`)),
      capstan: (i) =>
        sequential(creates / 2, (j) => store.create(`/pods/bench/c-${i + j}`, podLike(`c-${i + j}`))),
    });
    [bare.createConcurrent, capstan.createConcurrent] = await alternating(concurrentCreates, {
      bare: (i) =>
        concurrent(concurrentCreates / 2, inFlight, (j) =>
          put(`/registry/pods/rawconc/c-${i + j}`, `c-${i + j}`),
        ),
      capstan: (i) =>
        concurrent(concurrentCreates / 2, inFlight, (j) =>
          store.create(`/pods/conc/c-${i + j}`, podLike(`c-${i + j}`)),
        ),
    });
    await concurrent(10000, inFlight, (i) =>
      store.create(`/pods/all/p-${String(i).padStart(5, '0')}`, podLike(`p-${i}`)),
    );
    [bare.get, capstan.get] = await alternating(gets, {
      bare: () =>
        sequential(gets / 2, async (i) => {
          const res = await client.call('range', { key: keyBytes(`/registry/pods/bench/c-${i % creates}`) });
          return res.kvs.map(parse);
        }),
      capstan: () => sequential(gets / 2, (i) => store.get(`/pods/bench/c-${i % creates}`)),
    });
    const range = (prefix: string): { key: Buffer; range_end: Buffer } => ({
      key: keyBytes(prefix),
      range_end: keyBytes(prefixEnd(prefix)),
    });
    [bare.list100, capstan.list100] = await alternating(smallLists, {
      bare: () =>
        sequential(smallLists / 2, async () => {
          const res = await client.call('range', { ...range('/registry/pods/bench/'), limit: 100 });
          return res.kvs.map(parse);
        }),
      capstan: () =>
        sequential(smallLists / 2, () => store.getList('/pods/bench/', { recursive: true, limit: 100 })),
    });
    [bare.list10k, capstan.list10k] = await alternating(largeLists, {
      bare: () =>
        sequential(largeLists / 2, async () => {
          const res = await client.call('range', range('/registry/pods/all/'));
          return res.kvs.map(parse);
        }),
      capstan: () => sequential(largeLists / 2, () => store.getList('/pods/all/', { recursive: true })),
    });
    const row = (what: string, k: keyof Rates): Row => ({
      what,
      capstan: capstan[k] ?? 0,
      baseline: bare[k] ?? 0,
    });
    return {
      version,
      dataOn: etcd.dataDir.startsWith('/dev/shm') ? 'tmpfs' : 'disk',
      rows: [
        row(`create (txn) vs put, 1 in flight (${creates})`, 'create'),
        row(`create vs put, ${inFlight} in flight (${concurrentCreates})`, 'createConcurrent'),
        row(`get vs range (${gets})`, 'get'),
        row(`list 100 of ${creates} keys vs range limit 100 (${smallLists})`, 'list100'),
        row(`list 10,000 objects vs range (${largeLists})`, 'list10k'),
      ],
    };
  } finally {
    await backend.close();
    await etcd.stop();
  }
}
