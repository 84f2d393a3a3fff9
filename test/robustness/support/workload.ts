// The robustness workload: concurrent clients doing creates, updates with resourceVersion
// preconditions, deletes (half with a precondition), gets and paged lists on a few ConfigMaps, with one
// watcher following from the start and others hopping between recorded revisions, all recorded by one
// Recorder. Seeded: the same seed gives each client the same choices (the interleaving is the
// server's). finish() stops the clients, reads every key and lists once more, and lets the watchers
// catch up before it stops them.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Credentials } from './capstan-node.js';
import { listAll, perform } from './configmap-ops.js';
import { Recorder, type History, type KvInput, type OpKind } from './history.js';
import { KubeClient } from './kube-client.js';
import { Watcher } from './watcher.js';

export interface WorkloadOptions {
  /**
   * The server a client talks to, by its id in the history: 1..clients for the clients, 100 + i for
   * watcher i, 0 for the setup and the final reads (several replicas: spread the ids over them).
   */
  readonly creds: (client: number) => Credentials;
  readonly ns: string;
  readonly seed: number;
  readonly clients: number;
  readonly keys: number;
  readonly hopWatchers: number;
  /** Per request: past it, the outcome is unknown. */
  readonly timeoutMs: number;
  /** Each client waits this long after each operation (a paced load); 0 or unset: no wait. */
  readonly thinkMs?: number;
  /** Each hopping watcher waits this long between its watches; 0 or unset: no wait. */
  readonly hopPauseMs?: number;
}

/** mulberry32: a small seeded generator. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const mix: readonly [OpKind | 'list', number][] = [
  ['get', 0.25],
  ['create', 0.2],
  ['update', 0.3],
  ['delete', 0.1],
  ['list', 0.15],
];

function pickKind(r: number): OpKind | 'list' {
  let acc = 0;
  for (const [kind, p] of mix) if (r < (acc += p)) return kind;
  return 'get';
}

export class Workload {
  readonly recorder = new Recorder();
  readonly baseRv: number;
  readonly #o: WorkloadOptions;
  readonly #kube: KubeClient[] = [];
  readonly #watchers: Watcher[] = [];
  readonly #rvs: number[] = [];
  #stopping = false;
  #running: Promise<void>[] = [];

  private constructor(o: WorkloadOptions, baseRv: number) {
    this.#o = o;
    this.baseRv = baseRv;
  }

  get history(): History {
    return this.recorder.history;
  }

  /** The suite's usual load: four clients over three keys, two watchers hopping, 2 s client timeouts. */
  static standard(creds: (client: number) => Credentials, seed: number): Promise<Workload> {
    return Workload.start({
      creds,
      ns: 'robustness',
      seed,
      clients: 4,
      keys: 3,
      hopWatchers: 2,
      timeoutMs: 2000,
    });
  }

  /** Waits until the history holds `n` operations; fails the test after `withinMs`. */
  async reach(n: number, withinMs = 15_000): Promise<void> {
    const deadline = Date.now() + withinMs;
    while (this.history.ops.length < n) {
      if (Date.now() > deadline)
        assert.fail(`only ${this.history.ops.length} of ${n} operations in ${withinMs / 1000} s`);
      await sleep(20);
    }
  }

  static async start(o: WorkloadOptions): Promise<Workload> {
    const admin = new KubeClient(() => o.creds(0), 10_000);
    const ns = await admin.request('POST', '/api/v1/namespaces', { metadata: { name: o.ns } });
    if (ns.status !== 201) throw new Error(`namespace ${o.ns}: ${ns.status}`);
    const list = await listAll(admin, o.ns, 500);
    admin.close();
    if (list === undefined || list.items.length > 0) throw new Error('the namespace is not empty');
    const w = new Workload(o, list.rv);
    w.#startWatchers();
    w.#running = Array.from({ length: o.clients }, (_, i) => w.#client(i + 1));
    return w;
  }

  #newClient(id: number, timeoutMs: number): KubeClient {
    const c = new KubeClient(() => this.#o.creds(id), timeoutMs);
    this.#kube.push(c);
    return c;
  }

  readonly #backoff = (): Promise<void> => sleep(25);

  #startWatchers(): void {
    const common = {
      ns: this.#o.ns,
      history: this.history,
      now: () => this.recorder.now(),
      backoff: this.#backoff,
    };
    this.#watchers.push(
      new Watcher({ ...common, id: 0, client: this.#newClient(100, 60_000), startRv: this.baseRv }),
    );
    const rand = seeded(this.#o.seed * 7919);
    const pick = (): number | undefined => this.#rvs[Math.floor(rand() * this.#rvs.length)] ?? this.baseRv;
    const pauseMs = this.#o.hopPauseMs ?? 0;
    const pause = (): Promise<void> => sleep(pauseMs);
    for (let i = 1; i <= this.#o.hopWatchers; i++) {
      const client = this.#newClient(100 + i, 60_000);
      const hop = { events: 5 + i * 3, pick, ...(pauseMs > 0 ? { pause } : {}) };
      this.#watchers.push(new Watcher({ ...common, id: i, client, startRv: this.baseRv, hop }));
    }
  }

  async #client(id: number): Promise<void> {
    const rand = seeded(this.#o.seed * 1000 + id);
    const kube = this.#newClient(id, this.#o.timeoutMs);
    const known = new Map<string, number>();
    for (let n = 0; !this.#stopping; n++) {
      const key = `cm-${Math.floor(rand() * this.#o.keys)}`;
      const kind = pickKind(rand());
      if (kind === 'list') {
        const call = this.recorder.now();
        const list = await listAll(kube, this.#o.ns, 2);
        if (list !== undefined) {
          this.history.lists.push({ client: id, call, ret: this.recorder.now(), ...list });
          for (const item of list.items) known.set(item.key, item.rv);
        } else await this.#backoff();
        await this.#think();
        continue;
      }
      const stale = rand() < 0.5;
      const input: KvInput =
        kind === 'update' || (kind === 'delete' && stale)
          ? { kind, key, value: `c${id}-${n}`, precondition: known.get(key) ?? this.baseRv }
          : { kind, key, value: `c${id}-${n}` };
      const out = await this.recorder.record(id, input, () => perform(kube, this.#o.ns, input));
      if (out.type === 'ok' && out.rv > 0) {
        known.set(key, out.rv);
        this.#rvs.push(out.rv);
      }
      if (out.type === 'unknown') await this.#backoff();
      await this.#think();
    }
  }

  async #think(): Promise<void> {
    const ms = this.#o.thinkMs ?? 0;
    if (ms > 0 && !this.#stopping) await sleep(ms);
  }

  /** Stops the clients, reads the final state, and stops the watchers once they delivered it. */
  async finish(timeoutMs = 10_000): Promise<History> {
    this.#stopping = true;
    await Promise.all(this.#running);
    const kube = this.#newClient(0, this.#o.timeoutMs);
    for (let k = 0; k < this.#o.keys; k++) {
      const input: KvInput = { kind: 'get', key: `cm-${k}` };
      await this.recorder.record(0, input, () => perform(kube, this.#o.ns, input));
    }
    const call = this.recorder.now();
    const list = await listAll(kube, this.#o.ns, 500);
    if (list !== undefined) this.history.lists.push({ client: 0, call, ret: this.recorder.now(), ...list });
    // A fence written after the last list: once the follower has delivered it, it has delivered
    // everything up to the list's revision.
    const fence: KvInput = { kind: 'create', key: 'fence', value: 'fence' };
    const fenced = await this.recorder.record(0, fence, () => perform(kube, this.#o.ns, fence));
    const fenceRv = fenced.type === 'ok' ? fenced.rv : Infinity;
    const follower = this.#watchers[0];
    const deadline = Date.now() + timeoutMs;
    while (follower !== undefined && follower.lastRv < fenceRv && Date.now() < deadline) await sleep(20);
    this.close();
    await Promise.all(this.#watchers.map((w) => w.done));
    return this.history;
  }

  /** Stops everything at once (also when a test fails half way). */
  close(): void {
    this.#stopping = true;
    for (const w of this.#watchers) w.stop();
    for (const c of this.#kube) c.close();
  }
}
