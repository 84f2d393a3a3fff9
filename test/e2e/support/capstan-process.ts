// Starts Capstan on a free loopback port (`--secure-port=0`: the server picks it, and the kubeconfig
// it writes says which) with a temporary data dir, waits for /readyz, and stops it with SIGTERM:
// from the sources (the default: `node src/cmd/capstan.js …` in the test runner's compiled copy of
// the tree, else `node --import tsx src/cmd/capstan.ts …`) or as the README's quick start does
// (`npm start -- …`: bin/capstan, the bundle and its code cache).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface CapstanProcess {
  readonly url: string;
  readonly kubeconfigPath: string;
  readonly dataDir: string;
  /** The spawned process: the server itself, or npm above it for 'npm-start' (its process group). */
  readonly pid: number | undefined;
  /** What the server wrote to stderr so far (its log). */
  log(): string;
  stop(): Promise<number | null>;
}

export interface StartOptions {
  /** Extra flags, e.g. ['--storage-backend=memory']. */
  readonly args?: readonly string[];
  /** Reuse a data dir (restarts); default: a new temporary one, removed by stop(). */
  readonly dataDir?: string;
  readonly readyTimeoutMs?: number;
  /** Listen on this port (a restart that clients must find again); default: a free one. */
  readonly port?: number;
  /** --kubeconfig-out; default: the data dir's kubeconfig. */
  readonly kubeconfigPath?: string;
  /** The loopback address to bind and reach it on (127.0.0.2 for a second replica); default 127.0.0.1. */
  readonly host?: string;
  /**
   * 'npm-start' runs `npm start -- <flags>` in its own process group; `{ npx: dir }` runs
   * `npx capstan <flags>` in `dir` (a project that installed the package), also as a group;
   * default 'sources'.
   */
  readonly via?: 'sources' | 'npm-start' | { readonly npx: string };
  /** Variables set (a string) or removed (undefined) in the server's environment. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => {
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** /readyz with the kubeconfig's token: as kube, it answers 401 without one when anonymous is off. */
function readyz(url: string, ca: string, token: string): Promise<number> {
  return new Promise((resolve) => {
    request(`${url}/readyz`, { ca, timeout: 2000, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', () => {
        resolve(0);
      })
      .end();
  });
}

/** Waits until the server the kubeconfig names answers /readyz; resolves with its URL. */
async function waitReady(child: ChildProcess, kubeconfigPath: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`capstan exited with code ${child.exitCode} before it was ready`);
    const text = await readFile(kubeconfigPath, 'utf8').catch(() => '');
    const ca = /certificate-authority-data: "([^"]+)"/.exec(text)?.[1];
    const url = /server: "([^"]+)"/.exec(text)?.[1];
    const token = /token: "([^"]+)"/.exec(text)?.[1];
    if (ca !== undefined && url !== undefined && token !== undefined) {
      if ((await readyz(url, Buffer.from(ca, 'base64').toString(), token)) === 200) return url;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`capstan was not ready within ${timeoutMs}ms`);
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

const fromSources = existsSync(join(repoRoot, 'src', 'cmd', 'capstan.js'))
  ? ['src/cmd/capstan.js']
  : ['--import', 'tsx', 'src/cmd/capstan.ts'];

export async function startCapstanProcess(opts: StartOptions = {}): Promise<CapstanProcess> {
  const ownDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'capstan-e2e-')));
  // Port 0: the server picks a free one and names it in the kubeconfig (no race for a port).
  const port = opts.port ?? 0;
  const kubeconfigPath = opts.kubeconfigPath ?? join(dataDir, 'kubeconfig');
  // A reused data dir holds the last start's kubeconfig; only the new one says where to look.
  await rm(kubeconfigPath, { force: true });
  const flags = [
    `--secure-port=${port}`,
    `--bind-address=${opts.host ?? '127.0.0.1'}`,
    `--data-dir=${dataDir}`,
    ...(opts.kubeconfigPath === undefined ? [] : [`--kubeconfig-out=${opts.kubeconfigPath}`]),
    ...(opts.args ?? []),
  ];
  const via = opts.via ?? 'sources';
  const viaNpm = via !== 'sources';
  const env = { ...process.env, ...opts.env };
  const npmCommand =
    via === 'npm-start'
      ? { args: ['start', '--silent', '--', ...flags], cwd: repoRoot }
      : typeof via === 'object'
        ? { args: ['exec', '--offline', '--', 'capstan', ...flags], cwd: via.npx }
        : undefined;
  const child =
    npmCommand !== undefined
      ? spawn('npm', npmCommand.args, {
          cwd: npmCommand.cwd,
          stdio: ['ignore', 'pipe', 'pipe'],
          env,
          detached: true, // npm's shell and the server form a group that stop() signals as one
        })
      : spawn(process.execPath, [...fromSources, ...flags], {
          cwd: repoRoot,
          stdio: ['ignore', 'pipe', 'pipe'],
          env,
        });
  const signal = (sig: NodeJS.Signals): void => {
    if (!viaNpm || child.pid === undefined) {
      child.kill(sig);
      return;
    }
    try {
      process.kill(-child.pid, sig);
    } catch {
      // the group has exited
    }
  };
  let log = '';
  const append = (d: Buffer): void => {
    log += d.toString();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      resolve(code);
    });
  });
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null) signal('SIGTERM');
    const timer = setTimeout(() => {
      signal('SIGKILL');
    }, 15_000);
    const code = await exited;
    // npm exits on the signal at once; the server under it is done when the whole group is gone.
    while (viaNpm && child.pid !== undefined && groupAlive(child.pid))
      await new Promise((r) => setTimeout(r, 20));
    clearTimeout(timer);
    if (ownDir) await rm(dataDir, { recursive: true, force: true });
    return code;
  };
  let url: string;
  try {
    url = await waitReady(child, kubeconfigPath, opts.readyTimeoutMs ?? 30_000);
  } catch (err) {
    await stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- capstan log ---\n${log}`);
  }
  return { url, kubeconfigPath, dataDir, pid: child.pid, log: () => log, stop };
}
