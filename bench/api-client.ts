// The load generator of bench/api, forked so the client's work does not run on the server's event
// loop: `connections` keep-alive connections (bench/raw-http.ts), each sending its next request when
// the last response has ended. Requests are serialized before the clock starts; responses are
// counted, not parsed. Over IPC the parent sends a LoadJob and the child answers with a LoadResult.
import { configMap } from './api-payload.js';
import { RawConnection } from './raw-http.js';

export interface LoadJob {
  readonly url: string;
  readonly token: string;
  /** Request i goes to paths[i % paths.length]. */
  readonly paths: readonly string[];
  /** POST a ConfigMap named `${prefix}${i}` in `namespace` as request i; else GET. */
  readonly create?: { readonly namespace: string; readonly prefix: string };
  /** Stop after this many requests or this long, whichever comes first. */
  readonly requests: number;
  readonly durationMs: number;
  readonly connections: number;
  readonly expectStatus: number;
}

export interface LoadResult {
  readonly completed: number;
  readonly seconds: number;
  readonly bytes: number;
  readonly failures: number;
  readonly firstFailure?: string;
  /** The client's own CPU time (µs) over the run: shows whether the client set the pace. */
  readonly clientCpuUs: number;
}

function requests(job: LoadJob, host: string): Buffer[] {
  const head = (method: string, path: string): string =>
    `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${job.token}\r\nAccept: application/json\r\n`;
  const create = job.create;
  if (create === undefined) return job.paths.map((p) => Buffer.from(`${head('GET', p)}\r\n`));
  return Array.from({ length: job.requests }, (_, i) => {
    const body = JSON.stringify(configMap(`${create.prefix}${i}`, create.namespace));
    const path = job.paths[i % job.paths.length] ?? '/';
    const length = Buffer.byteLength(body);
    return Buffer.from(
      `${head('POST', path)}Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n${body}`,
    );
  });
}

export async function runLoad(job: LoadJob): Promise<LoadResult> {
  const url = new URL(job.url);
  const wire = requests(job, url.host);
  const conns = await Promise.all(
    Array.from({ length: job.connections }, () => RawConnection.open(Number(url.port))),
  );
  let next = 0;
  let completed = 0;
  let bytes = 0;
  let failures = 0;
  let firstFailure: string | undefined;
  const cpu = process.cpuUsage();
  const start = performance.now();
  const deadline = start + job.durationMs;
  const worker = async (conn: RawConnection): Promise<void> => {
    while (next < job.requests && performance.now() < deadline) {
      const i = next++;
      const reply = await conn.send(wire[i % wire.length] ?? Buffer.alloc(0), job.expectStatus);
      bytes += reply.bytes;
      if (reply.text === undefined) completed++;
      else {
        failures++;
        firstFailure ??= `${reply.status} ${reply.text}`;
      }
    }
  };
  try {
    await Promise.all(conns.map(worker));
  } finally {
    for (const c of conns) c.close();
  }
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  const clientCpuUs = used.user + used.system;
  return {
    completed,
    seconds,
    bytes,
    failures,
    clientCpuUs,
    ...(firstFailure === undefined ? {} : { firstFailure }),
  };
}

process.on('message', (job: LoadJob) => {
  runLoad(job).then(
    (result) => process.send?.(result),
    (err: unknown) =>
      process.send?.({
        completed: 0,
        seconds: 0,
        bytes: 0,
        failures: 1,
        clientCpuUs: 0,
        firstFailure: String(err),
      }),
  );
});
