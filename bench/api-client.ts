// The load generator of bench/api and bench/memory, forked so the client's work does not run on the
// server's event loop: `connections` keep-alive connections (bench/raw-http.ts), each sending its next
// request when the last response has ended. A job runs in two steps so that the server's CPU can be
// read around the timed part alone: `prepare` opens the connections and, for updates, reads the
// objects to write back; `go` runs the load. Every request's latency is recorded and pooled per cell
// across jobs, and `stats` answers exact percentiles over each pool. Responses are counted, not
// parsed; an update keeps the body of its last response to send back changed.
import { nameMarker, seqMarker, updateLabel, type Kind } from './api-objects.js';
import { percentile } from './support.js';
import { RawConnection } from './raw-http.js';

export const operations = ['create', 'get', 'update', 'patch', 'apply', 'list'] as const;
export type Operation = (typeof operations)[number];

/** One cell of the API benches: a kind, an operation on it, and how many connections send it. */
export interface Cell {
  readonly kind: Kind;
  readonly operation: Operation;
  readonly connections: number;
}

export interface LoadJob {
  /** Latencies of jobs with the same cell are pooled; '' records none (set-up, warm-up). */
  readonly cell: string;
  readonly url: string;
  readonly token: string;
  readonly operation: Operation;
  /** The collection's path: objects are `${collection}/${prefix}${i}`. */
  readonly collection: string;
  /** Create makes `${prefix}${i}` for i = 0, 1, …; the others address `${prefix}${i}`, i < count. */
  readonly objects: { readonly prefix: string; readonly count: number };
  /** The body of a create or an apply, with `__NAME__` and `__SEQ__` markers. */
  readonly template: string;
  readonly connections: number;
  /** Stop after this many requests or this long, whichever comes first. */
  readonly requests: number;
  readonly durationMs: number;
}

export interface LoadResult {
  readonly completed: number;
  readonly seconds: number;
  /** Response body bytes of the requests that succeeded. */
  readonly bytes: number;
  readonly failures: number;
  readonly firstFailure?: string;
  /** The client's own CPU time (µs) over the run: shows whether the client set the pace. */
  readonly clientCpuUs: number;
}

export interface Percentiles {
  readonly n: number;
  readonly p50: number;
  readonly p99: number;
}

export type ToClient = { type: 'prepare'; job: LoadJob } | { type: 'go' } | { type: 'stats' };
export type FromClient =
  | { type: 'ready' }
  | { type: 'result'; result: LoadResult }
  | { type: 'stats'; stats: Record<string, Percentiles> }
  | { type: 'error'; message: string };

export const expectedStatus = (op: Operation): number => (op === 'create' ? 201 : 200);

/** Which request a connection sends next, and what it learns from the reply. */
interface Plan {
  readonly keepBody: boolean;
  request(conn: number, seq: number): Buffer;
  replied?(conn: number, body: string): void;
}

const updatePattern = new RegExp(`"${updateLabel}":"\\d*"`);

/**
 * The value the next update, merge patch or apply writes: never the same twice in this process, so
 * no write is a no-op. (A job's request numbers start at 0 again, and a value an earlier job wrote
 * to the same object made about every write of the next a no-op, which costs another read.)
 */
let written = 0;
const nextValue = (): string => String(++written);

class Requests {
  readonly #job: LoadJob;
  readonly #host: string;

  constructor(job: LoadJob) {
    this.#job = job;
    this.#host = new URL(job.url).host;
  }

  build(method: string, path: string, body?: { type: string; text: string }): Buffer {
    const head =
      `${method} ${path} HTTP/1.1\r\nHost: ${this.#host}\r\nUser-Agent: capstan-bench\r\n` +
      `Authorization: Bearer ${this.#job.token}\r\nAccept: application/json\r\n`;
    if (body === undefined) return Buffer.from(`${head}\r\n`);
    const length = Buffer.byteLength(body.text);
    return Buffer.from(`${head}Content-Type: ${body.type}\r\nContent-Length: ${length}\r\n\r\n${body.text}`);
  }

  path(i: number): string {
    return `${this.#job.collection}/${this.#job.objects.prefix}${i}`;
  }
}

/** The objects connection c writes: every connections-th one, so no two writers share an object. */
function owned(job: LoadJob, conn: number): number[] {
  const out: number[] = [];
  for (let i = conn; i < job.objects.count; i += job.connections) out.push(i);
  if (out.length === 0)
    throw new Error(`${job.objects.count} objects cannot spread over ${job.connections} connections`);
  return out;
}

/** Reads the objects each connection will update, on that connection, and keeps their text. */
async function updatePlan(job: LoadJob, conns: readonly RawConnection[]): Promise<Plan> {
  const req = new Requests(job);
  const texts = await Promise.all(
    conns.map(async (conn, c) => {
      const objects: { path: string; text: string }[] = [];
      for (const i of owned(job, c)) {
        const reply = await conn.send(req.build('GET', req.path(i)), 200, true);
        if (reply.body === undefined)
          throw new Error(`GET ${req.path(i)}: ${reply.status} ${reply.text ?? ''}`);
        objects.push({ path: req.path(i), text: reply.body });
      }
      return objects;
    }),
  );
  const cursor = conns.map(() => 0);
  const current = (c: number): { path: string; text: string } => texts[c]![cursor[c]!]!;
  return {
    keepBody: true,
    request(c) {
      const obj = current(c);
      if (!updatePattern.test(obj.text)) throw new Error(`${obj.path} has no ${updateLabel} label to change`);
      const text = obj.text.replace(updatePattern, `"${updateLabel}":"${nextValue()}"`);
      return req.build('PUT', obj.path, { type: 'application/json', text });
    },
    replied(c, body) {
      current(c).text = body;
      cursor[c] = (cursor[c]! + 1) % texts[c]!.length;
    },
  };
}

function simplePlan(job: LoadJob): Plan {
  const req = new Requests(job);
  const fill = (name: string, value: string): string =>
    job.template.replaceAll(nameMarker, name).replaceAll(seqMarker, value);
  const byConn = Array.from({ length: job.connections }, (_, c) =>
    job.operation === 'patch' || job.operation === 'apply' ? owned(job, c) : [],
  );
  const sent = byConn.map(() => 0);
  const ownedPath = (c: number): string => {
    const mine = byConn[c]!;
    return req.path(mine[sent[c]!++ % mine.length]!);
  };
  const gets = Array.from({ length: job.operation === 'get' ? job.objects.count : 0 }, (_, i) =>
    req.build('GET', req.path(i)),
  );
  const list = req.build('GET', job.collection);
  const request = (c: number, seq: number): Buffer => {
    switch (job.operation) {
      case 'create':
        return req.build('POST', job.collection, {
          type: 'application/json',
          text: fill(`${job.objects.prefix}${seq}`, String(seq)),
        });
      case 'get':
        return gets[seq % gets.length]!;
      case 'list':
        return list;
      case 'patch':
        return req.build('PATCH', ownedPath(c), {
          type: 'application/merge-patch+json',
          text: `{"metadata":{"labels":{"bench-patch":"${nextValue()}"}}}`,
        });
      case 'apply': {
        const path = ownedPath(c);
        return req.build('PATCH', `${path}?fieldManager=bench&force=true`, {
          type: 'application/apply-patch+yaml',
          text: fill(path.slice(path.lastIndexOf('/') + 1), nextValue()),
        });
      }
      case 'update':
        throw new Error('an update needs the objects read first');
    }
  };
  return { keepBody: false, request };
}

const samples = new Map<string, number[]>();

interface Prepared {
  readonly job: LoadJob;
  readonly conns: readonly RawConnection[];
  readonly plan: Plan;
}

async function prepare(job: LoadJob): Promise<Prepared> {
  const port = Number(new URL(job.url).port);
  const conns = await Promise.all(Array.from({ length: job.connections }, () => RawConnection.open(port)));
  try {
    // One request on each connection before the timed run, so the server has accepted them all: a
    // server accepts connections between its turns, and 64 accepted under load made the first
    // requests of a run wait for the accepts (stop 44). A name no object has: both servers say 404.
    const warm = new Requests(job).build('GET', `${job.collection}/bench-warm-up`);
    await Promise.all(conns.map((conn) => conn.send(warm, 404)));
    const plan = job.operation === 'update' ? await updatePlan(job, conns) : simplePlan(job);
    return { job, conns, plan };
  } catch (err) {
    for (const c of conns) c.close();
    throw err;
  }
}

async function go({ job, conns, plan }: Prepared): Promise<LoadResult> {
  const expect = expectedStatus(job.operation);
  const latencies = job.cell === '' ? [] : (samples.get(job.cell) ?? []);
  if (job.cell !== '') samples.set(job.cell, latencies);
  let next = 0;
  let completed = 0;
  let bytes = 0;
  let failures = 0;
  let firstFailure: string | undefined;
  const cpu = process.cpuUsage();
  const start = performance.now();
  const deadline = start + job.durationMs;
  const worker = async (conn: RawConnection, c: number): Promise<void> => {
    while (next < job.requests && performance.now() < deadline) {
      const seq = next++;
      const wire = plan.request(c, seq);
      const sent = performance.now();
      const reply = await conn.send(wire, expect, plan.keepBody);
      if (reply.text === undefined) {
        latencies.push(performance.now() - sent);
        completed++;
        bytes += reply.bytes;
        if (reply.body !== undefined) plan.replied?.(c, reply.body);
      } else {
        failures++;
        firstFailure ??= `${reply.status} ${reply.text}`;
      }
    }
  };
  await Promise.all(conns.map(worker));
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  return {
    completed,
    seconds,
    bytes,
    failures,
    clientCpuUs: used.user + used.system,
    ...(firstFailure === undefined ? {} : { firstFailure }),
  };
}

function stats(): Record<string, Percentiles> {
  const out: Record<string, Percentiles> = {};
  for (const [cell, values] of samples) {
    const sorted = Float64Array.from(values).sort();
    out[cell] = { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  }
  return out;
}

const send = (msg: FromClient): void => {
  process.send?.(msg);
};
const fail = (err: unknown): void => {
  send({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
};

process.on('disconnect', () => process.exit(0));

let prepared: Prepared | undefined;
process.on('message', (msg: ToClient) => {
  switch (msg.type) {
    case 'prepare':
      prepare(msg.job).then((p) => {
        prepared = p;
        send({ type: 'ready' });
      }, fail);
      return;
    case 'go': {
      const p = prepared;
      prepared = undefined;
      if (p === undefined) {
        fail(new Error('go without prepare'));
        return;
      }
      // The result goes out before the connections close, so closing costs the server outside the
      // timed part.
      void go(p)
        .then((result) => {
          send({ type: 'result', result });
        }, fail)
        .finally(() => {
          for (const c of p.conns) c.close();
        });
      return;
    }
    case 'stats':
      send({ type: 'stats', stats: stats() });
      return;
  }
});
