// A database image (serialize()) opens as a new backend with the same keys, values and revisions,
// in memory and as a new file, and the copy goes its own way.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prefixRange } from '../../kv/backend.js';
import { SqliteBackend } from './sqlite-backend.js';
import { tempDbPath } from './testdata/temp-dirs.js';

const quiet = { ttlSweepIntervalMs: 0, compaction: { intervalMs: 0 } } as const;

/** Three writes after /k/a's first value. */
async function seeded(path: string): Promise<SqliteBackend> {
  const b = await SqliteBackend.open({ ...quiet, path });
  const a = await b.create('/k/a', Buffer.from('a1'));
  assert.ok(a.ok);
  assert.ok((await b.update('/k/a', Buffer.from('a2'), { modRevision: a.revision })).ok);
  const c = await b.create('/k/c', Buffer.from('c'));
  assert.ok(c.ok);
  assert.ok((await b.delete('/k/c', { modRevision: c.revision })).ok);
  return b;
}

describe('SqliteBackend images', () => {
  for (const [name, path] of [
    ['memory', () => ':memory:'],
    ['file', tempDbPath],
  ] as const)
    it(`opens a ${name} database from another's image at the same revision`, async () => {
      const original = await seeded(path());
      const image = original.serialize();
      const copy = await SqliteBackend.open({ ...quiet, path: path(), image });
      try {
        assert.equal(await copy.currentRevision(), await original.currentRevision());
        const [want, got] = await Promise.all([original, copy].map((b) => b.list(prefixRange('/k/'))));
        assert.deepEqual(got, want);
        // History came along: the first value of /k/a is still readable at its revision.
        const first = await copy.get('/k/a', { revision: (await original.currentRevision()) - 3 });
        assert.equal(first.kv?.value.toString(), 'a1');
        // Each goes on alone.
        assert.ok((await copy.create('/k/only-copy', Buffer.from('x'))).ok);
        assert.equal((await original.get('/k/only-copy')).kv, null);
      } finally {
        await Promise.all([original.close(), copy.close()]);
      }
    });
});
