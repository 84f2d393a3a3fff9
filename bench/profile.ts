// bench/profile: where one operation's CPU goes in its steady state. `npm run bench -- profile` with
// PROFILE=kind/operation/connections (default pods/create/16) and PROFILE_PHASES (default 6) starts
// Capstan in this process as bench/api does, then runs phases of 3,000 requests of that one cell,
// printing per phase the server's CPU per request and each of its threads' CPU (from /proc: the
// main thread, the SQLite writer, V8's compiler and GC helpers). V8 needs thousands of requests to
// optimize a request path, so the first phases are warm-up; the last phase runs under the inspector's
// CPU profiler and its top self-time functions are printed, the profile written to PROFILE_OUT
// (with PROFILE_HEAP=1 or old, under the sampling heap profiler: the top allocation sites instead).
// PROFILE_BEFORE=apply,patch first runs those operations over the seeded objects (3,000 requests
// each, untimed), so that an update is profiled on objects other managers own too, as in bench/api's
// second round: each manager's entry makes every write's object bigger.
// PROFILE_ALSO=configmaps,widgets runs the same operation on those kinds too (1,000 requests each,
// untimed) before every phase, as bench/api's slices interleave kinds: code that sees several
// kinds' objects is profiled as a server serving several kinds runs it.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { operations, type Cell, type LoadJob, type Operation } from './api-client.js';
import { applyTemplate, createTemplate, kindSpecs, kinds, type Kind } from './api-objects.js';
import { capstanTarget, createNamespace, createObjects, installWidgetCrd, type Target } from './api-setup.js';
import { LoadGenerator } from './load-generator.js';

const phaseRequests = 3000;
const seeded = 500;

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/**
 * Each thread's CPU time (µs), by its name and id: Node names its threads `node`, so the id tells
 * them apart (the SQLite writer from V8's helpers). The main thread is named `main`.
 */
function threadCpuUs(): Map<string, number> {
  const tick = 1e6 / 100; // USER_HZ
  const out = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const name =
        tid === String(process.pid) ? 'main' : `${stat.slice(stat.indexOf('(') + 1, close)}/${tid}`;
      const fields = stat.slice(close + 2).split(' ');
      const us = (Number(fields[11]) + Number(fields[12])) * tick;
      out.set(name, us);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

function parseCell(spec: string): Cell {
  const [kind = 'pods', operation = 'create', connections = '16'] = spec.split('/');
  if (!(kinds as readonly string[]).includes(kind)) throw new Error(`unknown kind ${kind}`);
  if (!(operations as readonly string[]).includes(operation))
    throw new Error(`unknown operation ${operation}`);
  return { kind: kind as Kind, operation: operation as Operation, connections: Number(connections) };
}

/**
 * The nodes under a call into node:inspector: the profiler's own work, such as Profiler.stop
 * building the profile on the main thread (~40 µs a request of a 3,000-request phase), not the server's.
 */
function profilerOwn(profile: CpuProfile): Set<number> {
  const own = new Set<number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const mark = (id: number): void => {
    own.add(id);
    for (const c of byId.get(id)?.children ?? []) mark(c);
  };
  for (const n of profile.nodes) if (n.callFrame.url === 'node:inspector' && !own.has(n.id)) mark(n.id);
  return own;
}

function printTopSelf(profile: CpuProfile, requests: number, top = 40): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const own = profilerOwn(profile);
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i] ?? 0;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const byFunction = new Map<string, number>();
  let busy = 0;
  for (const [id, us] of self) {
    const f = byId.get(id)?.callFrame;
    if (f === undefined || f.functionName === '(idle)' || own.has(id)) continue;
    busy += us;
    const file = f.url.replace(/^.*\/(src|bench|node_modules)\//, '$1/');
    const key = `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  }
  console.log(`\nmain thread busy ${(busy / requests).toFixed(0)} µs per request (sampled); top self time:`);
  const rows = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [key, us] of rows)
    console.log(
      `${((100 * us) / busy).toFixed(1).padStart(5)} % ${(us / requests).toFixed(1).padStart(7)} µs  ${key}`,
    );
}

interface HeapNode {
  readonly callFrame: ProfileNode['callFrame'];
  readonly selfSize: number;
  readonly children: readonly HeapNode[];
}
interface HeapProfile {
  readonly head: HeapNode;
}

function printTopAllocations(profile: HeapProfile, requests: number, top = 40): void {
  const bySite = new Map<string, number>();
  let total = 0;
  const visit = (n: HeapNode): void => {
    const f = n.callFrame;
    // With the line: most of a request's closures are anonymous.
    const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(src|bench|node_modules)\//, '$1/')}:${f.lineNumber + 1}`;
    bySite.set(key, (bySite.get(key) ?? 0) + n.selfSize);
    total += n.selfSize;
    for (const c of n.children) visit(c);
  };
  visit(profile.head);
  console.log(`\nallocated ~${(total / requests / 1024).toFixed(1)} KB per request (sampled); top sites:`);
  const rows = [...bySite].sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [key, bytes] of rows)
    console.log(
      `${((100 * bytes) / total).toFixed(1).padStart(5)} % ${(bytes / requests / 1024).toFixed(2).padStart(7)} KB  ${key}`,
    );
}

/** One phase's job: 3,000 requests of the cell (creates named from `prefix`, others on the seeded objects). */
function phaseJob(cell: Cell, server: Target, ns: string, prefix: string): LoadJob {
  const { kind, operation } = cell;
  return {
    cell: '',
    url: server.url,
    token: server.token,
    operation,
    collection: kindSpecs[kind].collection(ns),
    objects: operation === 'create' ? { prefix, count: 0 } : { prefix, count: seeded },
    template: operation === 'apply' ? applyTemplate(kind, ns) : createTemplate(kind, ns),
    connections: cell.connections,
    requests: phaseRequests,
    durationMs: 60_000,
  };
}

/** PROFILE_ALSO's kinds, other than the profiled one. */
function alsoKinds(profiled: Kind): Kind[] {
  const named = (process.env['PROFILE_ALSO'] ?? '').split(',').filter((k) => k !== '');
  for (const k of named)
    if (!(kinds as readonly string[]).includes(k)) throw new Error(`PROFILE_ALSO: unknown kind ${k}`);
  return (named as Kind[]).filter((k) => k !== profiled);
}

/** PROFILE_BEFORE's operations, which run on the seeded objects: none for a create. */
function beforeOperations(profiled: Operation): Operation[] {
  const named = (process.env['PROFILE_BEFORE'] ?? '').split(',').filter((o) => o !== '');
  for (const o of named) {
    if (!(operations as readonly string[]).includes(o) || o === 'create')
      throw new Error(`PROFILE_BEFORE: ${o} is not an operation on existing objects`);
  }
  if (named.length > 0 && profiled === 'create')
    throw new Error('PROFILE_BEFORE needs a cell on existing objects');
  return named as Operation[];
}

export async function run(): Promise<void> {
  const cell = parseCell(process.env['PROFILE'] ?? 'pods/create/16');
  const phases = Number(process.env['PROFILE_PHASES'] ?? 6);
  const earlier = beforeOperations(cell.operation);
  const also = alsoKinds(cell.kind);
  // PROFILE_HEAP=1: every allocation; =old: those that lived through the young generation (still
  // alive, or collected by a full GC), which is what full GCs work on.
  const heapMode = process.env['PROFILE_HEAP'];
  const heap = heapMode === '1' || heapMode === 'old';
  const out = process.env['PROFILE_OUT'] ?? `/tmp/capstan-bench.${heap ? 'heapprofile' : 'cpuprofile'}`;
  const gen = new LoadGenerator();
  const server = await capstanTarget();
  try {
    for (const ns of ['bench', 'bench-create']) await createNamespace(server, ns);
    if (cell.kind === 'widgets' || also.includes('widgets')) await installWidgetCrd(server, 'bench');
    if (cell.operation !== 'create') {
      for (const kind of [cell.kind, ...also]) {
        const where = { kind, namespace: 'bench', prefix: 'obj-' };
        await createObjects(gen, server, where, { count: seeded, inFlight: 16 });
      }
    }
    for (const operation of earlier) {
      await gen.run(phaseJob({ ...cell, operation }, server, 'bench', 'obj-'), server);
    }
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    console.log(`bench/profile: ${cell.kind} ${cell.operation} at ${cell.connections} connections`);
    for (let p = 0; p < phases; p++) {
      const last = p === phases - 1;
      const ns = cell.operation === 'create' ? 'bench-create' : 'bench';
      const job = phaseJob(cell, server, ns, cell.operation === 'create' ? `p${p}-` : 'obj-');
      for (const kind of also) {
        const other = phaseJob(
          { ...cell, kind },
          server,
          ns,
          cell.operation === 'create' ? `a${p}-` : 'obj-',
        );
        await gen.run({ ...other, requests: 1000 }, server);
      }
      const before = threadCpuUs();
      if (last && heap)
        await session.post('HeapProfiler.startSampling', {
          samplingInterval: 4096,
          includeObjectsCollectedByMajorGC: true,
          includeObjectsCollectedByMinorGC: heapMode !== 'old',
        });
      else if (last) await session.post('Profiler.start');
      const m = await gen.run(job, server);
      let profile: CpuProfile | undefined;
      if (last && heap) {
        const { profile: sampled } = await session.post('HeapProfiler.stopSampling');
        writeFileSync(out, JSON.stringify(sampled));
        printTopAllocations(sampled, m.completed);
      } else if (last) profile = (await session.post('Profiler.stop')).profile as unknown as CpuProfile;
      const after = threadCpuUs();
      const threads = [...after]
        .map(([name, us]) => [name, (us - (before.get(name) ?? 0)) / m.completed] as const)
        .filter(([, us]) => us >= 1)
        .map(([name, us]) => `${name} ${us.toFixed(0)}`)
        .join(', ');
      console.log(
        `phase ${p + 1}${last ? ' (profiled)' : ''}: ${(m.completed / m.seconds).toFixed(0)} req/s, ` +
          `${(m.serverCpuUs / m.completed).toFixed(0)} µs CPU per request; threads µs/request: ${threads}`,
      );
      if (profile !== undefined) {
        writeFileSync(out, JSON.stringify(profile));
        printTopSelf(profile, m.completed);
        console.log(`profile written to ${out}`);
      }
    }
    session.disconnect();
  } finally {
    await gen.close();
    await server.close();
  }
}
