// Applies changes to the watch cache and offers each resulting event to the watchers that can want
// it (kube's dispatchEvents / dispatchEvent). One change at a time, in order: a change is applied and
// dispatched in the same step, so a watcher registered between steps never sees an event twice.
// Watchers whose queues are full get a short, budgeted wait, then are ended; bookmarks go out
// between steps.
import { setImmediate } from 'node:timers/promises';
import type { KubeObject } from '../../api/meta.js';
import type { WatchEvent } from '../interfaces.js';
import type { CacheWatcher } from './cache-watcher.js';
import { TimeBudget } from './time-budget.js';
import type { WatchCacheEvent } from './watch-cache-event.js';
import type { WatcherIndex } from './watcher-index.js';

/** kube's cacher buffers 100 incoming events before the reflector blocks. */
const incomingLimit = 100;

/** A step: applies one change and returns the event to dispatch, if any. */
export type Step<T extends KubeObject> = () => WatchCacheEvent<T> | null;

export interface DispatcherDeps<T extends KubeObject> {
  readonly index: WatcherIndex<T>;
  readonly trigger: { readonly field: string } | null;
  /** Called when a step throws; the dispatcher carries on with the next. */
  readonly onStepError: (err: unknown) => void;
}

/** The last segment of a key: the object's name. */
const nameOfKey = (key: string): string => key.slice(key.lastIndexOf('/') + 1);

type Blocked<T extends KubeObject> = [CacheWatcher<T>, WatchEvent<T>];

export class Dispatcher<T extends KubeObject> {
  readonly #deps: DispatcherDeps<T>;
  readonly #budget = new TimeBudget();
  readonly #queue: Step<T>[] = [];
  #pumping = false;
  #roomWaiters: (() => void)[] = [];
  #idleWaiters: (() => void)[] = [];
  #closed = false;
  /** Changes dispatched, watcher offers made, and watchers ended for falling behind (kube's metrics). */
  dispatched = 0;
  offered = 0;
  terminated = 0;

  constructor(deps: DispatcherDeps<T>) {
    this.#deps = deps;
  }

  /** True while no step is queued or running. */
  get idle(): boolean {
    return !this.#pumping && this.#queue.length === 0;
  }

  /** Queues a step; the returned promise (when any) asks the producer to wait for room. */
  enqueue(step: Step<T>): Promise<void> | undefined {
    if (this.#closed) return undefined;
    this.#queue.push(step);
    if (!this.#pumping) void this.#pump();
    if (this.#queue.length < incomingLimit) return undefined;
    return new Promise((resolve) => this.#roomWaiters.push(resolve));
  }

  /** Resolves once every queued step has run. */
  whenIdle(): Promise<void> {
    if (this.idle) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  close(): void {
    this.#closed = true;
    this.#queue.length = 0;
    this.#wake();
  }

  async #pump(): Promise<void> {
    this.#pumping = true;
    try {
      for (let step = this.#queue.shift(); step !== undefined; step = this.#queue.shift()) {
        if (this.#queue.length < incomingLimit) this.#wakeRoom();
        let event: WatchCacheEvent<T> | null;
        try {
          event = step();
        } catch (err) {
          this.#deps.onStepError(err);
          continue;
        }
        if (event === null) continue;
        const blocked = this.dispatch(event);
        if (blocked !== null) await this.#waitForBlocked(blocked);
      }
    } finally {
      this.#pumping = false;
      this.#wake();
    }
  }

  #wakeRoom(): void {
    const waiting = this.#roomWaiters;
    this.#roomWaiters = [];
    for (const resolve of waiting) resolve();
  }

  #wake(): void {
    this.#wakeRoom();
    const idle = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of idle) resolve();
  }

  /** Offers the event to its candidate watchers; returns those whose queues were full. */
  dispatch(event: WatchCacheEvent<T>): Blocked<T>[] | null {
    const name = event.attrs.fields['metadata.name'] ?? nameOfKey(event.key);
    const candidates = this.#deps.index.candidates(event.key, name, this.#triggerValues(event));
    let blocked: Blocked<T>[] | null = null;
    this.offered += candidates.length;
    for (const w of candidates) {
      const left = w.offer(event);
      if (left !== null) (blocked ??= []).push([w, left]);
    }
    this.dispatched++;
    event.releaseShared();
    return blocked;
  }

  #triggerValues(event: WatchCacheEvent<T>): string[] | null {
    const trigger = this.#deps.trigger;
    if (trigger === null) return null;
    const values = [...(event.element.indexValues[trigger.field] ?? [])];
    for (const prev of event.prev?.indexValues[trigger.field] ?? [])
      if (!values.includes(prev)) values.push(prev);
    return values;
  }

  /**
   * Waits, within the time budget, for full queues to make room; ends the watchers that do not. In one
   * thread a consumer cannot read while a backlog is being dispatched, so every blocked watcher first
   * gets one turn of the event loop for free; only then does the budget (kube's blocking wait) apply.
   */
  async #waitForBlocked(blocked: Blocked<T>[]): Promise<void> {
    await setImmediate();
    let pending = blocked.filter(([w, event]) => !w.retry(event));
    if (pending.length === 0) return;
    const budget = this.#budget.takeAvailable();
    const started = Date.now();
    while (pending.length > 0) {
      const left = budget - (Date.now() - started);
      if (left <= 0) break;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, left)));
      await Promise.race([timeout, ...pending.map(([w]) => w.whenWritable())]);
      clearTimeout(timer);
      pending = pending.filter(([w, event]) => !w.retry(event));
    }
    this.terminated += pending.length;
    for (const [w] of pending) w.terminate();
    this.#budget.returnUnused(budget - (Date.now() - started));
  }
}
