// bench/api: ConfigMap creates, gets and lists through Capstan's whole HTTP stack (authentication,
// routing, decoding, admission, validation, field management, the registry, the watch cache and the
// storage), started in this process over plain HTTP on memory and on SQLite storage, next to a bare
// node:http server answering the same requests with the same JSON (bench/api-payload.ts).
// The load comes from a forked client (bench/api-client.ts) over keep-alive connections. The three
// servers run side by side and take turns in short rounds, so a machine whose load drifts (a shared
// one) shifts them alike; and each is also measured in CPU time per request (this process's CPU:
// the client runs elsewhere), which depends little on what else the machine runs.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { startCapstan } from '../src/index.js';
import type { LoadJob, LoadResult } from './api-client.js';
import { configMapsPath, startBareServer } from './api-payload.js';
import { fmt, printTable, type Row } from './support.js';

const connections = 32;
const largeListConnections = 2;
const createRounds = 5;
const createsPerRound = 2000;
const rounds = 3;
const sliceMs = 1000;
const largeSliceMs = 2500;

const phases = ['create', 'get', 'list100', 'list10k', 'list10kRV0'] as const;
type Phase = (typeof phases)[number];
const phaseNames: Readonly<Record<Phase, string>> = {
  create: `create (${connections} connections)`,
  get: `get (${connections} connections)`,
  list100: `list of 100 (${connections} connections)`,
  list10k: `list of 10,000 (${largeListConnections} connections)`,
  list10kRV0: `list of 10,000, resourceVersion=0 (${largeListConnections} connections)`,
};

interface Target {
  readonly name: string;
  readonly url: string;
  readonly token: string;
  close(): Promise<void>;
}

/** Sums over rounds: requests answered, wall seconds, server and client CPU µs. */
interface Tally {
  completed: number;
  seconds: number;
  serverCpuUs: number;
  clientCpuUs: number;
  bytes: number;
}

const cpuNow = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

async function load(client: ChildProcess, job: LoadJob, tally?: Tally): Promise<void> {
  const reply = Promise.race([
    once(client, 'message') as Promise<[LoadResult]>,
    once(client, 'exit').then(() => Promise.reject(new Error('the load generator exited'))),
  ]);
  const cpu = cpuNow();
  client.send(job);
  const [r] = await reply;
  const serverCpuUs = cpuNow() - cpu;
  if (r.failures > 0)
    console.error(`  ${job.paths[0] ?? ''}: ${r.failures} failed; first: ${r.firstFailure ?? ''}`);
  if (tally === undefined) return;
  tally.completed += r.completed;
  tally.seconds += r.seconds;
  tally.serverCpuUs += serverCpuUs;
  tally.clientCpuUs += r.clientCpuUs;
  tally.bytes += r.bytes;
}

const job = (t: Target, paths: string[], conns: number, durationMs: number): LoadJob => ({
  url: t.url,
  token: t.token,
  paths,
  requests: Number.MAX_SAFE_INTEGER,
  durationMs,
  connections: conns,
  expectStatus: 200,
});

const createJob = (t: Target, namespace: string, prefix: string, count: number): LoadJob => ({
  ...job(t, [configMapsPath(namespace)], connections, 120_000),
  requests: count,
  expectStatus: 201,
  create: { namespace, prefix },
});

async function createNamespace(t: Target, name: string): Promise<void> {
  const res = await fetch(`${t.url}/api/v1/namespaces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }),
  });
  await res.arrayBuffer();
  if (res.status !== 201) throw new Error(`${t.name}: creating namespace ${name}: ${res.status}`);
}

async function setUp(client: ChildProcess, t: Target): Promise<void> {
  for (const name of ['warm', 'small', 'large']) await createNamespace(t, name);
  await load(client, createJob(t, 'warm', 'cm-', 2000));
  await load(client, createJob(t, 'small', 'cm-', 100));
}

/** The timed request mixes; each is first run once, untimed, to warm up. */
function readJobs(t: Target): Record<Exclude<Phase, 'create'>, LoadJob> {
  const gets = Array.from({ length: 100 }, (_, i) => `${configMapsPath('small')}/cm-${i}`);
  const large = configMapsPath('large');
  return {
    get: job(t, gets, connections, sliceMs),
    list100: job(t, [configMapsPath('small')], connections, sliceMs),
    list10k: job(t, [large], largeListConnections, largeSliceMs),
    list10kRV0: job(t, [`${large}?resourceVersion=0`], largeListConnections, largeSliceMs),
  };
}

type Tallies = Record<Phase, Tally>;
const emptyTallies = (): Tallies => {
  const zero = (): Tally => ({ completed: 0, seconds: 0, serverCpuUs: 0, clientCpuUs: 0, bytes: 0 });
  return { create: zero(), get: zero(), list100: zero(), list10k: zero(), list10kRV0: zero() };
};

async function measure(client: ChildProcess, targets: readonly Target[]): Promise<Tallies[]> {
  const tallies = targets.map(emptyTallies);
  for (let r = 0; r < createRounds; r++) {
    for (const [i, t] of targets.entries()) {
      await load(client, createJob(t, 'large', `cm-${r}-`, createsPerRound), tallies[i]?.create);
    }
  }
  for (const phase of ['get', 'list100', 'list10k', 'list10kRV0'] as const) {
    for (const t of targets) await load(client, { ...readJobs(t)[phase], durationMs: sliceMs / 2 });
    for (let r = 0; r < rounds; r++) {
      for (const [i, t] of targets.entries()) await load(client, readJobs(t)[phase], tallies[i]?.[phase]);
    }
  }
  return tallies;
}

async function capstanTarget(storage: 'memory' | 'sqlite'): Promise<Target> {
  const server = await startCapstan({ storage, scheme: 'http' });
  const token = server.kubeConfig.users[0]?.user.token ?? '';
  return { name: `Capstan (${storage})`, url: server.url, token, close: () => server.stop() };
}

async function bareTarget(): Promise<Target> {
  const token = 'bench-token';
  const server = await startBareServer(token);
  return { name: 'bare', url: server.url, token, close: () => server.close() };
}

const perSecond = (t: Tally): number => t.completed / t.seconds;
const cpuPerRequest = (t: Tally, us: boolean): number => t.serverCpuUs / t.completed / (us ? 1 : 1000);

function report(storages: readonly string[], capstan: readonly Tallies[], bare: Tallies): void {
  const rows = (value: (t: Tally, p: Phase) => number, unit: (p: Phase) => string): Row[] =>
    phases.flatMap((p) =>
      capstan.map((c, i) => ({
        what: `${phaseNames[p]}, ${storages[i] ?? ''}`,
        capstan: value(c[p], p),
        baseline: value(bare[p], p),
        unit: unit(p),
      })),
    );
  const small = (p: Phase): boolean => !p.startsWith('list10k');
  printTable(
    'API over HTTP: ~2 KB ConfigMaps, requests per second',
    'bare node:http',
    rows(perSecond, () => '/s'),
  );
  printTable(
    'API over HTTP: server CPU time per request (lower is better; ratio > 1 means Capstan costs more)',
    'bare node:http',
    rows(
      (t, p) => cpuPerRequest(t, small(p)),
      (p) => (small(p) ? ' µs' : ' ms'),
    ),
  );
  const clientShare = (t: Tally): string => fmt((100 * t.clientCpuUs) / (t.seconds * 1e6));
  const mbPerList = (t: Tally): string => (t.bytes / t.completed / 1e6).toFixed(1);
  console.log(
    `\nThe client's CPU (% of a core) during gets: bare ${clientShare(bare.get)}, ` +
      capstan.map((c, i) => `${storages[i] ?? ''} ${clientShare(c.get)}`).join(', ') +
      `. A list of 10,000 is ${mbPerList(capstan[0]?.list10k ?? bare.list10k)} MB from Capstan, ` +
      `${mbPerList(bare.list10k)} MB from the bare server (no managedFields).`,
  );
}

export async function run(): Promise<void> {
  const client = fork(new URL('./api-client.ts', import.meta.url), { stdio: 'inherit' });
  const loadAtStart = loadavg()[0] ?? 0;
  const targets: Target[] = [];
  try {
    targets.push(await bareTarget(), await capstanTarget('memory'), await capstanTarget('sqlite'));
    for (const t of targets) await setUp(client, t);
    const [bare, memory, sqlite] = await measure(client, targets);
    if (bare === undefined || memory === undefined || sqlite === undefined) throw new Error('no results');
    console.log(
      `\nload average ${loadAtStart.toFixed(2)} at start, ${(loadavg()[0] ?? 0).toFixed(2)} at end (2 cores)`,
    );
    report(['memory', 'SQLite'], [memory, sqlite], bare);
  } finally {
    client.kill();
    for (const t of targets) await t.close();
  }
}
