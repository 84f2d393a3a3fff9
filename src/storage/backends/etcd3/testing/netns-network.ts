// A private virtual network for one test, built with iproute2 as etcd's robustness tests would on
// Linux: one network namespace per member, each joined by a veth pair to a bridge in a hub
// namespace, and one more veth pair from that bridge to the test's own (root) namespace, so the test
// process reaches every member on a /24 of its own with no forwarding anywhere. isolate() takes the
// member's port on the bridge down: its peers and its clients lose it, both directions, as in a real
// partition. Namespaces carry the pid (stale ones of dead processes are removed on create); the /24
// is claimed by the name of the root-side veth, which the kernel gives out once.
import { spawnSync } from 'node:child_process';
import type { PartitionNetwork } from './partition-network.js';

/** Where one member runs: the address it listens on and the command prefix that puts it there. */
export interface NetnsHost {
  readonly name: string;
  readonly namespace: string;
  readonly address: string;
  readonly wrap: readonly string[];
}

const PREFIX = 'capstan-';
/** Third octets are drawn from 10.213.0.0/16. */
const NET = '10.213';

function ip(args: readonly string[]): { ok: boolean; out: string; err: string } {
  const r = spawnSync('ip', args, { encoding: 'utf8', timeout: 10_000 });
  if (r.error !== undefined) return { ok: false, out: '', err: r.error.message };
  return { ok: r.status === 0, out: r.stdout.trim(), err: r.stderr.trim() };
}

function mustIp(args: readonly string[]): void {
  const r = ip(args);
  if (!r.ok) throw new Error(`ip ${args.join(' ')}: ${r.err}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The namespaces `ip netns list` shows (names only). */
export function listNamespaces(): string[] {
  return ip(['netns', 'list'])
    .out.split('\n')
    .map((l) => l.split(' ')[0] ?? '')
    .filter((n) => n !== '');
}

/**
 * Kills what still runs in a namespace (a member a failed test did not stop, or one of a killed
 * run: members run in process groups of their own), then deletes it; a namespace lives on, unnamed,
 * while a process holds it.
 */
function deleteNamespace(ns: string): void {
  for (const pid of ip(['netns', 'pids', ns]).out.split('\n')) {
    if (/^\d+$/.test(pid)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }
  ip(['netns', 'del', ns]);
}

/** Deletes namespaces a killed test run left behind (their pid no longer runs). */
function removeStale(): void {
  for (const ns of listNamespaces()) {
    const pid = Number(/^capstan-(\d+)-/.exec(ns)?.[1] ?? NaN);
    if (Number.isInteger(pid) && pid !== process.pid && !alive(pid)) deleteNamespace(ns);
  }
}

/**
 * Undefined when this machine can build the network (namespaces, veth pairs and bridges, as root);
 * otherwise why not. Creates and deletes a namespace, a veth pair and a bridge.
 */
export function netnsUnavailable(): string | undefined {
  if (process.platform !== 'linux') return `network namespaces are Linux only (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'network namespaces need root';
  const ns = `${PREFIX}${process.pid}-probe`;
  const made = ip(['netns', 'add', ns]);
  if (!made.ok) return `ip netns add failed: ${made.err}`;
  try {
    const veth = ip(['-n', ns, 'link', 'add', 'probe0', 'type', 'veth', 'peer', 'name', 'probe1']);
    if (!veth.ok) return `no veth pairs: ${veth.err}`;
    const bridge = ip(['-n', ns, 'link', 'add', 'probebr', 'type', 'bridge']);
    if (!bridge.ok) return `no bridges: ${bridge.err}`;
    return undefined;
  } finally {
    ip(['netns', 'del', ns]);
  }
}

export class NetnsNetwork implements PartitionNetwork {
  readonly kind = 'netns';
  readonly hosts: readonly NetnsHost[];
  /** The root namespace's end of the uplink: the test reaches the members through it. */
  readonly uplink: string;
  readonly subnet: string;
  readonly #hub: string;
  readonly #isolated = new Set<number>();
  readonly #onExit = (): void => {
    this.#remove();
  };
  #closed = false;

  private constructor(names: readonly string[], third: number) {
    const base = `${PREFIX}${process.pid}-n${third}`;
    this.#hub = `${base}-hub`;
    this.uplink = `csn${third}`;
    this.subnet = `${NET}.${third}.0/24`;
    this.hosts = names.map((name, i) => {
      const namespace = `${base}-m${i}`;
      return {
        name,
        namespace,
        address: `${NET}.${third}.${i + 1}`,
        wrap: ['ip', 'netns', 'exec', namespace],
      };
    });
  }

  /** Builds the network for these member names (at most 250); close() removes it. */
  static create(names: readonly string[]): NetnsNetwork {
    if (names.length === 0 || names.length > 250) throw new Error('a netns network holds 1 to 250 members');
    removeStale();
    for (let k = 0; k < 250; k++) {
      const third = (process.pid + k) % 250;
      // A route inside this /24 (someone else's network) rules it out.
      if (ip(['-4', 'route', 'show', 'root', `${NET}.${third}.0/24`]).out !== '') continue;
      const net = new NetnsNetwork(names, third);
      if (!net.#claim()) continue;
      process.once('exit', net.#onExit);
      try {
        net.#build();
      } catch (err) {
        net.#remove();
        throw err;
      }
      return net;
    }
    throw new Error(`no free /24 in ${NET}.0.0/16`);
  }

  /** Creates the hub namespace and the uplink; false when another run owns this /24. */
  #claim(): boolean {
    if (!ip(['netns', 'add', this.#hub]).ok) return false;
    const up = ip(['link', 'add', this.uplink, 'type', 'veth', 'peer', 'name', 'uplink', 'netns', this.#hub]);
    if (up.ok) return true;
    ip(['netns', 'del', this.#hub]);
    if (/exists/i.test(up.err)) return false;
    throw new Error(`ip link add ${this.uplink}: ${up.err}`);
  }

  #build(): void {
    const hub = ['-n', this.#hub];
    mustIp([...hub, 'link', 'add', 'br0', 'type', 'bridge']);
    mustIp([...hub, 'link', 'set', 'uplink', 'master', 'br0', 'up']);
    this.hosts.forEach((h, i) => {
      mustIp(['netns', 'add', h.namespace]);
      const port = `m${i}`;
      mustIp([...hub, 'link', 'add', port, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', h.namespace]);
      mustIp([...hub, 'link', 'set', port, 'master', 'br0', 'up']);
      mustIp(['-n', h.namespace, 'link', 'set', 'lo', 'up']);
      mustIp(['-n', h.namespace, 'addr', 'add', `${h.address}/24`, 'dev', 'eth0']);
      mustIp(['-n', h.namespace, 'link', 'set', 'eth0', 'up']);
    });
    mustIp([...hub, 'link', 'set', 'br0', 'up']);
    mustIp(['addr', 'add', this.subnet.replace(/\.0\/24$/, '.254/24'), 'dev', this.uplink]);
    mustIp(['link', 'set', this.uplink, 'up']);
  }

  #index(name: string): number {
    const i = this.hosts.findIndex((h) => h.name === name);
    if (i < 0) throw new Error(`no member ${name} in this network`);
    return i;
  }

  isolate(name: string, _hexId?: string): void {
    const i = this.#index(name);
    mustIp(['-n', this.#hub, 'link', 'set', `m${i}`, 'down']);
    this.#isolated.add(i);
  }

  heal(): void {
    for (const i of this.#isolated) mustIp(['-n', this.#hub, 'link', 'set', `m${i}`, 'up']);
    this.#isolated.clear();
  }

  #remove(): void {
    // The uplink first: a namespace's links go with it only some time after `ip netns del`.
    ip(['link', 'del', this.uplink]);
    for (const h of this.hosts) deleteNamespace(h.namespace);
    deleteNamespace(this.#hub);
  }

  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      process.removeListener('exit', this.#onExit);
      this.#remove();
    }
    return Promise.resolve();
  }
}
