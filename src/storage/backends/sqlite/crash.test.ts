// kill -9 of a writer mid-stream: every acknowledged write is present with its value after reopening,
// the log has no gap and no torn row, and the file passes SQLite's integrity check.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { prefixRange } from '../../kv/backend.js';
import { WatchRecorder } from '../../kv/testing/watch-recorder.js';
import { SqliteBackend } from './sqlite-backend.js';
import { crashKeys, parseCrashValue } from './testdata/crash-values.js';
import { tempDbPath } from './testdata/temp-dirs.js';

const writer = fileURLToPath(new URL('./testdata/crash-writer.ts', import.meta.url));
/** The repository root, where `--import tsx` resolves. */
const root = fileURLToPath(new URL('../../../../', import.meta.url));

interface Ack {
  readonly rev: number;
  readonly key: string;
  readonly round: number;
}

/** Runs the writer until it has acknowledged `atLeast` writes, then SIGKILLs it. */
async function writeThenKill(path: string, atLeast: number): Promise<Ack[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', writer, path], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acks: Ack[] = [];
  let partial = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const [rev, key, round] = line.split(' ');
      acks.push({ rev: Number(rev), key: key ?? '', round: Number(round) });
    }
    if (acks.length >= atLeast && child.exitCode === null) child.kill('SIGKILL');
  });
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  assert.equal(signal, 'SIGKILL', `the writer should have been killed, exited ${code}: ${stderr}`);
  return acks;
}

describe('crash safety', () => {
  it(
    'every acknowledged write survives kill -9, and nothing is half-visible',
    { timeout: 30_000 },
    async (t) => {
      const path = tempDbPath();
      const acks = await writeThenKill(path, 2_000);
      assert.ok(acks.length >= 2_000);

      const b = await SqliteBackend.open({ path, compaction: { intervalMs: 0 } });
      const current = await b.currentRevision();
      // A fresh store starts at revision 1; every write since is one revision.
      const written = current - 1;
      t.diagnostic(`${acks.length} writes acknowledged before kill -9; ${written} recovered`);
      assert.ok(current >= Math.max(...acks.map((a) => a.rev)));
      for (const a of acks) {
        const { kv } = await b.get(a.key, { revision: a.rev });
        assert.equal(kv?.modRevision, a.rev, `acknowledged revision ${a.rev} of ${a.key} is missing`);
        assert.equal(parseCrashValue(a.key, kv.value), a.round);
      }
      // The whole log, replayed: contiguous revisions, every row whole, every update after its previous.
      const rec = new WatchRecorder(5_000);
      const w = b.watch(prefixRange('/crash/'), { fromRevision: 1 }, rec);
      const events = await rec.waitForEvents(written);
      w.cancel();
      assert.deepEqual(
        events.map((e) => e.kv.modRevision),
        Array.from({ length: written }, (_, i) => i + 2),
      );
      const perRound = new Map<number, number>();
      for (const e of events) {
        const round = parseCrashValue(e.kv.key, e.kv.value);
        assert.ok(round !== null, `revision ${e.kv.modRevision} holds a torn value`);
        if (e.prevKv !== null) assert.equal(parseCrashValue(e.kv.key, e.prevKv.value), round - 1);
        perRound.set(round, (perRound.get(round) ?? 0) + 1);
      }
      // A round's writes share one transaction: after the crash it is there whole or not at all.
      for (const [round, n] of perRound)
        assert.equal(n, crashKeys.length, `round ${round} is partly applied`);
      await b.close();

      const db = new Database(path, { readonly: true });
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      db.close();
    },
  );
});
