// bench/watch: watch fan-out through real chunked HTTP responses on loopback, Capstan's cacher
// against a bare node:http server that writes one serialized event to the same responses, in the
// same run; and a 10,000-object list from the cache against the same list from storage.
// Clients run in a forked process (bench/watch-client.ts) so their parsing is not on the server's
// event loop; CPU per delivered event is this process's CPU (the server, and for Capstan the writes
// through KvStore and SQLite too) over the events the clients received.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KubeObject } from '../src/api/meta.js';
import { jsonFrame } from '../src/endpoints/handlers/watch.js';
import { defaultTiming } from '../src/storage/cacher/options.js';
import { podCacher, type PodCacher } from '../src/storage/cacher/testing/pods.js';
import { testPredicate } from '../src/storage/testing/predicate.js';
import type { TestObject } from '../src/storage/testing/test-object.js';
import { fmt, median, podLike } from './support.js';

interface Scenario {
  readonly name: string;
  readonly watchers: number;
  readonly writesPerSecond: number;
  /** Each watcher selects one node's pods (spec.nodeName); else every watcher gets every event. */
  readonly perNode: boolean;
}

interface Measured {
  readonly delivered: number;
  readonly expected: number;
  readonly p50: number;
  readonly p99: number;
  readonly cpuUsPerEvent: number;
}

const warmupMs = 1000;
const measureMs = 4000;
const now = (): number => performance.timeOrigin + performance.now();

/** The pods written: one per node when watchers select nodes, else 100. */
function podCount(s: Scenario): number {
  return s.perNode ? s.watchers : 100;
}

function watchPaths(s: Scenario): string[] {
  return Array.from({ length: s.watchers }, (_, i) => (s.perNode ? `/watch?node=node-${i}` : '/watch'));
}

function benchPod(i: number): TestObject {
  const obj = podLike(`pod-${i}`) as unknown as TestObject;
  obj.spec = { ...obj.spec, nodeName: `node-${i}` };
  return obj;
}

/** Calls `write(i)` `rate` times a second for `ms`; resolves when every write has settled. */
async function pace(rate: number, ms: number, write: (i: number) => Promise<void> | void): Promise<number> {
  const start = now();
  const pending = new Set<Promise<void>>();
  let issued = 0;
  while (now() - start < ms) {
    const due = Math.floor(((now() - start) / 1000) * rate);
    for (; issued < due; issued++) {
      const p = Promise.resolve(write(issued)).finally(() => pending.delete(p));
      pending.add(p);
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  await Promise.all(pending);
  return issued;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Starts the client process, opens every watch, runs warm-up and measurement, returns figures. */
async function drive(
  url: string,
  s: Scenario,
  write: (i: number) => Promise<void> | void,
): Promise<Measured> {
  const client: ChildProcess = fork(new URL('./watch-client.ts', import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
  });
  try {
    client.send({ url, paths: watchPaths(s) });
    await once(client, 'message');
    let i = 0;
    await pace(s.writesPerSecond, warmupMs, () => write(i++));
    client.send('measure');
    const cpu = process.cpuUsage();
    const issued = await pace(s.writesPerSecond, measureMs, () => write(i++));
    const used = process.cpuUsage(cpu);
    await new Promise((resolve) => setTimeout(resolve, 300));
    client.send('stop');
    const [result] = (await once(client, 'message')) as [{ latencies: number[]; delivered: number }];
    const sorted = result.latencies.sort((a, b) => a - b);
    return {
      delivered: result.delivered,
      expected: s.perNode ? issued : issued * s.watchers,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      cpuUsPerEvent: (used.user + used.system) / Math.max(1, result.delivered),
    };
  } finally {
    client.kill();
  }
}

async function listen(server: http.Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Baseline: a bare server that serializes each event once and writes it to its watchers. */
async function bare(s: Scenario): Promise<Measured> {
  const byNode = new Map<string, http.ServerResponse[]>();
  const server = http.createServer((req, res) => {
    const node = new URL(req.url ?? '/', 'http://x').searchParams.get('node') ?? '*';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
    byNode.set(node, [...(byNode.get(node) ?? []), res]);
  });
  const url = await listen(server);
  const pods = Array.from({ length: podCount(s) }, (_, i) => benchPod(i));
  try {
    return await drive(url, s, (i) => {
      const k = i % pods.length;
      const obj = pods[k] as TestObject;
      obj.metadata = {
        ...obj.metadata,
        resourceVersion: String(i + 1),
        annotations: { 'bench/sent': String(now()) },
      };
      const frame = Buffer.from(`${JSON.stringify({ type: 'MODIFIED', object: obj })}\n`);
      for (const res of [...(byNode.get(`node-${k}`) ?? []), ...(byNode.get('*') ?? [])]) res.write(frame);
    });
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** A minimal HTTP watch adapter over the cacher: one chunked response per watch, events as JSON lines. */
function adapter(pods: PodCacher): http.Server {
  return http.createServer((req, res) => {
    const node = new URL(req.url ?? '/', 'http://x').searchParams.get('node');
    const abort = new AbortController();
    req.on('close', () => {
      abort.abort();
    });
    void (async () => {
      const watch = await pods.cacher.watch('/pods', {
        recursive: true,
        resourceVersion: String(pods.cacher.stats().resourceVersion),
        signal: abort.signal,
        ...(node === null ? {} : { predicate: testPredicate({ fields: { 'spec.nodeName': node } }) }),
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.flushHeaders();
      for await (const event of watch) {
        if (!res.write(jsonFrame(event))) await once(res, 'drain');
      }
      res.end();
    })();
  });
}

async function capstan(s: Scenario): Promise<Measured & { terminated: number }> {
  const pods = await podCacher({ timing: defaultTiming });
  const count = podCount(s);
  for (let i = 0; i < count; i++) await pods.cacher.create(`/pods/bench/pod-${i}`, benchPod(i));
  const server = adapter(pods);
  const url = await listen(server);
  try {
    const measured = await drive(url, s, async (i) => {
      const sent = String(now());
      await pods.cacher.guaranteedUpdate(`/pods/bench/pod-${i % count}`, {
        tryUpdate: (cur) => {
          if (cur === null) throw new Error('bench pod vanished');
          return { ...cur, metadata: { ...cur.metadata, annotations: { 'bench/sent': sent } } };
        },
      });
    });
    return { ...measured, terminated: pods.cacher.stats().terminated };
  } finally {
    server.closeAllConnections();
    server.close();
    await pods.close();
  }
}

async function fanout(s: Scenario): Promise<void> {
  const base = await bare(s);
  const ours = await capstan(s);
  console.log(`\n#### ${s.name}\n`);
  console.log('| | Capstan (cacher + KvStore + SQLite) | bare node:http fan-out | ratio |');
  console.log('|---|---:|---:|---:|');
  const row = (what: string, a: number, b: number, unit: string): void => {
    console.log(`| ${what} | ${fmt(a)}${unit} | ${fmt(b)}${unit} | ${(a / b).toFixed(2)} |`);
  };
  row('delivery latency p50', ours.p50, base.p50, ' ms');
  row('delivery latency p99', ours.p99, base.p99, ' ms');
  row('CPU per delivered event', ours.cpuUsPerEvent, base.cpuUsPerEvent, ' µs');
  row('events delivered', ours.delivered, base.delivered, '');
  console.log(
    `\nexpected deliveries: Capstan ${ours.expected}, bare ${base.expected}; watchers ended as slow: ${ours.terminated}`,
  );
}

async function timeIt(runs: number, op: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await op();
    times.push(performance.now() - start);
  }
  return median(times);
}

async function lists(): Promise<void> {
  const pods = await podCacher({ timing: defaultTiming });
  try {
    const writes: Promise<KubeObject>[] = [];
    for (let i = 0; i < 10_000; i++) {
      writes.push(pods.store.create(`/pods/bench/pod-${i}`, benchPod(i)));
      if (writes.length >= 256) await Promise.all(writes.splice(0));
    }
    await Promise.all(writes);
    const rv = String(await pods.store.currentResourceVersion());
    await pods.cacher.get('/pods/bench/pod-0', { resourceVersion: rv });
    const recursive = { recursive: true } as const;
    const fromStorage = await timeIt(5, () => pods.store.getList('/pods', recursive));
    const fromCache = await timeIt(5, () =>
      pods.cacher.getList('/pods', { ...recursive, resourceVersion: '0' }),
    );
    const consistent = await timeIt(5, () => pods.cacher.getList('/pods', recursive));
    console.log('\n#### a 10,000-pod list (median of 5)\n');
    console.log('| list | time | vs storage |');
    console.log('|---|---:|---:|');
    console.log(`| from storage (KvStore over SQLite memory) | ${fmt(fromStorage)} ms | 1.00 |`);
    console.log(
      `| from the cache, resourceVersion "0" | ${fmt(fromCache)} ms | ${(fromCache / fromStorage).toFixed(3)} |`,
    );
    console.log(
      `| from the cache, consistent (resourceVersion "") | ${fmt(consistent)} ms | ${(consistent / fromStorage).toFixed(3)} |`,
    );
  } finally {
    await pods.close();
  }
}

export async function run(): Promise<void> {
  console.log('\n### Watch fan-out and lists from the watch cache');
  await fanout({
    name: '(a) 100 watchers, all matching, 100 writes/s',
    watchers: 100,
    writesPerSecond: 100,
    perNode: false,
  });
  await fanout({
    name: '(b) 1,000 watchers, each on one node (spec.nodeName), 1,000 writes/s',
    watchers: 1000,
    writesPerSecond: 1000,
    perNode: true,
  });
  await lists();
}
