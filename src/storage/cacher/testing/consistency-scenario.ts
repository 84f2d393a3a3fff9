// The consistency scenario: many writers and many watchers at once. Every watcher, whatever
// revision it started from, must end with exactly the final state and see every revision after its
// start once and in order. Run by consistency.test.ts in a worker thread.
import assert from 'node:assert/strict';
import { isStorageError } from '../../errors.js';
import type { ListOptions, Watch, WatchEvent } from '../../interfaces.js';
import { pod, type TestObject } from '../../testing/test-object.js';
import { podCacher, podKey, type PodCacher } from './pods.js';

export interface ConsistencyScenario {
  readonly writers: number;
  readonly opsPerWriter: number;
  readonly keyCount: number;
  readonly watcherCount: number;
}

export interface ConsistencyReport {
  readonly finalResourceVersion: number;
  readonly watchers: number;
  readonly eventsChecked: number;
  readonly durationMs: number;
}

const ns = 'consistency';

type State = Map<string, TestObject>;

/** One iterator per watch, shared by the phases that read it (a for-await would stop the watch). */
const iterators = new WeakMap<Watch<TestObject>, AsyncIterator<WatchEvent<TestObject>>>();
function iteratorOf(watch: Watch<TestObject>): AsyncIterator<WatchEvent<TestObject>> {
  let it = iterators.get(watch);
  if (it === undefined) iterators.set(watch, (it = watch[Symbol.asyncIterator]()));
  return it;
}

interface Outcome {
  readonly name: string;
  readonly startRv: number;
  readonly state: State;
  readonly revisions: number[];
}

function rvOf(obj: { metadata?: { resourceVersion?: string } }): number {
  return Number(obj.metadata?.resourceVersion ?? 'NaN');
}

async function oneOp(pods: PodCacher, rand: () => number, keyCount: number): Promise<void> {
  const name = `p${Math.floor(rand() * keyCount)}`;
  const key = `/pods/${ns}/${name}`;
  const store = pods.cacher;
  const roll = rand();
  try {
    if (roll < 0.4) {
      await store.create(
        key,
        pod(ns, name, { labels: { gen: String(roll) }, nodeName: `node-${name.length}` }),
      );
    } else if (roll < 0.8) {
      await store.guaranteedUpdate(key, {
        tryUpdate: (cur) => {
          if (cur === null) throw new Error('gone');
          return { ...cur, metadata: { ...cur.metadata, labels: { gen: String(roll) } } };
        },
      });
    } else {
      await store.delete(key);
    }
  } catch (err) {
    if (isStorageError(err, 'KeyExists') || isStorageError(err, 'KeyNotFound')) return;
    if (err instanceof Error && err.message === 'gone') return;
    throw err;
  }
}

/** Applies a watch to its starting state until it has seen `final`; records event revisions. */
async function follow(watch: Watch<TestObject>, start: Outcome, final: Promise<number>): Promise<Outcome> {
  let finalRv = Number.POSITIVE_INFINITY;
  void final.then((rv) => (finalRv = rv));
  const events = iteratorOf(watch);
  for (let step = await events.next(); step.done !== true; step = await events.next()) {
    const ev = step.value;
    if (ev.type === 'ERROR') assert.fail(`${start.name}: ERROR ${JSON.stringify(ev.object)}`);
    const rv = rvOf(ev.object);
    if (ev.type !== 'BOOKMARK') {
      start.revisions.push(rv);
      const key = podKey(ev.object);
      if (ev.type === 'DELETED') start.state.delete(key);
      else start.state.set(key, ev.object);
    }
    if (rv >= finalRv) break;
  }
  watch.stop();
  if (!Number.isFinite(finalRv)) {
    assert.fail(
      `${start.name}: the watch ended before the writers finished after ${start.revisions.length} events`,
    );
  }
  return start;
}

/** A watcher that starts somewhere in the run: from a cache list, a watch-list, or an old revision. */
async function startWatcher(pods: PodCacher, i: number, final: Promise<number>): Promise<Outcome> {
  const name = `watcher-${i}`;
  const base: ListOptions<TestObject> = { recursive: true, progressNotify: true };
  const kind = i % 3;
  if (kind === 0) {
    const list = await pods.cacher.getList('/pods', {
      recursive: true,
      resourceVersion: i % 2 === 0 ? '0' : '',
    });
    const start: Outcome = {
      name,
      startRv: rvOf(list),
      state: new Map(list.items.map((o) => [podKey(o), o])),
      revisions: [],
    };
    const watch = await pods.cacher.watch('/pods', { ...base, resourceVersion: String(start.startRv) });
    return follow(watch, start, final);
  }
  if (kind === 1) {
    const watch = await pods.cacher.watch('/pods', { ...base, sendInitialEvents: true });
    const start: Outcome = { name, startRv: 0, state: new Map(), revisions: [] };
    const events = iteratorOf(watch);
    for (let step = await events.next(); step.done !== true; step = await events.next()) {
      const ev = step.value;
      if (ev.type === 'BOOKMARK') {
        start.revisions.length = 0;
        return follow(watch, { ...start, startRv: rvOf(ev.object) }, final);
      }
      if (ev.type === 'ADDED') start.state.set(podKey(ev.object), ev.object);
    }
    assert.fail(`${name}: no initial-events-end bookmark`);
  }
  // From an older revision: the state then comes from storage, the events from the cache's window.
  const now = pods.cacher.stats().resourceVersion;
  const from = Math.max(1, now - Math.floor(Math.random() * 150));
  const list = await pods.store.getList('/pods', {
    recursive: true,
    resourceVersion: String(from),
    resourceVersionMatch: 'Exact',
  });
  const start: Outcome = {
    name,
    startRv: from,
    state: new Map(list.items.map((o) => [podKey(o), o])),
    revisions: [],
  };
  const watch = await pods.cacher.watch('/pods', { ...base, resourceVersion: String(from) });
  return follow(watch, start, final);
}

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Runs the scenario; throws (an AssertionError) on the first watcher that diverged. */
export async function runConsistencyScenario(s: ConsistencyScenario): Promise<ConsistencyReport> {
  const started = Date.now();
  const pods = await podCacher();
  try {
    let resolveFinal!: (rv: number) => void;
    const final = new Promise<number>((resolve) => (resolveFinal = resolve));
    const outcomes: Promise<Outcome>[] = [];
    const total = s.writers * s.opsPerWriter;
    // Watchers join at spread-out points of the run, the last well before its end.
    const every = Math.floor(total / (s.watcherCount + 1));
    let done = 0;
    const runWriter = async (w: number): Promise<void> => {
      const rand = seeded(w + 1);
      for (let i = 0; i < s.opsPerWriter; i++) {
        await oneOp(pods, rand, s.keyCount);
        done++;
        if (done % every === 0 && outcomes.length < s.watcherCount) {
          outcomes.push(startWatcher(pods, outcomes.length, final));
        }
      }
    };
    await Promise.all(Array.from({ length: s.writers }, (_, w) => runWriter(w)));
    const finalRv = await pods.store.currentResourceVersion();
    resolveFinal(finalRv);
    const finalList = await pods.store.getList('/pods', { recursive: true });
    const expected = new Map(finalList.items.map((o) => [podKey(o), o]));
    assert.equal(outcomes.length, s.watcherCount);
    let eventsChecked = 0;
    for (const outcome of await Promise.all(outcomes)) {
      assert.deepEqual(outcome.state, expected, `${outcome.name}: final state`);
      const want = Array.from({ length: finalRv - outcome.startRv }, (_, i) => outcome.startRv + 1 + i);
      assert.deepEqual(outcome.revisions, want, `${outcome.name}: revisions after ${outcome.startRv}`);
      eventsChecked += outcome.revisions.length;
    }
    const stats = pods.cacher.stats();
    assert.equal(stats.relists, 0, 'no relist');
    assert.equal(stats.terminated, 0, 'no watcher ended for being slow');
    return {
      finalResourceVersion: finalRv,
      watchers: outcomes.length,
      eventsChecked,
      durationMs: Date.now() - started,
    };
  } finally {
    await pods.close();
  }
}
