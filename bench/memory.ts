// bench/memory: what 20,000 Pods cost a fresh SQLite-backed Capstan in RSS, held against the target
// `2 × JSON bytes + 120 MB`, and how long a list of all of them takes (from the watch cache with
// resourceVersion=0, and without a resourceVersion). The server runs in a process of its own
// (bench/memory-server.ts, with --expose-gc) so its RSS is its own; the Pods are created by the
// forked load generator, 32 in flight; the lists are read here. JSON bytes stored are the sum of the
// created Pods as the server returned them (what it stores: defaults, managedFields and all).
// The server is bundled with esbuild first, as bin/capstan's is: through tsx, its loader thread and
// compiled sources would add tens of MB that a deployed server does not carry.
import http from 'node:http';
import { createTemplate } from './api-objects.js';
import { createNamespace, createObjects, type Target } from './api-setup.js';
import { bundleWithWriter } from './bundle.js';
import { ChildChannel } from './child-channel.js';
import { LoadGenerator } from './load-generator.js';
import type { FromMemoryServer, MemorySample, ToMemoryServer } from './memory-server.js';
import { fmt, fmtMs, median, printGrid } from './support.js';

const pods = 20_000;
const inFlight = 32;
const listRepeats = 3;
const idleMs = 2000;
const namespace = 'memory';
const targetOverheadMB = 120;

interface ListTiming {
  readonly headMs: number;
  readonly firstByteMs: number;
  readonly totalMs: number;
  readonly bytes: number;
  readonly items: number;
}

/** One GET read to the end: time to the response head, to the first body byte, to the last. */
function timedGet(t: Target, path: string, count: boolean): Promise<ListTiming> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    let headMs = 0;
    let firstByteMs = 0;
    let bytes = 0;
    const chunks: Buffer[] = [];
    const req = http.get(
      `${t.url}${path}`,
      { agent: false, headers: { authorization: `Bearer ${t.token}`, accept: 'application/json' } },
      (res) => {
        headMs = performance.now() - start;
        res.on('data', (c: Buffer) => {
          if (bytes === 0) firstByteMs = performance.now() - start;
          bytes += c.length;
          if (count) chunks.push(c);
        });
        res.on('end', () => {
          const totalMs = performance.now() - start;
          if (res.statusCode !== 200) {
            reject(
              new Error(
                `GET ${path}: ${res.statusCode ?? 0} ${Buffer.concat(chunks).toString().slice(0, 500)}`,
              ),
            );
            return;
          }
          const items = count
            ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { items: unknown[] }).items.length
            : Number.NaN;
          resolve({ headMs, firstByteMs, totalMs, bytes, items });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
}

async function lists(t: Target): Promise<{ path: string; runs: ListTiming[] }[]> {
  const paths = ['/api/v1/pods?resourceVersion=0', '/api/v1/pods'];
  const out = paths.map((path) => ({ path, runs: [] as ListTiming[] }));
  // First, untimed, with the items counted: every Pod must be there.
  for (const o of out) {
    const r = await timedGet(t, o.path, true);
    if (r.items !== pods) throw new Error(`GET ${o.path} listed ${r.items} pods, not ${pods}`);
  }
  for (let i = 0; i < listRepeats; i++) for (const o of out) o.runs.push(await timedGet(t, o.path, false));
  return out;
}

function report(samples: Record<'start' | 'created' | 'listed', MemorySample>, jsonBytes: number): void {
  const jsonMB = jsonBytes / 2 ** 20;
  const targetMB = 2 * jsonMB + targetOverheadMB;
  const { start, created, listed } = samples;
  printGrid(
    `Memory: ${fmt(pods)} Pods in a fresh Capstan on SQLite (a process of its own, RSS after a full GC; MB = 2^20 bytes)`,
    ['what', 'value'],
    [
      ['RSS before the Pods (namespace made, after GC)', `${start.rssMB.toFixed(0)} MB`],
      ['RSS after the Pods (after GC)', `${created.rssMB.toFixed(0)} MB`],
      ['RSS growth', `${(created.rssMB - start.rssMB).toFixed(0)} MB`],
      ['JS heap used before / after', `${start.heapUsedMB.toFixed(0)} / ${created.heapUsedMB.toFixed(0)} MB`],
      [
        'JS heap held (used or not) before / after',
        `${start.heapTotalMB.toFixed(0)} / ${created.heapTotalMB.toFixed(0)} MB`,
      ],
      [
        'external memory (buffers) before / after',
        `${start.externalMB.toFixed(0)} / ${created.externalMB.toFixed(0)} MB`,
      ],
      [
        'JSON bytes stored (the Pods as returned by create)',
        `${jsonMB.toFixed(1)} MB (${fmt(jsonBytes / pods)} B per Pod)`,
      ],
      [`target: 2 × JSON bytes + ${targetOverheadMB} MB`, `${targetMB.toFixed(0)} MB`],
      ['RSS after / target (≤ 1 meets it)', (created.rssMB / targetMB).toFixed(2)],
      ['peak RSS while creating', `${created.peakRssMB.toFixed(0)} MB`],
      [
        'RSS after the lists below / peak RSS over the whole run',
        `${listed.rssMB.toFixed(0)} / ${listed.peakRssMB.toFixed(0)} MB`,
      ],
    ],
  );
}

function reportLists(results: readonly { path: string; runs: readonly ListTiming[] }[]): void {
  const rows = results.map(({ path, runs }) => [
    `GET ${path}`,
    fmtMs(median(runs.map((r) => r.headMs))),
    fmtMs(median(runs.map((r) => r.firstByteMs))),
    fmtMs(median(runs.map((r) => r.totalMs))),
    (median(runs.map((r) => r.bytes)) / 2 ** 20).toFixed(1),
  ]);
  printGrid(
    `List of all ${fmt(pods)} Pods (median of ${listRepeats}, one at a time)`,
    ['request', 'response head ms', 'first body byte ms', 'total ms', 'MB'],
    rows,
  );
}

/** The server's entry: bundled into dist/bench/memory/ (packages stay imports), else the source through tsx. */
async function serverEntry(): Promise<{ module: URL; execArgv: string[] }> {
  const source = new URL('./memory-server.ts', import.meta.url);
  try {
    const module = await bundleWithWriter(
      source,
      new URL('../dist/bench/memory/', import.meta.url),
      'memory-server',
    );
    return { module, execArgv: ['--expose-gc'] };
  } catch (err) {
    console.log(`\n(The server runs through tsx, which adds to its RSS: bundling failed: ${String(err)})`);
    return { module: source, execArgv: [...process.execArgv, '--expose-gc'] };
  }
}

export async function run(): Promise<void> {
  const entry = await serverEntry();
  const channel = new ChildChannel<ToMemoryServer, FromMemoryServer>(entry.module, {
    execArgv: entry.execArgv,
  });
  const gen = new LoadGenerator();
  try {
    const listening = await channel.next();
    if (listening.type !== 'listening') throw new Error('the memory server did not start');
    const sample = async (gc: boolean): Promise<MemorySample> => {
      const m = await channel.ask({ type: 'sample', gc });
      if (m.type !== 'sample') throw new Error('the memory server did not answer a sample');
      return m.sample;
    };
    const t: Target = {
      name: 'Capstan',
      url: listening.url,
      token: listening.token,
      cpuUs: async () => (await sample(false)).cpuUs,
      close: () => channel.close(),
    };
    await createNamespace(t, namespace);
    const start = await sample(true);
    process.stderr.write(`bench/memory: creating ${fmt(pods)} Pods\n`);
    const made = await createObjects(
      gen,
      t,
      { kind: 'pods', namespace, prefix: 'pod-' },
      { count: pods, inFlight },
    );
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    const created = await sample(true);
    const listed = await lists(t);
    const after = await sample(false);
    console.log(
      `\nCreated ${fmt(pods)} Pods (${(createTemplate('pods', namespace).length / 1000).toFixed(1)} KB as sent) ` +
        `in ${made.seconds.toFixed(1)} s: ${fmt(pods / made.seconds)}/s at ${inFlight} in flight, ` +
        `${fmt(made.serverCpuUs / pods)} µs of server CPU per Pod.`,
    );
    report({ start, created, listed: after }, made.bytes);
    reportLists(listed);
    const summary = {
      bench: 'memory',
      date: new Date().toISOString(),
      pods,
      rssStartMB: Math.round(start.rssMB),
      rssAfterMB: Math.round(created.rssMB),
      jsonBytes: made.bytes,
      targetMB: Math.round((2 * made.bytes) / 2 ** 20 + targetOverheadMB),
      ratio: Number((created.rssMB / ((2 * made.bytes) / 2 ** 20 + targetOverheadMB)).toFixed(3)),
      lists: listed.map(({ path, runs }) => ({
        path,
        headMs: Number(median(runs.map((r) => r.headMs)).toFixed(1)),
        totalMs: Number(median(runs.map((r) => r.totalMs)).toFixed(1)),
        bytes: median(runs.map((r) => r.bytes)),
      })),
    };
    console.log(`\nBENCH_JSON ${JSON.stringify(summary)}`);
  } finally {
    await gen.close();
    await channel.close();
  }
}
