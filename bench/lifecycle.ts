// bench/lifecycle: start + stop of 100 memory servers one after another in this process, as a test
// suite with a server per test runs them: each start (to ready) and each stop timed, next to a bare
// node:http server's listen and close; then the process's RSS and heap after a GC, against before.
// Then snapshot, restore (after a tenth of the objects changed, and with nothing changed) and forks
// of a server holding 100, 1,000 and 10,000 ConfigMaps. Capstan is the library bundled as users
// run it (bench/bundle.ts); through tsx, a fork of 1,000 objects took ~40 ms where the bundle's takes ~28.
import http from 'node:http';
import type { CapstanServer } from '../src/index.js';
import { bundledStartCapstan } from './bundle.js';
import { fmtMs, percentile, printGrid } from './support.js';

const servers = 100;
const forksPerSnapshot = 6;

async function bare(): Promise<{ start: number; stop: number }> {
  const t0 = performance.now();
  const server = http.createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const t1 = performance.now();
  await new Promise<void>((resolve, reject) => {
    server.close((err) => {
      if (err) reject(err);
      else resolve();
    });
  });
  return { start: t1 - t0, stop: performance.now() - t1 };
}

type StartCapstan = Awaited<ReturnType<typeof bundledStartCapstan>>;

async function capstan(startCapstan: StartCapstan): Promise<{ start: number; stop: number }> {
  const t0 = performance.now();
  const server = await startCapstan({ scheme: 'http' });
  const t1 = performance.now();
  await server.stop();
  return { start: t1 - t0, stop: performance.now() - t1 };
}

const gc = (globalThis as { gc?: () => void }).gc;

function memoryMb(): { rss: number; heap: number } {
  gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss / 2 ** 20, heap: m.heapUsed / 2 ** 20 };
}

function summary(name: string, ms: number[]): string[] {
  const sorted = [...ms].sort((a, b) => a - b);
  return [
    name,
    ...[50, 95, 100].map((p) => fmtMs(percentile(sorted, p))),
    fmtMs(ms.reduce((a, b) => a + b, 0)),
  ];
}

/** Sends `count` requests, `width` at a time. */
async function inParallel(count: number, width: number, send: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await send(next++);
    }),
  );
}

async function configMapWrites(server: CapstanServer, count: number, colour: string): Promise<void> {
  const headers = {
    authorization: `Bearer ${server.kubeConfig.users[0]?.user.token ?? ''}`,
    'content-type': 'application/json',
  };
  await inParallel(count, 16, async (i) => {
    const body = JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `cm-${i}` },
      data: { colour },
    });
    const create = colour === 'initial';
    const res = await fetch(`${server.url}/api/v1/namespaces/default/configmaps${create ? '' : `/cm-${i}`}`, {
      method: create ? 'POST' : 'PUT',
      headers,
      body,
    });
    if (res.status >= 300) throw new Error(`configmap ${i}: ${res.status} ${await res.text()}`);
  });
}

async function timed<T>(op: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const out = await op();
  return [out, performance.now() - t0];
}

async function snapshotRows(startCapstan: StartCapstan): Promise<string[][]> {
  const rows: string[][] = [];
  for (const objects of [100, 1000, 10_000]) {
    const server = await startCapstan({ scheme: 'http', requestLog: false });
    try {
      await configMapWrites(server, objects, 'initial');
      const [name, snapshotMs] = await timed(() => server.snapshot());
      await configMapWrites(server, objects / 10, 'changed');
      const [, restoreMs] = await timed(() => server.restore(name));
      const [, unchangedMs] = await timed(() => server.restore(name));
      // The first fork, then the median of the next ones (a suite forks once per test).
      const forkMs: number[] = [];
      for (let i = 0; i < forksPerSnapshot; i++) {
        const [fork, ms] = await timed(() => server.fork(name));
        forkMs.push(ms);
        await fork.stop();
      }
      const [first = 0, ...rest] = forkMs;
      rows.push([
        String(objects),
        fmtMs(snapshotMs),
        fmtMs(restoreMs),
        fmtMs(unchangedMs),
        fmtMs(first),
        fmtMs(
          percentile(
            rest.sort((a, b) => a - b),
            50,
          ),
        ),
      ]);
    } finally {
      await server.stop();
    }
  }
  return rows;
}

export async function run(): Promise<void> {
  const startCapstan = await bundledStartCapstan();
  await capstan(startCapstan); // loads the modules once, as the first test of a suite would
  const before = memoryMb();
  const runs = {
    capstanStart: [] as number[],
    capstanStop: [] as number[],
    bareStart: [] as number[],
    bareStop: [] as number[],
  };
  for (let i = 0; i < servers; i++) {
    const c = await capstan(startCapstan);
    runs.capstanStart.push(c.start);
    runs.capstanStop.push(c.stop);
    const b = await bare();
    runs.bareStart.push(b.start);
    runs.bareStop.push(b.stop);
  }
  const after = memoryMb();
  printGrid(
    `start + stop of ${servers} servers in one process (ms)`,
    ['step', 'p50', 'p95', 'max', 'total'],
    [
      summary('startCapstan({ storage: memory }) to ready', runs.capstanStart),
      summary('server.stop()', runs.capstanStop),
      summary('bare node:http listen', runs.bareStart),
      summary('bare node:http close', runs.bareStop),
    ],
  );
  printGrid(
    `memory before and after ${servers} start + stop${gc === undefined ? ' (run with --expose-gc for a GC first)' : ', after a GC'}`,
    ['', 'before (MB)', 'after (MB)', 'growth per server (KB)'],
    [
      [
        'RSS',
        before.rss.toFixed(1),
        after.rss.toFixed(1),
        (((after.rss - before.rss) * 1024) / servers).toFixed(0),
      ],
      [
        'heap used',
        before.heap.toFixed(1),
        after.heap.toFixed(1),
        (((after.heap - before.heap) * 1024) / servers).toFixed(0),
      ],
    ],
  );
  console.log(`\nhandles left: ${JSON.stringify(process.getActiveResourcesInfo())}`);
  const p50 = (ms: number[]): number =>
    percentile(
      [...ms].sort((a, b) => a - b),
      50,
    );
  const startStop = runs.capstanStart.map((t, i) => t + (runs.capstanStop[i] ?? 0));
  console.log(
    `issue 21's targets: stop() of an idle server p50 ${fmtMs(p50(runs.capstanStop))} ms (≤ 50), ` +
      `start + stop of a memory server p50 ${fmtMs(p50(startStop))} ms (≤ 100)`,
  );
  printGrid(
    'snapshot, restore and fork of a memory server holding N ConfigMaps (ms)',
    [
      'objects',
      'snapshot',
      'restore (a tenth changed)',
      'restore (nothing changed)',
      'first fork (to ready)',
      `fork, p50 of the next ${forksPerSnapshot - 1}`,
    ],
    await snapshotRows(startCapstan),
  );
  console.log("issue 21's targets at 1,000 objects: restore ≤ 20 ms, fork ≤ 50 ms");
}
