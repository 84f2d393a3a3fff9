// One Capstan server process for fault runs, started through bin/capstan (the bundle starts in about a
// second; the sources through tsx take many): kill9() crashes it, restart() brings it back on the same
// port and data dir, stop() ends it with SIGTERM and removes the data dir it made.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../e2e/support/capstan-process.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface Credentials {
  readonly url: string;
  readonly ca: string;
  readonly token: string;
}

function readyz(creds: Credentials): Promise<number> {
  return new Promise((resolve) => {
    // The token: as kube, /readyz answers 401 without credentials when anonymous is off.
    const headers = { authorization: `Bearer ${creds.token}` };
    request(`${creds.url}/readyz`, { ca: creds.ca, timeout: 1000, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', () => {
        resolve(0);
      })
      .end();
  });
}

async function readCredentials(dataDir: string, url: string): Promise<Credentials | undefined> {
  const text = await readFile(join(dataDir, 'kubeconfig'), 'utf8').catch(() => '');
  const ca = /certificate-authority-data: "([^"]+)"/.exec(text)?.[1];
  const token = /token: "([^"]+)"/.exec(text)?.[1];
  if (ca === undefined || token === undefined) return undefined;
  return { url, ca: Buffer.from(ca, 'base64').toString(), token };
}

export class CapstanNode {
  readonly #args: readonly string[];
  readonly #dataDir: string;
  readonly #url: string;
  #child: ChildProcess | null = null;
  #log = '';
  #creds: Credentials | undefined;
  /** A command the server runs under (strace injecting slow fsync); signals go to its group. */
  #wrap: readonly string[] = [];
  restarts = 0;

  private constructor(args: readonly string[], dataDir: string, port: number) {
    this.#dataDir = dataDir;
    this.#url = `https://127.0.0.1:${port}`;
    this.#args = [`--secure-port=${port}`, '--bind-address=127.0.0.1', `--data-dir=${dataDir}`, ...args];
  }

  /**
   * Starts a server with these extra flags and waits until /readyz answers 200. Its data dir is a new
   * temporary one, or `dataDir` (which stop() then removes too).
   */
  static async start(
    args: readonly string[] = [],
    opts: { dataDir?: string; wrap?: readonly string[] } = {},
  ): Promise<CapstanNode> {
    const dir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'capstan-robustness-')));
    const node = new CapstanNode(args, dir, await freePort());
    node.#wrap = opts.wrap ?? [];
    try {
      await node.#spawn();
    } catch (err) {
      await node.stop();
      throw err;
    }
    return node;
  }

  get credentials(): Credentials {
    if (this.#creds === undefined) throw new Error('capstan has not started');
    return this.#creds;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  log(): string {
    return this.#log;
  }

  async #spawn(): Promise<void> {
    const [cmd, ...pre] = [...this.#wrap, join(repoRoot, 'bin', 'capstan')];
    const child = spawn(cmd, [...pre, ...this.#args], {
      cwd: repoRoot,
      detached: this.#wrap.length > 0,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const append = (d: Buffer): void => {
      this.#log = (this.#log + d.toString()).slice(-20_000);
    };
    child.stdout.on('data', append);
    child.stderr.on('data', append);
    child.once('exit', () => {
      if (this.#child === child) this.#child = null;
    });
    this.#child = child;
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (this.#child !== child) throw new Error(`capstan exited before it was ready\n${this.#log}`);
      this.#creds ??= await readCredentials(this.#dataDir, this.#url);
      if (this.#creds !== undefined && (await readyz(this.#creds)) === 200) return;
      if (Date.now() > deadline) throw new Error(`capstan was not ready in 30 s\n${this.#log}`);
      await sleep(25);
    }
  }

  /** SIGKILL: no shutdown, no flush; the data dir stays. */
  async kill9(): Promise<void> {
    const child = this.#child;
    if (child === null) return;
    const exited = once(child, 'exit');
    this.#signal(child, 'SIGKILL');
    await exited;
  }

  #signal(child: ChildProcess, sig: NodeJS.Signals): void {
    if (this.#wrap.length > 0 && child.pid !== undefined) process.kill(-child.pid, sig);
    else child.kill(sig);
  }

  async restart(): Promise<void> {
    await this.kill9();
    this.restarts++;
    await this.#spawn();
  }

  async stop(): Promise<void> {
    const child = this.#child;
    if (child !== null) {
      const exited = once(child, 'exit');
      this.#signal(child, 'SIGTERM');
      const timer = setTimeout(() => {
        this.#signal(child, 'SIGKILL');
      }, 10_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(this.#dataDir, { recursive: true, force: true });
  }
}
