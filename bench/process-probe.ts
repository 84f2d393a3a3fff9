// Starts a server process and times it to its first 200 on a URL: the clock starts just before
// spawn and stops when a poll (every few milliseconds, fresh connection each time) gets 200. Also
// reads the process's RSS and CPU time from /proc at that moment, then stops its process group
// with SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { createServer, type AddressInfo } from 'node:net';

export interface ProbeResult {
  readonly ms: number;
  /** Resident set size at ready, MB; undefined where the spawned process only wraps the server. */
  readonly rssMB: number | undefined;
  /** User + system CPU time of the spawned process at ready, ms (10 ms resolution). */
  readonly cpuMs: number | undefined;
  /** The watched file changed during the run (bin/capstan rebundled a changed source tree). */
  readonly changed: boolean;
}

export interface ProbeSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** Given the port chosen for this run; the process must listen there. */
  readonly url: (port: number) => string;
  readonly timeoutMs?: number;
  /** A file whose change during the run marks the run as not comparable. */
  readonly watch?: string;
  /** The environment, if not this process's. */
  readonly env?: NodeJS.ProcessEnv;
  /** Sent with each poll (a bearer token: /readyz answers 401 without one when anonymous is off). */
  readonly headers?: Readonly<Record<string, string>>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function poll(url: string, headers: Readonly<Record<string, string>> = {}): Promise<number> {
  const get = url.startsWith('https:') ? https.get : http.get;
  return new Promise((resolve) => {
    const req = get(url, { rejectUnauthorized: false, agent: false, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => {
      resolve(0);
    });
  });
}

function procStats(pid: number): { rssMB: number; cpuMs: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssKB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { rssMB: rssKB / 1024, cpuMs: ticks * 10 };
  } catch {
    return undefined;
  }
}

const groupAlive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

/** SIGTERM to the spawned process group (npm and the server under it), SIGKILL after 10 s. */
async function stop(child: ChildProcess): Promise<void> {
  const pgid = child.pid;
  if (pgid === undefined) return;
  const deadline = performance.now() + 10_000;
  if (groupAlive(pgid)) process.kill(-pgid, 'SIGTERM');
  while (groupAlive(pgid) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
}

export async function probe(spec: ProbeSpec, measureProcess: boolean): Promise<ProbeResult> {
  const port = await freePort();
  const url = spec.url(port);
  const deadline = performance.now() + (spec.timeoutMs ?? 60_000);
  let stderr = '';
  const mtime = (): number =>
    spec.watch === undefined ? 0 : (statSync(spec.watch, { throwIfNoEntry: false })?.mtimeMs ?? 0);
  const before = mtime();
  const start = performance.now();
  const child = spawn(
    spec.command,
    spec.args.map((a) => a.replaceAll('{port}', String(port))),
    {
      cwd: spec.cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
      ...(spec.env === undefined ? {} : { env: spec.env }),
    },
  );
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  try {
    for (;;) {
      if ((await poll(url, spec.headers)) === 200) break;
      if (child.exitCode !== null)
        throw new Error(`${spec.command} exited with ${child.exitCode}:\n${stderr}`);
      if (performance.now() > deadline) throw new Error(`${spec.command} not ready at ${url}:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 3));
    }
    const ms = performance.now() - start;
    const stats = measureProcess && child.pid !== undefined ? procStats(child.pid) : undefined;
    return { ms, rssMB: stats?.rssMB, cpuMs: stats?.cpuMs, changed: mtime() !== before };
  } finally {
    await stop(child);
  }
}
