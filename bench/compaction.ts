// bench/compaction: what SQLite compaction costs the requests around it. 32 writers update 2,000
// keys of ~9 KB (a Pod's stored size) through SqliteBackend for a few seconds, once with the built-in
// compactor off (the baseline) and once compacting every 2 s down to the newest 2,000 revisions
// (a server's default keeps 5 minutes and runs every minute: the same work, in bigger rounds),
// alternating, in the same run and temp directory. Reported: updates per second, the event loop's
// delay (what every other request on the server waits, reads included; perf_hooks, 1 ms
// resolution) and the writes' latency, each against the baseline's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { SqliteBackend } from '../src/storage/backends/sqlite/sqlite-backend.js';
import { fmt, fmtMs, percentile, printGrid } from './support.js';

const keys = 2000;
const writers = 32;
const runMs = 6000;
const rounds = 2;
const value = Buffer.from(JSON.stringify({ data: 'x'.repeat(9000) }));

interface Result {
  readonly updates: number;
  readonly loop: { readonly p99: number; readonly p999: number; readonly max: number };
  readonly write: readonly number[];
}

async function measure(path: string, compacting: boolean): Promise<Result> {
  const b = await SqliteBackend.open({
    path,
    compaction: compacting
      ? { intervalMs: 2000, minRetainRevisions: keys, minRetainMs: 0 }
      : { intervalMs: 0 },
  });
  try {
    const revs: number[] = [];
    for (let i = 0; i < keys; i += 100) {
      const made = await Promise.all(
        Array.from({ length: 100 }, (_, j) => b.create(`/registry/pods/bench/p-${i + j}`, value)),
      );
      for (const r of made) revs.push(r.revision);
    }
    const write: number[] = [];
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const end = performance.now() + runMs;
    const writer = async (first: number): Promise<void> => {
      for (let i = first; performance.now() < end; i += writers) {
        const k = i % keys;
        const t0 = performance.now();
        const r = await b.update(`/registry/pods/bench/p-${k}`, value, { modRevision: revs[k] ?? 0 });
        write.push(performance.now() - t0);
        if (!r.ok) throw new Error(`update of p-${k} lost its comparison`);
        revs[k] = r.revision;
      }
    };
    await Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));
    loop.disable();
    if (compacting && (await b.compactRevision()) === 0) throw new Error('the compactor never ran');
    const ms = (ns: number): number => ns / 1e6;
    return {
      updates: write.length / (runMs / 1000),
      loop: { p99: ms(loop.percentile(99)), p999: ms(loop.percentile(99.9)), max: ms(loop.max) },
      write: write.sort((x, y) => x - y),
    };
  } finally {
    await b.close();
  }
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-bench-compaction-'));
  try {
    const results: Record<'off' | 'on', Result[]> = { off: [], on: [] };
    for (let r = 0; r < rounds; r++) {
      results.off.push(await measure(join(dir, `off-${r}.db`), false));
      results.on.push(await measure(join(dir, `on-${r}.db`), true));
    }
    const rows: string[][] = [];
    for (const [name, of] of [
      ['compactor off (baseline)', results.off],
      ['compacting every 2 s', results.on],
    ] as const) {
      of.forEach((m, r) => {
        rows.push([
          `${name}, round ${r + 1}`,
          fmt(m.updates),
          `${fmtMs(m.loop.p99)} / ${fmtMs(m.loop.p999)} / ${fmtMs(m.loop.max)}`,
          [50, 99, 99.9].map((p) => fmtMs(percentile(m.write, p))).join(' / ') +
            ` / ${fmtMs(m.write[m.write.length - 1] ?? Number.NaN)}`,
        ]);
      });
    }
    printGrid(
      `Updates under SQLite compaction (${writers} writers, ${keys} keys of ${(value.length / 1024).toFixed(1)} KB)`,
      ['run', 'updates/s', 'event-loop delay p99 / p99.9 / max ms', 'write p50 / p99 / p99.9 / max ms'],
      rows,
    );
    const worst = (of: Result[], f: (m: Result) => number): number => Math.max(...of.map(f));
    const loopMax = worst(results.on, (m) => m.loop.max) / worst(results.off, (m) => m.loop.max);
    const writeMax =
      worst(results.on, (m) => m.write[m.write.length - 1] ?? 0) /
      worst(results.off, (m) => m.write[m.write.length - 1] ?? 0);
    console.log(
      `\nCompacting against the baseline, worst round each: event-loop delay max ${loopMax.toFixed(2)}×, ` +
        `write latency max ${writeMax.toFixed(2)}×.`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
