// bench/ab: is a change to the request path faster? AB_BASE=<another checkout> (a `git worktree` of
// the commit before, say, with node_modules linked) and this checkout each serve from a process of
// their own, and AB_CELL (kind/operation/connections, default pods/create/16) runs in slices of
// 3,000 requests alternating between them, AB_ROUNDS times (default 10) after two rounds of warm-up.
// This machine's speed drifts by a fifth over tens of seconds; slices a few seconds apart, in turn
// first, see the same machine, where profiles of one build after another do not. It prints each
// side's CPU per request (the process's and its main thread's) per slice, their medians, and each
// round's ratio of this checkout's to the base's, with their median and their geometric mean's 95 %
// interval: run against itself (AB_BASE=.), single runs of 10 rounds read 0.95–1.09, so a change
// is measured by an interval that leaves out 1, not by one median. AB_THIS_FLAGS gives this
// checkout's side flags of its own (with AB_BASE=., it compares the flags alone).
import { operations, type Operation } from './api-client.js';
import { applyTemplate, createTemplate, kindSpecs, kinds, type Kind } from './api-objects.js';
import type { FromAbChild, ToAbChild } from './ab-child.js';
import { createNamespace, createObjects, installWidgetCrd, type Target } from './api-setup.js';
import { ChildChannel } from './child-channel.js';
import { median } from './support.js';
import { LoadGenerator } from './load-generator.js';

const sliceRequests = 3000;
const seeded = 500;
const warmUpRounds = 2;

interface Side {
  readonly name: string;
  readonly target: Target;
  /** The main thread's CPU time at each ask (a slice asks just before it starts and after it ends). */
  readonly mainAt: number[];
  readonly total: number[];
  readonly main: number[];
}

async function startSide(name: string, checkout: string, execArgv: readonly string[]): Promise<Side> {
  const channel = new ChildChannel<ToAbChild, FromAbChild>(new URL('./ab-child.ts', import.meta.url), {
    args: [checkout],
    execArgv,
  });
  const listening = await channel.next();
  if (listening.type !== 'listening') throw new Error(`${name} said ${listening.type}`);
  const side: Side = {
    name,
    mainAt: [],
    total: [],
    main: [],
    target: {
      name: 'Capstan',
      url: listening.url,
      token: listening.token,
      cpuUs: async () => {
        const msg = await channel.ask({ type: 'cpu' });
        if (msg.type !== 'cpu') throw new Error(`${name} said ${msg.type}`);
        side.mainAt.push(msg.mainUs);
        return msg.us;
      },
      close: () => channel.close(),
    },
  };
  return side;
}

function cellOf(spec: string): { kind: Kind; operation: Operation; connections: number } {
  const [kind = '', operation = '', connections = '16'] = spec.split('/');
  if (!(kinds as readonly string[]).includes(kind)) throw new Error(`AB_CELL: unknown kind ${kind}`);
  if (!(operations as readonly string[]).includes(operation))
    throw new Error(`AB_CELL: unknown operation ${operation}`);
  return { kind: kind as Kind, operation: operation as Operation, connections: Number(connections) };
}

// Student's t for a two-sided 95 % interval, by degrees of freedom (1–30; beyond, the normal's 1.96).
const t95 = [
  12.71, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/**
 * The geometric mean of ratios and its 95 % interval (a t interval of their logarithms): a ratio
 * whose interval holds 1 is not told apart from no change by these rounds.
 */
export function ratioInterval(ratios: readonly number[]): { mean: number; low: number; high: number } {
  const logs = ratios.map(Math.log);
  const n = logs.length;
  const m = logs.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean: Math.exp(m), low: NaN, high: NaN };
  const sd = Math.sqrt(logs.reduce((a, x) => a + (x - m) ** 2, 0) / (n - 1));
  const half = (t95[n - 2] ?? 1.96) * (sd / Math.sqrt(n));
  return { mean: Math.exp(m), low: Math.exp(m - half), high: Math.exp(m + half) };
}

export async function run(): Promise<void> {
  const base = process.env['AB_BASE'];
  if (base === undefined || base === '') {
    console.log('bench/ab: set AB_BASE to the checkout to compare this one with; nothing run');
    return;
  }
  const cell = cellOf(process.env['AB_CELL'] ?? 'pods/create/16');
  const rounds = Number(process.env['AB_ROUNDS'] ?? 10);
  // The children run under this process's flags (bin/node-flags', as bench/run.ts set them).
  const execArgv = [...process.execArgv];
  // AB_THIS_FLAGS: V8 or Node flags for this checkout's side only (AB_BASE=. compares the flags).
  const thisFlags = (process.env['AB_THIS_FLAGS'] ?? '').split(' ').filter((f) => f !== '');
  const sides = [
    await startSide('base', base, execArgv),
    await startSide('this', '.', [...execArgv, ...thisFlags]),
  ];
  const gen = new LoadGenerator();
  try {
    const creates = cell.operation === 'create';
    const ns = creates ? 'bench-create' : 'bench';
    for (const { target } of sides) {
      await createNamespace(target, ns);
      if (cell.kind === 'widgets') await installWidgetCrd(target, ns);
      if (!creates)
        await createObjects(
          gen,
          target,
          { kind: cell.kind, namespace: ns, prefix: 'obj-' },
          {
            count: seeded,
            inFlight: 16,
          },
        );
    }
    console.log(
      `bench/ab: ${cell.kind} ${cell.operation} at ${cell.connections} connections, ${base} against .`,
    );
    for (let r = 0; r < rounds + warmUpRounds; r++) {
      for (const side of r % 2 === 0 ? sides : [...sides].reverse()) {
        const m = await gen.run(
          {
            cell: '',
            url: side.target.url,
            token: side.target.token,
            operation: cell.operation,
            collection: kindSpecs[cell.kind].collection(ns),
            objects: creates ? { prefix: `r${r}-`, count: 0 } : { prefix: 'obj-', count: seeded },
            template:
              cell.operation === 'apply' ? applyTemplate(cell.kind, ns) : createTemplate(cell.kind, ns),
            connections: cell.connections,
            requests: sliceRequests,
            durationMs: 60_000,
          },
          side.target,
        );
        if (r < warmUpRounds) continue;
        side.total.push(m.serverCpuUs / m.completed);
        side.main.push(((side.mainAt.at(-1) ?? 0) - (side.mainAt.at(-2) ?? 0)) / m.completed);
      }
    }
    for (const s of sides)
      console.log(
        `${s.name.padEnd(4)}: CPU µs per request ${s.total.map((x) => x.toFixed(0)).join(' ')} ` +
          `(median ${median(s.total).toFixed(0)}); main thread ${s.main.map((x) => x.toFixed(0)).join(' ')} ` +
          `(median ${median(s.main).toFixed(0)})`,
      );
    // A round's two slices saw the same machine: their ratio is what the change did.
    const [a, b] = sides;
    if (a !== undefined && b !== undefined) {
      const ratios = (x: readonly number[], y: readonly number[]): number[] =>
        y.map((v, i) => v / (x[i] ?? v));
      const line = (name: string, rs: readonly number[]): string => {
        const { mean, low, high } = ratioInterval(rs);
        return (
          `${name}: ${rs.map((r) => r.toFixed(3)).join(' ')}; median ${median(rs).toFixed(3)}, ` +
          `geometric mean ${mean.toFixed(3)} (95 % interval ${low.toFixed(3)}–${high.toFixed(3)})`
        );
      };
      console.log(`this / base, each round's ratio (the two slices of a round saw the same machine)`);
      console.log(line('CPU per request', ratios(a.total, b.total)));
      console.log(line('main thread', ratios(a.main, b.main)));
    }
  } finally {
    await gen.close();
    for (const s of sides) await s.target.close();
  }
}
