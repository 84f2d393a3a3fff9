// Fault test through Capstan's store on a 3-member etcd cluster on loopback: writers create objects
// through KvStore (and read through the Cacher, as the registry does) while watchers follow; the
// leader is killed; writes resume after the re-election; every acknowledged write is there at the
// end with the resourceVersion it was acknowledged with; every watcher saw every revision in order
// or got 410 and relisted to the right state; the killed member restarts and catches up.
import assert from 'node:assert/strict';
import { it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Cacher } from '../../src/storage/cacher/cacher.js';
import { newPod, podAttrs, podKey, podsResource, testTiming } from '../../src/storage/cacher/testing/pods.js';
import { Etcd3Backend } from '../../src/storage/backends/etcd3/etcd-backend.js';
import { findLeader, memberStatus } from '../../src/storage/backends/etcd3/testing/cluster-status.js';
import { requireEtcd, startEtcdCluster } from '../../src/storage/backends/etcd3/testing/etcd-process.js';
import type { Interface } from '../../src/storage/interfaces.js';
import { KvStore } from '../../src/storage/kv-store/kv-store.js';
import { pod, type TestObject } from '../../src/storage/testing/test-object.js';

const prefix = '/pods/fault';

/** What the writers know: writes etcd acknowledged, and writes whose outcome they never learnt. */
interface Ledger {
  readonly acked: Map<string, { rv: number; startedAt: number; at: number }>;
  readonly uncertain: Set<string>;
}

async function writer(opts: {
  store: Interface<TestObject>;
  id: number;
  ledger: Ledger;
  stop: () => boolean;
}) {
  for (let n = 0; !opts.stop(); n++) {
    const name = `w${opts.id}-${n}`;
    const startedAt = Date.now();
    try {
      const obj = await opts.store.create(`${prefix}/${name}`, pod('fault', name));
      opts.ledger.acked.set(name, { rv: Number(obj.metadata.resourceVersion), startedAt, at: Date.now() });
    } catch {
      // A write that failed during the election may or may not have been applied: never retried
      // under the same name, so the final state tells which.
      opts.ledger.uncertain.add(name);
      await sleep(50);
    }
  }
}

/** Follows the prefix as a client would: watch, and on an error relist and watch again. */
class Follower {
  readonly state = new Map<string, number>();
  /** Revisions of the events received, in arrival order. */
  readonly seen: number[] = [];
  readonly errorCodes: number[] = [];
  readonly outOfOrder: string[] = [];
  lastRv = 0;
  relists = 0;
  #stopped = false;
  #stopWatch: (() => void) | null = null;
  readonly done: Promise<void>;

  constructor(store: Interface<TestObject>, fromRv: number) {
    this.done = this.#run(store, fromRv);
  }

  isStopped(): boolean {
    return this.#stopped;
  }

  stop(): void {
    this.#stopped = true;
    this.#stopWatch?.();
  }

  async #run(store: Interface<TestObject>, fromRv: number): Promise<void> {
    let rv = fromRv;
    this.lastRv = fromRv;
    while (!this.isStopped()) {
      const w = await store.watch(prefix, { recursive: true, resourceVersion: String(rv) });
      this.#stopWatch = () => {
        w.stop();
      };
      for await (const ev of w) {
        if (ev.type === 'ERROR') {
          this.errorCodes.push(ev.object.code);
          break;
        }
        if (ev.type === 'BOOKMARK') continue;
        const evRv = Number(ev.object.metadata.resourceVersion);
        if (evRv <= this.lastRv) this.outOfOrder.push(`${ev.type} ${evRv} after ${this.lastRv}`);
        this.lastRv = evRv;
        this.seen.push(evRv);
        const name = ev.object.metadata.name ?? '';
        if (ev.type === 'DELETED') this.state.delete(name);
        else this.state.set(name, evRv);
      }
      if (this.isStopped()) return;
      rv = await this.#relist(store);
    }
  }

  async #relist(store: Interface<TestObject>): Promise<number> {
    for (;;) {
      try {
        const list = await store.getList(prefix, { recursive: true });
        this.relists++;
        this.state.clear();
        for (const o of list.items) this.state.set(o.metadata.name ?? '', Number(o.metadata.resourceVersion));
        this.lastRv = Number(list.metadata.resourceVersion);
        return this.lastRv;
      } catch {
        await sleep(100);
      }
    }
  }

  async caughtUp(rv: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.lastRv < rv) {
      if (Date.now() > deadline) assert.fail(`watcher stuck at ${this.lastRv}, wanted ${rv}`);
      await sleep(20);
    }
  }
}

function newCacher(store: KvStore<TestObject>): Cacher<TestObject> {
  return new Cacher<TestObject>({
    storage: store,
    groupResource: podsResource,
    resourcePrefix: '/pods',
    keyFunc: podKey,
    newFunc: newPod,
    getAttrsFunc: podAttrs,
    timing: testTiming,
    log: () => undefined,
  });
}

async function waitUntil(what: string, cond: () => boolean | Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

/** Every acknowledged write present with its resourceVersion; anything else present was uncertain. */
function checkLedger(ledger: Ledger, final: Map<string, number>): void {
  for (const [name, { rv }] of ledger.acked) assert.equal(final.get(name), rv, `acknowledged ${name}`);
  for (const name of final.keys()) {
    assert.ok(ledger.acked.has(name) || ledger.uncertain.has(name), `${name} was never written`);
  }
}

function checkFollower(f: Follower, final: Map<string, number>, what: string): void {
  assert.deepEqual(f.outOfOrder, [], `${what}: events out of order`);
  assert.deepEqual([...f.state].sort(), [...final].sort(), `${what}: state differs from storage`);
  // Without a relist, the watcher saw every creation, each once, in revision order.
  if (f.relists === 0)
    assert.deepEqual(
      f.seen,
      [...final.values()].sort((a, b) => a - b),
      what,
    );
  else
    assert.ok(
      f.errorCodes.every((c) => c === 410),
      `${what}: errors ${f.errorCodes.join(',')}`,
    );
}

it(
  'through KvStore and the Cacher, a 3-member cluster loses its leader without losing a write',
  { timeout: 60_000 },
  async (t: TestContext) => {
    if (!requireEtcd(t)) return;
    const cluster = await startEtcdCluster({ size: 3, progressNotifyInterval: '200ms' });
    const leader = await findLeader(cluster);
    // The leader first, so the channel is talking to the member that dies.
    const endpoints = [leader.endpoint, ...cluster.endpoints.filter((e) => e !== leader.endpoint)];
    const backend = new Etcd3Backend({ endpoints, requestTimeoutMs: 2000, dialTimeoutMs: 1000 });
    const store = new KvStore<TestObject>({ backend, groupResource: podsResource, newFunc: newPod });
    const cacher = newCacher(store);
    const ledger: Ledger = { acked: new Map(), uncertain: new Set() };
    let stopped = false;
    const followers: Follower[] = [];
    try {
      await cacher.whenReady();
      const startRv = await store.currentResourceVersion();
      followers.push(new Follower(store, startRv), new Follower(cacher, startRv));
      const writers = [0, 1, 2, 3].map((id) => writer({ store, id, ledger, stop: () => stopped }));
      await waitUntil('writes before the fault', () => ledger.acked.size >= 40, 10_000);

      const beforeKill = Math.max(...[...ledger.acked.values()].map((a) => a.rv));
      await leader.kill();
      const killedAt = Date.now();
      let electedAt = 0;
      const electing = findLeader(cluster).then((m) => {
        electedAt = Date.now();
        return m;
      });
      // Writes issued once the leader was gone, so none of them can have been committed by it.
      const ackedAfter = () => [...ledger.acked.values()].filter((a) => a.startedAt > killedAt);
      await waitUntil('writes after the election', () => ackedAfter().length >= 1, 15_000);
      const resumedMs = Math.min(...ackedAfter().map((a) => a.at)) - killedAt;
      const newLeader = await electing;
      const electedMs = electedAt - killedAt;
      assert.notEqual(newLeader.name, leader.name);
      await waitUntil('more writes on the new leader', () => ackedAfter().length >= 40, 10_000);

      await leader.restart();
      await waitUntil('writes with the member back', () => ackedAfter().length >= 80, 10_000);
      stopped = true;
      await Promise.all(writers);

      const list = await store.getList(prefix, { recursive: true });
      const final = new Map(
        list.items.map((o) => [o.metadata.name ?? '', Number(o.metadata.resourceVersion)]),
      );
      checkLedger(ledger, final);
      // The registry reads through the Cacher: at that revision it serves the same objects.
      const cached = await cacher.getList(prefix, {
        recursive: true,
        resourceVersion: list.metadata.resourceVersion ?? '',
      });
      assert.deepEqual(
        new Map(cached.items.map((o) => [o.metadata.name ?? '', Number(o.metadata.resourceVersion)])),
        final,
      );
      const lastRv = Math.max(...final.values());

      // A watcher that starts below a compaction gets 410 and relists to the same state.
      await backend.compact(beforeKill);
      const late = new Follower(store, startRv);
      followers.push(late);
      for (const f of followers) await f.caughtUp(lastRv, 10_000);
      followers.forEach((f, i) => {
        checkFollower(f, final, ['KvStore watcher', 'Cacher watcher', 'late watcher'][i] ?? '');
      });
      assert.deepEqual(late.errorCodes, [410]);
      assert.equal(late.relists, 1);
      assert.equal(followers[0]?.relists, 0, 'the store watcher rode through the election');

      // The restarted member catches up: its own (serializable) revision reaches the cluster's.
      const rv = Number(list.metadata.resourceVersion);
      await waitUntil(
        'the member to catch up',
        async () => (await memberStatus(leader)).revision >= rv,
        10_000,
      );
      const rejoined = new Etcd3Backend({ endpoints: [leader.endpoint] });
      try {
        const { count } = await rejoined.count({
          start: '/registry/pods/fault/',
          end: '/registry/pods/fault0',
        });
        assert.equal(count, final.size);
      } finally {
        await rejoined.close();
      }
      t.diagnostic(
        `acked ${ledger.acked.size}, uncertain ${ledger.uncertain.size} ` +
          `(${[...ledger.uncertain].filter((n) => final.has(n)).length} applied), ` +
          `new leader after ${electedMs} ms, writes resumed ${resumedMs} ms after the kill, relists ${followers.map((f) => f.relists).join('/')}`,
      );
    } finally {
      stopped = true;
      for (const f of followers) f.stop();
      await cacher.stop();
      await backend.close();
      await cluster.stop();
    }
  },
);
