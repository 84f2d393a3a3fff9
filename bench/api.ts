// bench/api: Pods (through the default admission chain), ConfigMaps and a custom resource through
// Capstan's whole HTTP stack (token authentication, routing, decoding, admission, validation, field
// management, the registry, the watch cache, SQLite with synchronous=FULL) next to a bare node:http
// server doing the same JSON work (bench/bare-api-server.ts): create, get, update, merge patch,
// server-side apply and a list of 500, at 1, 16 and 64 connections. Both servers run in this process
// and take turns in short slices, rounds apart, so a machine whose load drifts shifts them alike. The
// load comes from a forked generator (bench/api-client.ts) that times every request; the server's
// CPU per request is this process's CPU over a slice, which depends little on what else runs.
// Then durable creates against a bare SQLite insert loop (bench/api-durable.ts).
import { loadavg } from 'node:os';
import { operations, type Cell, type LoadJob, type Operation } from './api-client.js';
import { applyTemplate, createTemplate, kindSpecs, kinds } from './api-objects.js';
import { durableCell, durableCreates, printDurable } from './api-durable.js';
import {
  add,
  emptyTally,
  figures,
  printApiTables,
  summaryCells,
  type CellResult,
  type Tally,
} from './api-report.js';
import {
  bareTarget,
  capstanTarget,
  createNamespace,
  createObjects,
  dropBareNamespace,
  installWidgetCrd,
  type Target,
} from './api-setup.js';
import { LoadGenerator, type Measured } from './load-generator.js';
import { neighbourWanted, startNeighbour, type Neighbour } from './neighbour.js';
import { SliceTrace } from './slice-trace.js';

const connectionCounts = [1, 16, 64] as const;
const rounds = 2;
/** Objects per kind in the seeded namespace, behind get, update, patch, apply and list. */
const seeded = 500;
const sliceMs: Readonly<Record<Operation, number>> = {
  create: 700,
  get: 700,
  update: 700,
  patch: 700,
  apply: 700,
  list: 1500,
};
// Before the timed rounds each kind and operation runs at 16 connections for warmUpRequests (or at
// most warmUpMaxMs). V8 optimizes a function once it has run enough bytecode, and most of Capstan's
// run once or twice per request, so its request path needs thousands of requests to reach its
// steady state: Pod creates cost ~1.8 ms of CPU each over the first thousand, ~0.95 ms over the
// second, and settle near 0.6 ms after about four thousand. A server in service runs there; a short
// warm-up measured the compiler's warm-up instead (the bare server, small, is steady at once).
const warmUpRequests = 5000;
const warmUpMaxMs = 8000;
const seededNs = 'bench';
const createNs = 'bench-create';

/** BENCH_KINDS=pods (or a comma-separated list) measures only those kinds, for quicker comparisons. */
const measuredKinds = kinds.filter((k) => (process.env['BENCH_KINDS'] ?? k).split(',').includes(k));
/** BENCH_OPS=get,create likewise measures only those operations. */
const measuredOps = operations.filter((o) => (process.env['BENCH_OPS'] ?? o).split(',').includes(o));

const cells: readonly Cell[] = measuredKinds.flatMap((kind) =>
  measuredOps.flatMap((operation) =>
    connectionCounts.map((connections) => ({ kind, operation, connections })),
  ),
);

const cellKey = (t: Target, c: Cell): string => `${t.name}/${c.kind}/${c.operation}/${c.connections}`;

function job(t: Target, c: Cell, round: string): LoadJob {
  const ns = c.operation === 'create' ? createNs : seededNs;
  return {
    cell: round === 'warm' ? '' : cellKey(t, c),
    url: t.url,
    token: t.token,
    operation: c.operation,
    collection: kindSpecs[c.kind].collection(ns),
    objects:
      c.operation === 'create'
        ? { prefix: `${round}-${c.connections}-`, count: 0 }
        : { prefix: 'obj-', count: seeded },
    template: c.operation === 'apply' ? applyTemplate(c.kind, ns) : createTemplate(c.kind, ns),
    connections: c.connections,
    requests: round === 'warm' ? warmUpRequests : Number.MAX_SAFE_INTEGER,
    durationMs: round === 'warm' ? warmUpMaxMs : sliceMs[c.operation],
  };
}

async function setUp(gen: LoadGenerator, t: Target): Promise<void> {
  for (const ns of [seededNs, createNs]) await createNamespace(t, ns);
  await installWidgetCrd(t, seededNs);
  for (const kind of kinds) {
    await createObjects(
      gen,
      t,
      { kind, namespace: seededNs, prefix: 'obj-' },
      { count: seeded, inFlight: 16 },
    );
  }
}

/** One slice of one cell on one server; the bare server's created objects are dropped after. */
async function slice(gen: LoadGenerator, t: Target, c: Cell, round: string): Promise<Measured> {
  const m = await gen.run(job(t, c, round), t);
  if (c.operation === 'create') await dropBareNamespace(t, createNs);
  return m;
}

/** BENCH_TRACE=1 prints what else ran during each Capstan slice (bench/slice-trace.ts). */
function traced(trace: SliceTrace | undefined, t: Target, c: Cell, at: { round: string; m: Measured }): void {
  const events = trace?.take();
  if (events === undefined || t.name !== 'Capstan') return;
  const cpu = (at.m.serverCpuUs / Math.max(1, at.m.completed)).toFixed(0);
  process.stderr.write(`trace: ${cellKey(t, c)} ${at.round}: ${cpu} µs/req; ${events.join(', ') || '-'}\n`);
}

async function measure(gen: LoadGenerator, targets: readonly Target[]): Promise<Map<string, Tally>> {
  const tallies = new Map<string, Tally>();
  const trace = process.env['BENCH_TRACE'] === '1' ? new SliceTrace() : undefined;
  for (const t of targets) {
    process.stderr.write(`bench/api: warming ${t.name} up\n`);
    for (const c of cells) if (c.connections === 16) await slice(gen, t, c, 'warm');
  }
  for (let r = 0; r < rounds; r++) {
    process.stderr.write(`bench/api: round ${r + 1} of ${rounds}\n`);
    // Alternate which server goes first, so neither always follows the other's garbage.
    const order = r % 2 === 0 ? targets : [...targets].reverse();
    for (const c of cells) {
      for (const t of order) {
        const key = cellKey(t, c);
        const tally = tallies.get(key) ?? emptyTally();
        trace?.take();
        const m = await slice(gen, t, c, `r${r}`);
        traced(trace, t, c, { round: `r${r + 1}`, m });
        add(tally, m);
        tallies.set(key, tally);
      }
    }
  }
  trace?.close();
  return tallies;
}

function failureLine(results: readonly CellResult[], durableFailures: number): string {
  const failed = results.reduce((n, r) => n + r.capstan.failures, 0) + durableFailures;
  const bareFailed = results.reduce((n, r) => n + r.bare.failures, 0);
  const requests = results.reduce((n, r) => n + r.capstan.requests, 0);
  if (failed === 0 && bareFailed === 0)
    return `Every timed request answered with the expected status (${requests.toLocaleString('en-US')} to Capstan).`;
  process.exitCode = 1;
  return `FAILURES: ${failed} Capstan and ${bareFailed} bare requests did not answer the expected status (see above).`;
}

export async function run(): Promise<void> {
  const gen = new LoadGenerator();
  const loadAtStart = loadavg()[0] ?? 0;
  const targets: Target[] = [];
  let neighbour: Neighbour | undefined;
  try {
    targets.push(await bareTarget(), await capstanTarget());
    if (neighbourWanted()) {
      neighbour = await startNeighbour();
      process.stderr.write(
        `bench/api: a neighbour process (${neighbour.pid}) spins on the cores throughout\n`,
      );
    }
    const [bare, capstan] = targets as [Target, Target];
    for (const t of targets) await setUp(gen, t);
    const tallies = await measure(gen, targets);
    process.stderr.write('bench/api: durable creates\n');
    const durable = await durableCreates(gen, capstan);
    const pct = await gen.percentiles();
    const loadAtEnd = loadavg()[0] ?? 0;
    const results: CellResult[] = cells.map((c) => ({
      ...c,
      capstan: figures(tallies.get(cellKey(capstan, c)) ?? emptyTally(), pct[cellKey(capstan, c)]),
      bare: figures(tallies.get(cellKey(bare, c)) ?? emptyTally(), pct[cellKey(bare, c)]),
    }));
    console.log(
      `\nLoad average ${loadAtStart.toFixed(2)} at start, ${loadAtEnd.toFixed(2)} at end ` +
        `(${rounds} rounds; Capstan on SQLite, synchronous=FULL; ${seeded} objects per kind behind get/update/patch/apply/list` +
        `${neighbour === undefined ? '' : '; a neighbour process spinning on the cores throughout (BENCH_NEIGHBOUR=1)'}).`,
    );
    printApiTables(results);
    printDurable(durable, pct[durableCell]);
    console.log(`\n${failureLine(results, durable.capstan.failures)}`);
    const summary = {
      bench: 'api',
      date: new Date().toISOString(),
      node: process.version,
      loadavg: [Number(loadAtStart.toFixed(2)), Number(loadAtEnd.toFixed(2))],
      neighbour: neighbour !== undefined,
      cells: summaryCells(results),
      durable: {
        capstanPerSecond: Math.round(durable.capstan.perSecond),
        barePerSecond: Math.round(durable.bare.perSecond),
        ratio: Number((durable.capstan.perSecond / durable.bare.perSecond).toFixed(3)),
      },
    };
    console.log(`\nBENCH_JSON ${JSON.stringify(summary)}`);
  } finally {
    await neighbour?.stop();
    await gen.close();
    for (const t of targets) await t.close();
  }
}
