// Starts real etcd servers for tests: loopback ports picked free, a temporary data dir (on tmpfs
// when /dev/shm exists, since etcd 3.4 cannot skip fsync), optional TLS with client certificates.
// For partitions, each member in a network namespace of its own (its ports there are etcd's own
// 2379/2380), or its peer port behind a TCP proxy.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { waitHealthy } from './etcd-health.js';
import { NetnsNetwork, type NetnsHost } from './netns-network.js';
import type { PartitionKind, PartitionNetwork } from './partition-network.js';
import { PeerNetwork } from './peer-proxy.js';
import type { TlsFiles } from './tls-certs.js';

export interface EtcdOptions {
  /** Member name (default "capstan-test"). */
  readonly name?: string;
  /** Serve clients over TLS and demand client certificates signed by `tls.caFile`. */
  readonly tls?: TlsFiles;
  /** etcd's --experimental-watch-progress-notify-interval (default 10m in etcd). */
  readonly progressNotifyInterval?: string;
  readonly extraArgs?: readonly string[];
  /** A command the members run under (e.g. strace injecting slow fsync); killed with its group. */
  readonly wrap?: readonly string[];
  /**
   * How a test can partition the members: 'netns' runs each in a network namespace of its own
   * (NetnsNetwork; partitions cut clients off too), 'peer-proxies' puts a PeerNetwork proxy in front
   * of each member's peer port on loopback.
   */
  readonly partitions?: PartitionKind;
}

export interface EtcdMember {
  readonly name: string;
  /** The client URL, http:// or https://. */
  readonly endpoint: string;
  readonly dataDir: string;
  readonly running: boolean;
  /** SIGKILLs the member (a crash); its data dir stays so restart() brings it back. */
  kill(): Promise<void>;
  restart(): Promise<void>;
}

export interface EtcdProcess {
  readonly endpoints: readonly string[];
  readonly dataDir: string;
  readonly members: readonly EtcdMember[];
  /** The network that partitions the members, when started with `partitions`; stop() closes it. */
  readonly network?: PartitionNetwork;
  /** Stops every member and removes the data dirs; safe to call twice. */
  stop(): Promise<void>;
}

/** True when an `etcd` binary is on the PATH. */
export function etcdInstalled(): boolean {
  return spawnSync('etcd', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * Skips the test when etcd is missing on a developer machine; in CI (CI set) a missing etcd is a
 * failure, so a green CI run means the etcd tests really ran.
 */
export function requireEtcd(t: TestContext): boolean {
  const missing = etcdMissing();
  if (missing === undefined) return true;
  t.skip(missing);
  return false;
}

/**
 * Why the etcd tests skip on this machine (undefined when etcd is installed), for a suite's hook,
 * whose context cannot skip: its tests skip with it. In CI a missing etcd throws, as requireEtcd.
 */
export function etcdMissing(): string | undefined {
  if (etcdInstalled()) return undefined;
  if (process.env['CI'] !== undefined && process.env['CI'] !== '') {
    throw new Error('etcd not installed but CI is set: apt-get install -y etcd-server');
  }
  return 'etcd not installed: apt-get install -y etcd-server';
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => {
        resolve(port);
      });
    });
  });
}

function tempRoot(): string {
  return existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
}

interface MemberPlan {
  readonly name: string;
  /** The address it listens on: 127.0.0.1, or its namespace's. */
  readonly host: string;
  /** The prefix that runs it in its namespace. */
  readonly netns: readonly string[];
  readonly clientPort: number;
  readonly peerPort: number;
  /** The port the others reach it on: a proxy's, or peerPort itself. */
  readonly advertisedPeerPort: number;
  readonly dataDir: string;
}

async function planMember(name: string, proxied: boolean, netns?: NetnsHost): Promise<MemberPlan> {
  const dataDir = mkdtempSync(join(tempRoot(), `capstan-etcd-${name}-`));
  if (netns !== undefined) {
    const ports = { clientPort: 2379, peerPort: 2380, advertisedPeerPort: 2380 };
    return { name, host: netns.address, netns: netns.wrap, ...ports, dataDir };
  }
  const peerPort = await freePort();
  return {
    name,
    host: '127.0.0.1',
    netns: [],
    clientPort: await freePort(),
    peerPort,
    advertisedPeerPort: proxied ? await freePort() : peerPort,
    dataDir,
  };
}

function memberArgs(plan: MemberPlan, cluster: string, opts: EtcdOptions): string[] {
  const scheme = opts.tls === undefined ? 'http' : 'https';
  const clientUrl = `${scheme}://${plan.host}:${plan.clientPort}`;
  const peerUrl = `http://${plan.host}:${plan.peerPort}`;
  const advertisedPeerUrl = `http://${plan.host}:${plan.advertisedPeerPort}`;
  const args = [
    `--name=${plan.name}`,
    `--data-dir=${plan.dataDir}`,
    `--listen-client-urls=${clientUrl}`,
    `--advertise-client-urls=${clientUrl}`,
    `--listen-peer-urls=${peerUrl}`,
    `--initial-advertise-peer-urls=${advertisedPeerUrl}`,
    `--initial-cluster=${cluster}`,
    '--initial-cluster-state=new',
    '--initial-cluster-token=capstan-test',
    '--logger=zap',
    '--log-outputs=stderr',
    '--log-level=error',
  ];
  if (opts.progressNotifyInterval !== undefined) {
    args.push(`--experimental-watch-progress-notify-interval=${opts.progressNotifyInterval}`);
  }
  if (opts.tls !== undefined) {
    const { caFile, serverCertFile, serverKeyFile } = opts.tls;
    args.push('--client-cert-auth', `--trusted-ca-file=${caFile}`);
    args.push(`--cert-file=${serverCertFile}`, `--key-file=${serverKeyFile}`);
  }
  args.push(...(opts.extraArgs ?? []));
  return args;
}

class Member implements EtcdMember {
  readonly name: string;
  readonly endpoint: string;
  readonly dataDir: string;
  readonly #args: readonly string[];
  readonly #tls: TlsFiles | undefined;
  readonly #wrap: readonly string[];
  #child: ChildProcess | null = null;
  #stderr = '';

  constructor(
    plan: MemberPlan,
    args: readonly string[],
    tls: TlsFiles | undefined,
    wrap: readonly string[] = [],
  ) {
    this.#wrap = [...plan.netns, ...wrap];
    this.name = plan.name;
    this.dataDir = plan.dataDir;
    this.endpoint = `${tls === undefined ? 'http' : 'https'}://${plan.host}:${plan.clientPort}`;
    this.#args = args;
    this.#tls = tls;
  }

  get running(): boolean {
    return this.#child !== null;
  }

  /** Spawns the process; waitReady() separately so cluster members can start together. */
  spawn(): void {
    const [cmd, ...pre] = this.#wrap.length > 0 ? [...this.#wrap, 'etcd'] : ['etcd'];
    const child = spawn(cmd, [...pre, ...this.#args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: this.#wrap.length > 0,
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      this.#stderr = (this.#stderr + chunk).slice(-4000);
    });
    child.once('exit', () => {
      if (this.#child === child) this.#child = null;
    });
    this.#child = child;
  }

  async waitReady(timeoutMs: number): Promise<void> {
    try {
      await waitHealthy({ endpoint: this.endpoint, tls: this.#tls, timeoutMs, alive: () => this.running });
    } catch (err) {
      throw new Error(`etcd member ${this.name} did not become healthy: ${String(err)}\n${this.#stderr}`);
    }
  }

  async kill(): Promise<void> {
    const child = this.#child;
    if (child === null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // A wrapper (strace) leaves its tracee running when killed alone: kill the whole group.
    if (this.#wrap.length > 0 && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    else child.kill('SIGKILL');
    await exited;
  }

  async restart(): Promise<void> {
    await this.kill();
    this.spawn();
    await this.waitReady(15_000);
  }
}

/**
 * Starts the members, again on new ports when one of them lost its port: a free port is found by
 * listening on port 0 and closing, and another process (a test running beside this one) may bind
 * it before etcd does.
 */
async function startMembers(names: readonly string[], opts: EtcdOptions): Promise<EtcdProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startMembersOnce(names, opts);
    } catch (err) {
      if (attempt >= 3 || !String(err).includes('address already in use')) throw err;
    }
  }
}

async function startMembersOnce(names: readonly string[], opts: EtcdOptions): Promise<EtcdProcess> {
  const proxies = opts.partitions === 'peer-proxies' ? new PeerNetwork() : undefined;
  const netns = opts.partitions === 'netns' ? NetnsNetwork.create(names) : undefined;
  const network: PartitionNetwork | undefined = proxies ?? netns;
  const plans = await Promise.all(
    names.map((n, i) => planMember(n, proxies !== undefined, netns?.hosts[i])),
  ).catch(async (err: unknown) => {
    await network?.close();
    throw err;
  });
  const cluster = plans.map((p) => `${p.name}=http://${p.host}:${p.advertisedPeerPort}`).join(',');
  const members = plans.map((p) => new Member(p, memberArgs(p, cluster, opts), opts.tls, opts.wrap));
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await Promise.all(members.map((m) => m.kill()));
    await network?.close();
    for (const p of plans) rmSync(p.dataDir, { recursive: true, force: true });
  };
  try {
    if (proxies !== undefined) {
      for (const p of plans) await proxies.listen(p.name, p.advertisedPeerPort, p.peerPort);
    }
    for (const m of members) m.spawn();
    await Promise.all(members.map((m) => m.waitReady(15_000)));
  } catch (err) {
    await stop();
    throw err;
  }
  const first = plans[0];
  if (first === undefined) throw new Error('startMembers needs at least one member');
  const endpoints = members.map((m) => m.endpoint);
  return network === undefined
    ? { endpoints, dataDir: first.dataDir, members, stop }
    : { endpoints, dataDir: first.dataDir, members, network, stop };
}

/** One etcd member on free loopback ports. */
export async function startEtcd(opts: EtcdOptions = {}): Promise<EtcdProcess> {
  return startMembers([opts.name ?? 'capstan-test'], opts);
}

/** A cluster of `size` members (default 3) for fault tests; `members` can be killed and restarted. */
export async function startEtcdCluster(opts: EtcdOptions & { size?: number } = {}): Promise<EtcdProcess> {
  const base = opts.name ?? 'capstan-member';
  const names = Array.from({ length: opts.size ?? 3 }, (_, i) => `${base}-${i}`);
  return startMembers(names, opts);
}
