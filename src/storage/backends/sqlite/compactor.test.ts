// The compactor decides what the connection that commits the writes does (maintenance.ts): bounded
// compaction chunks, in order, a vacuum while it frees pages, and a WAL truncation; it runs nothing
// on a connection of its own.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VirtualClock } from '../../../machinery/time/clock.js';
import { Compactor, type CompactorDeps } from './compactor.js';
import type { MaintenanceOutcome, MaintenanceTask } from './maintenance.js';

interface Fake {
  readonly tasks: MaintenanceTask[];
  free: number;
  walBytes: number;
  failing: Error | null;
}

function compactor(fake: Fake, over: Partial<CompactorDeps> = {}): Compactor {
  return new Compactor({
    maintain: (task): Promise<MaintenanceOutcome> => {
      fake.tasks.push(task);
      if (fake.failing !== null) return Promise.reject(fake.failing);
      if (task.kind === 'vacuum') fake.free = Math.max(0, fake.free - task.pages);
      return Promise.resolve({ freePages: fake.free });
    },
    freePages: () => fake.free,
    pageCount: () => 10_000,
    compactRevision: 0,
    walBytes: () => fake.walBytes,
    currentRevision: () => 2_500,
    now: () => 0,
    minRetainRevisions: 0,
    minRetainMs: 0,
    intervalMs: 0,
    timers: new VirtualClock(0),
    fault: (doing, err) => new Error(`${doing}: ${(err as Error).message}`),
    closed: () => null,
    ...over,
  });
}

const fresh = (): Fake => ({ tasks: [], free: 0, walBytes: 0, failing: null });

describe('Compactor', () => {
  it('compacts in chunks of at most 1,000 revisions, in order', async () => {
    const fake = fresh();
    const c = compactor(fake);
    await c.compact(2_500);
    assert.deepEqual(fake.tasks, [
      { kind: 'compact', lo: 0, hi: 1_000 },
      { kind: 'compact', lo: 1_000, hi: 2_000 },
      { kind: 'compact', lo: 2_000, hi: 2_500 },
    ]);
    assert.equal(c.compactRevision, 2_500);
    await c.compact(2_000);
    assert.equal(fake.tasks.length, 3, 'a revision already compacted asks for nothing');
  });

  it('keeps the revision of the last chunk that held when one fails', async () => {
    const fake = fresh();
    const c = compactor(fake);
    await c.compact(1_000);
    fake.failing = new Error('disk I/O error');
    await assert.rejects(c.compact(2_500), /compact: disk I\/O error/);
    assert.equal(c.compactRevision, 1_000);
  });

  it('a round vacuums while pages are freed, then truncates the WAL', async () => {
    const clock = new VirtualClock(0);
    const fake = { ...fresh(), free: 3_000, walBytes: 4 * 1024 * 1024 };
    const c = compactor(fake, { intervalMs: 1_000, timers: clock, currentRevision: () => 0 });
    await clock.advance('1s');
    await c.close();
    assert.deepEqual(
      fake.tasks.map((t) => t.kind),
      ['vacuum', 'vacuum', 'vacuum', 'vacuum', 'vacuum', 'vacuum', 'checkpoint'],
    );
    assert.equal(fake.free, 0);
  });

  it('a round with few free pages and a small WAL asks for nothing', async () => {
    const clock = new VirtualClock(0);
    const fake = { ...fresh(), free: 10, walBytes: 1024 };
    const c = compactor(fake, { intervalMs: 1_000, timers: clock, currentRevision: () => 0 });
    await clock.advance('1s');
    await c.close();
    assert.deepEqual(fake.tasks, []);
  });
});
