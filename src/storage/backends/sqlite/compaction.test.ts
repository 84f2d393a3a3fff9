// Under steady updates the built-in compactor keeps the database bounded without an operator.
//
// The workload: 10,000 updates to 10 keys with 1 KiB values (about 10 MiB of history; with no
// compaction the file measured ~18 MiB). Retaining 100 revisions, measured on the 2-core CI machine
// under load: database + WAL peaked at 2.0–5.8 MiB during the run (the WAL alone reaches ~4 MiB before
// SQLite's 1000-page auto-checkpoint recycles it) and settled at 0.5–2.0 MiB once the compactor had run.
// Bounds, with margin: 8 MiB at any time, and 3 MiB settled: the retained rows and indexes (~0.3 MiB),
// up to 1 MiB of free pages the compactor leaves for reuse, and a WAL under the 1 MiB the compactor
// truncates at.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CompactedError } from '../../kv/backend.js';
import { eventually } from '../../kv/testing/suite-context.js';
import { SqliteBackend } from './sqlite-backend.js';
import { tempDbPath } from './testdata/temp-dirs.js';

const MiB = 1024 * 1024;
const peakBound = 8 * MiB;
const settledBound = 3 * MiB;

describe('built-in compaction', () => {
  it('keeps file + WAL bounded under 10,000 updates to 10 keys', { timeout: 40_000 }, async (t) => {
    const b = await SqliteBackend.open({
      path: tempDbPath(),
      compaction: { minRetainRevisions: 100, minRetainMs: 0, intervalMs: 50 },
    });
    const keys = Array.from({ length: 10 }, (_, i) => `/registry/configmaps/default/cm-${i}`);
    const revs = new Map<string, number>();
    let peak = 0;
    for (let round = 0; round < 1000; round++) {
      const results = await Promise.all(
        keys.map((k) => {
          const value = Buffer.alloc(1024, round % 256);
          const rev = revs.get(k);
          return rev === undefined ? b.create(k, value) : b.update(k, value, { modRevision: rev });
        }),
      );
      results.forEach((r, i) => {
        assert.ok(r.ok);
        revs.set(keys[i] ?? '', r.revision);
      });
      if (round % 10 === 0) peak = Math.max(peak, await b.size());
    }
    assert.ok(peak < peakBound, `peak size ${peak} bytes exceeds ${peakBound}`);
    let settled = 0;
    await eventually('the compactor to settle the file', 15_000, async () => {
      settled = await b.size();
      return settled < settledBound && (await b.compactRevision()) >= 9_900;
    });

    t.diagnostic(`peak ${peak} bytes, settled ${settled} bytes`);
    for (const k of keys) assert.equal((await b.get(k)).kv?.value[0], 999 % 256);
    const compacted = await b.compactRevision();
    await assert.rejects(b.get(keys[0] ?? '', { revision: compacted - 1 }), CompactedError);
    await b.close();
  });
});
