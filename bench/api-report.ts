// bench/api's tallies and what it prints from them: one table per kind (every operation at every
// connection count, Capstan beside the bare server) and the figures of the one-line JSON summary.
import type { Operation, Percentiles } from './api-client.js';
import { kindSpecs, type Kind } from './api-objects.js';
import type { Measured } from './load-generator.js';
import { fmt, fmtMs, printGrid } from './support.js';

/** Sums over the rounds of one cell for one server. */
export interface Tally {
  completed: number;
  failures: number;
  seconds: number;
  bytes: number;
  serverCpuUs: number;
  clientCpuUs: number;
}

export const emptyTally = (): Tally => ({
  completed: 0,
  failures: 0,
  seconds: 0,
  bytes: 0,
  serverCpuUs: 0,
  clientCpuUs: 0,
});

export function add(t: Tally, m: Measured): void {
  t.completed += m.completed;
  t.failures += m.failures;
  t.seconds += m.seconds;
  t.bytes += m.bytes;
  t.serverCpuUs += m.serverCpuUs;
  t.clientCpuUs += m.clientCpuUs;
}

export interface Figures {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  /** Server CPU per request, µs. */
  readonly cpuUs: number;
  /** The load generator's CPU over the runs, % of one core. */
  readonly genCpu: number;
  readonly kbPerResponse: number;
  readonly requests: number;
  readonly failures: number;
}

export function figures(t: Tally, p: Percentiles | undefined): Figures {
  return {
    rps: t.completed / t.seconds,
    p50: p?.p50 ?? Number.NaN,
    p99: p?.p99 ?? Number.NaN,
    cpuUs: t.serverCpuUs / t.completed,
    genCpu: (100 * t.clientCpuUs) / (t.seconds * 1e6),
    kbPerResponse: t.bytes / t.completed / 1000,
    requests: t.completed,
    failures: t.failures,
  };
}

export interface CellResult {
  readonly kind: Kind;
  readonly operation: Operation;
  readonly connections: number;
  readonly capstan: Figures;
  readonly bare: Figures;
}

const opNames: Readonly<Record<Operation, string>> = {
  create: 'create',
  get: 'get',
  update: 'update (PUT)',
  patch: 'merge patch',
  apply: 'server-side apply',
  list: 'list of 500',
};

const ratio = (a: number, b: number): string => (a / b).toFixed(2);

export function printApiTables(results: readonly CellResult[]): void {
  const header = [
    'operation',
    'conns',
    'Capstan req/s',
    'bare req/s',
    'ratio',
    'Capstan p50 / p99 ms',
    'bare p50 / p99 ms',
    'Capstan CPU µs/req',
    'bare CPU µs/req',
    'CPU ratio',
    'generator CPU % (Capstan / bare)',
  ];
  for (const kind of Object.keys(kindSpecs) as Kind[]) {
    // A kind BENCH_KINDS left out has no results and no table.
    if (!results.some((r) => r.kind === kind)) continue;
    const rows = results
      .filter((r) => r.kind === kind)
      .map(({ operation, connections, capstan: c, bare: b }) => [
        opNames[operation],
        String(connections),
        fmt(c.rps),
        fmt(b.rps),
        ratio(c.rps, b.rps),
        `${fmtMs(c.p50)} / ${fmtMs(c.p99)}`,
        `${fmtMs(b.p50)} / ${fmtMs(b.p99)}`,
        fmt(c.cpuUs),
        fmt(b.cpuUs),
        ratio(c.cpuUs, b.cpuUs),
        `${c.genCpu.toFixed(0)} / ${b.genCpu.toFixed(0)}`,
      ]);
    printGrid(`API over HTTP: ${kindSpecs[kind].title}`, header, rows);
    const size = (op: Operation): string => {
      const r = results.find((x) => x.kind === kind && x.operation === op);
      return r === undefined
        ? '?'
        : `${r.capstan.kbPerResponse.toFixed(1)} / ${r.bare.kbPerResponse.toFixed(1)} KB`;
    };
    console.log(`\nResponse sizes (Capstan / bare): get ${size('get')}, list ${size('list')}.`);
  }
}

/** The per-cell figures for the JSON summary, rounded to what the tables show. */
export function summaryCells(results: readonly CellResult[]): unknown[] {
  const short = (f: Figures): Record<string, number> => ({
    rps: Math.round(f.rps),
    p50: Number(f.p50.toFixed(3)),
    p99: Number(f.p99.toFixed(3)),
    cpuUs: Math.round(f.cpuUs),
    n: f.requests,
    failed: f.failures,
  });
  return results.map((r) => ({
    kind: r.kind,
    op: r.operation,
    conns: r.connections,
    capstan: short(r.capstan),
    bare: short(r.bare),
    rpsRatio: Number((r.capstan.rps / r.bare.rps).toFixed(3)),
    cpuRatio: Number((r.capstan.cpuUs / r.bare.cpuUs).toFixed(3)),
  }));
}
