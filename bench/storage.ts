// bench/storage: KvStore over SqliteBackend next to the same operations on a bare better-sqlite3
// table with the same schema, in the same run, on files in the same temp directory; then, when `etcd`
// is installed, KvStore over Etcd3Backend next to bare put/range calls on the same etcd client and
// the same etcd. Baselines produce the same output (objects in, objects out), so they pay
// JSON.stringify/parse as we do.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteBackend } from '../src/storage/backends/sqlite/sqlite-backend.js';
import { ensureSchema } from '../src/storage/backends/sqlite/schema.js';
import { listSql } from '../src/storage/backends/sqlite/statements.js';
import { KvStore } from '../src/storage/kv-store/kv-store.js';
import type { KubeObject } from '../src/api/meta.js';
import { etcd3Rows } from './storage-etcd3.js';
import { concurrent, podLike, printTable, sequential, type Row } from './support.js';

const creates = 2000;
const concurrentCreates = 5000;
const inFlight = 64;
const gets = 20000;
const smallLists = 1000;
const largeLists = 10;

function bareDb(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('locking_mode = EXCLUSIVE');
  db.pragma('auto_vacuum = INCREMENTAL');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  ensureSchema(db);
  return db;
}

async function bare(dir: string): Promise<Record<string, number>> {
  const db = bareDb(join(dir, 'bare.db'));
  const insert = db.prepare(
    'INSERT INTO kv_log (name, created, deleted, create_revision, prev_revision, lease, value) VALUES (?, 1, 0, 0, 0, 0, ?)',
  );
  const head = db.prepare('SELECT id, deleted, value FROM kv_log WHERE name = ? ORDER BY id DESC LIMIT 1');
  const list = db.prepare(listSql(true));
  const value = (name: string): Buffer => Buffer.from(JSON.stringify(podLike(name)));
  const out: Record<string, number> = {};
  out.create = (
    await sequential(creates, (i) => insert.run(`/registry/pods/bench/c-${i}`, value(`c-${i}`)))
  ).perSecond;
  for (let i = 0; i < 10000; i++) if (i >= 100) insert.run(`/registry/pods/big/p-${i}`, value(`p-${i}`));
  db.transaction(() => {
    for (let i = 0; i < 10000; i++)
      insert.run(`/registry/pods/all/p-${String(i).padStart(5, '0')}`, value(`p-${i}`));
  })();
  const decode = (row: unknown): unknown => JSON.parse((row as { value: Buffer }).value.toString('utf8'));
  out.get = (
    await sequential(gets, (i) => decode(head.get(`/registry/pods/bench/c-${i % creates}`)))
  ).perSecond;
  const rev = Number.MAX_SAFE_INTEGER;
  const small = { start: '/registry/pods/bench/c-1', end: '/registry/pods/bench/c-2', rev, limit: 100 };
  out.list100 = (await sequential(smallLists, () => list.all(small).map(decode))).perSecond;
  const large = { start: '/registry/pods/all/', end: '/registry/pods/all0', rev, limit: 100000 };
  out.list10k = (await sequential(largeLists, () => list.all(large).map(decode))).perSecond;
  db.close();
  return out;
}

async function capstan(dir: string): Promise<Record<string, number>> {
  const backend = await SqliteBackend.open({ path: join(dir, 'capstan.db'), compaction: { intervalMs: 0 } });
  const store = new KvStore<KubeObject>({ backend, groupResource: { group: '', resource: 'pods' } });
  const out: Record<string, number> = {};
  out.create = (
    await sequential(creates, (i) => store.create(`/pods/bench/c-${i}`, podLike(`c-${i}`)))
  ).perSecond;
  out.createConcurrent = (
    await concurrent(concurrentCreates, inFlight, (i) => store.create(`/pods/conc/c-${i}`, podLike(`c-${i}`)))
  ).perSecond;
  await concurrent(10000, inFlight, (i) =>
    store.create(`/pods/all/p-${String(i).padStart(5, '0')}`, podLike(`p-${i}`)),
  );
  out.get = (await sequential(gets, (i) => store.get(`/pods/bench/c-${i % creates}`))).perSecond;
  // The names c-1, c-10…c-19, c-100…c-199, c-1000…c-1999: the same 1,111 keys the bare list ranges
  // over, limited to 100 as a paged list.
  out.list100 = (
    await sequential(smallLists, () => store.getList('/pods/bench/', { recursive: true, limit: 100 }))
  ).perSecond;
  out.list10k = (
    await sequential(largeLists, () => store.getList('/pods/all/', { recursive: true }))
  ).perSecond;
  await backend.close();
  return out;
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-bench-storage-'));
  try {
    const b = await bare(dir);
    const c = await capstan(dir);
    const rows: Row[] = [
      { what: `create, 1 in flight (${creates})`, capstan: c.create ?? 0, baseline: b.create ?? 0 },
      {
        what: `create, ${inFlight} in flight (${concurrentCreates}) vs bare 1 in flight`,
        capstan: c.createConcurrent ?? 0,
        baseline: b.create ?? 0,
      },
      { what: `get (${gets})`, capstan: c.get ?? 0, baseline: b.get ?? 0 },
      { what: `list 100 of 1,111 keys (${smallLists})`, capstan: c.list100 ?? 0, baseline: b.list100 ?? 0 },
      { what: `list 10,000 objects (${largeLists})`, capstan: c.list10k ?? 0, baseline: b.list10k ?? 0 },
    ];
    printTable(
      'storage: KvStore + SQLite (synchronous=FULL, WAL) vs bare better-sqlite3, same schema',
      'bare',
      rows,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const etcd = await etcd3Rows();
  if (typeof etcd === 'string') console.log(`\n(etcd3 columns skipped: ${etcd})`);
  else
    printTable(
      `storage: KvStore + etcd3 (${etcd.version}, one member, data on ${etcd.dataOn}) vs bare put/range on the same client`,
      'bare client',
      etcd.rows,
    );
}
