// Faults surface as BackendUnavailableError naming the file, with SQLite's error as the cause; a
// failed transaction leaves nothing behind; nothing crashes the process.
import assert from 'node:assert/strict';
import { closeSync, openSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BackendNoSpaceError, BackendUnavailableError, prefixRange } from '../../kv/backend.js';
import { SqliteBackend } from './sqlite-backend.js';
import { sqliteCode } from './sqlite-errors.js';
import { tempDbPath, tempDir } from './testdata/temp-dirs.js';

/** etcd's NOSPACE: a text for clients (no file named), SQLite's SQLITE_FULL as the cause. */
function noSpace(err: unknown): boolean {
  assert.ok(err instanceof BackendNoSpaceError, `expected BackendNoSpaceError, got ${String(err)}`);
  assert.equal(err.message, 'sqlite: database space exceeded: database or disk is full');
  assert.equal(sqliteCode(err.cause), 'SQLITE_FULL');
  return true;
}

function unavailableFor(path: string, code?: string) {
  return (err: unknown): boolean => {
    assert.ok(err instanceof BackendUnavailableError, `expected BackendUnavailableError, got ${String(err)}`);
    assert.ok(err.message.includes(path), err.message);
    if (code !== undefined) assert.equal(sqliteCode(err.cause), code, err.message);
    return true;
  };
}

/** A database of 200 rows with every byte from `fromShare` of the file on overwritten by garbage. */
async function corrupted(fromShare: number): Promise<string> {
  const path = tempDbPath();
  const b = await SqliteBackend.open({ path });
  for (let i = 0; i < 200; i++) await b.create(`/c/${i}`, Buffer.alloc(200, 'v'));
  await b.close();
  const size = statSync(path).size;
  // Page 1 (header and schema) stays intact so SQLite recognises the file.
  const from = Math.max(4096, Math.floor((size * fromShare) / 4096) * 4096);
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.alloc(size - from, 0xa5), 0, size - from, from);
  closeSync(fd);
  return path;
}

describe('faults on open', () => {
  it('a file that is not a database fails to open with a clear error', async () => {
    const path = tempDbPath();
    writeFileSync(path, 'this is not a database, just some text\n'.repeat(300));
    await assert.rejects(SqliteBackend.open({ path }), unavailableFor(path, 'SQLITE_NOTADB'));
  });

  it('a database with garbage over its pages fails to open with a clear error', async () => {
    const path = await corrupted(0);
    await assert.rejects(SqliteBackend.open({ path }), unavailableFor(path, 'SQLITE_CORRUPT'));
  });

  it('garbage over the data pages fails the read with a clear error; the backend stays usable', async () => {
    const path = await corrupted(0.5);
    const b = await SqliteBackend.open({ path });
    await assert.rejects(b.list(prefixRange('/c/')), unavailableFor(path, 'SQLITE_CORRUPT'));
    await assert.rejects(b.count(prefixRange('/c/')), unavailableFor(path, 'SQLITE_CORRUPT'));
    assert.ok((await b.currentRevision()) >= 200);
    await b.close();
  });

  it('a missing directory fails to open with an error naming the file', async () => {
    const path = join(tempDir(), 'no', 'such', 'dir', 'state.db');
    await assert.rejects(SqliteBackend.open({ path }), unavailableFor(path));
  });
});

describe('faults at run time', () => {
  it('a write that cannot fit fails alone; nothing of it is applied; the backend keeps serving', async () => {
    const path = tempDbPath();
    const b = await SqliteBackend.open({ path, quotaBytes: 256 * 1024 });
    const start = await b.currentRevision();
    const [small1, huge, small2] = await Promise.allSettled([
      b.create('/q/a', Buffer.alloc(100, 'a')),
      b.create('/q/huge', Buffer.alloc(1024 * 1024, 'h')),
      b.create('/q/b', Buffer.alloc(100, 'b')),
    ]);
    assert.equal(small1.status, 'fulfilled');
    assert.equal(small2.status, 'fulfilled');
    assert.equal(huge.status, 'rejected');
    assert.ok(noSpace(huge.reason));
    assert.equal(await b.currentRevision(), start + 2);

    const before = await b.currentRevision();
    await assert.rejects(
      b.create('/q/huge', Buffer.alloc(1024 * 1024, 'h')),
      noSpace,
    );
    assert.equal(await b.currentRevision(), before);
    assert.deepEqual(
      (await b.list(prefixRange('/q/'))).kvs.map((kv) => kv.key),
      ['/q/a', '/q/b'],
    );
    const after = await b.create('/q/c', Buffer.from('c'));
    assert.ok(after.ok);
    assert.equal(after.revision, before + 1);
    await b.close();
  });

  it('calls after close fail with an error naming the file', async () => {
    const path = tempDbPath();
    const b = await SqliteBackend.open({ path });
    await b.close();
    await assert.rejects(b.size(), unavailableFor(path));
    await assert.rejects(b.compact(1), unavailableFor(path));
    await assert.rejects(b.requestProgress(), unavailableFor(path));
    await assert.rejects(b.delete('/k', { modRevision: 1 }), unavailableFor(path));
  });
});
