// A rate-limited, delaying work queue (k8s.io/client-go/util/workqueue): a key is queued at most
// once, is never handed to two workers at the same time (a key added while processed is queued
// again when done), can be added after a delay, and failures back off per key exponentially.
// Named, it reports client-go's workqueue_* metrics to the provider it is given (the server's).
import { systemClock, type Clock, type ClockTimer } from '../../../machinery/time/clock.js';
import {
  noWorkqueueMetrics,
  type QueueMetrics,
  type WorkqueueMetricsProvider,
} from '../../../server/metrics/workqueue-metrics.js';

export interface RateLimitingQueueOptions {
  /** The first retry delay after a failure (kube: 5ms). */
  readonly baseDelayMs?: number;
  /** The longest retry delay (kube's namespace controller: 60s). */
  readonly maxDelayMs?: number;
  /**
   * The clock of addAfter's delays: the server's, so a virtual clock governs a namespace's grace
   * period. Failure backoff stays on the system clock: a retry never waits for a test to move time.
   */
  readonly clock?: Clock;
  /** The clock of failure backoff: the system's unless a test sets its own. */
  readonly backoffClock?: Clock;
  /** The queue's name in the workqueue_* metrics (kube's queue names); unnamed, it has none. */
  readonly name?: string;
  /** Where the queue's metrics go (the server's); none without it. */
  readonly metrics?: WorkqueueMetricsProvider;
}

interface Waiting {
  readonly at: number;
  readonly timer: ClockTimer;
}

export class RateLimitingQueue {
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #ready: string[] = [];
  /** Keys waiting to be processed (queued, or to be queued again when their processing ends). */
  readonly #dirty = new Set<string>();
  readonly #processing = new Set<string>();
  readonly #clock: Clock;
  readonly #backoffClock: Clock;
  /** Keys added after a delay on the server's clock, and keys backing off on the system's. */
  readonly #waiting = new Map<string, Waiting>();
  readonly #backingOff = new Map<string, Waiting>();
  readonly #failures = new Map<string, number>();
  readonly #getters: ((key: string | undefined) => void)[] = [];
  /** This queue's series, made once: an add or a get only bumps numbers. */
  readonly #metrics: QueueMetrics;
  #shutDown = false;

  constructor(opts: RateLimitingQueueOptions = {}) {
    this.#metrics = (opts.metrics ?? noWorkqueueMetrics).queueMetrics(opts.name ?? '');
    this.#baseDelayMs = opts.baseDelayMs ?? 5;
    this.#maxDelayMs = opts.maxDelayMs ?? 60_000;
    this.#clock = opts.clock ?? systemClock;
    this.#backoffClock = opts.backoffClock ?? systemClock;
  }

  get length(): number {
    return this.#ready.length;
  }

  add(key: string): void {
    if (this.#shutDown || this.#dirty.has(key)) return;
    this.#metrics.add(key);
    this.#dirty.add(key);
    if (this.#processing.has(key)) return;
    this.#push(key);
  }

  /** Hands a dirty key to a waiting worker, else queues it. */
  #push(key: string): void {
    const getter = this.#getters.shift();
    if (getter === undefined) this.#ready.push(key);
    else {
      this.#take(key);
      getter(key);
    }
  }

  #take(key: string): void {
    this.#metrics.get(key);
    this.#dirty.delete(key);
    this.#processing.add(key);
  }

  /** Adds the key once `ms` have passed; a key already waiting keeps the earlier of the two times. */
  addAfter(key: string, ms: number): void {
    this.#after(key, ms, { clock: this.#clock, waiting: this.#waiting });
  }

  /** Adds the key after its backoff: base × 2^failures, at most the maximum. */
  addRateLimited(key: string): void {
    const failures = this.#failures.get(key) ?? 0;
    this.#failures.set(key, failures + 1);
    const ms = Math.min(this.#baseDelayMs * 2 ** failures, this.#maxDelayMs);
    this.#after(key, ms, { clock: this.#backoffClock, waiting: this.#backingOff });
  }

  #after(key: string, ms: number, on: { clock: Clock; waiting: Map<string, Waiting> }): void {
    const { clock, waiting } = on;
    if (this.#shutDown) return;
    // client-go counts every AddAfter as a retry, a rate-limited add's included.
    this.#metrics.retry();
    if (ms <= 0) {
      this.add(key);
      return;
    }
    const at = clock.now() + ms;
    const current = waiting.get(key);
    if (current !== undefined) {
      if (current.at <= at) return;
      current.timer.cancel();
    }
    // Kept alive as a plain timer would be: a worker may be waiting for this key; close() cancels it.
    const timer = clock.setTimeout(
      () => {
        waiting.delete(key);
        this.add(key);
      },
      ms,
      { keepAlive: true },
    );
    waiting.set(key, { at, timer });
  }

  /** Forgets the key's failures: its next backoff starts again at the base delay. */
  forget(key: string): void {
    this.#failures.delete(key);
  }

  /** The next key to process, or undefined once the queue is shut down. */
  get(): Promise<string | undefined> {
    if (this.#shutDown) return Promise.resolve(undefined);
    const key = this.#ready.shift();
    if (key !== undefined) {
      this.#take(key);
      return Promise.resolve(key);
    }
    return new Promise((resolve) => this.#getters.push(resolve));
  }

  /** Marks the key processed; queues it again when it was added meanwhile. */
  done(key: string): void {
    this.#metrics.done(key);
    this.#processing.delete(key);
    if (!this.#dirty.has(key)) return;
    // Counted as added when it became dirty during its processing: queued now without another add.
    if (this.#shutDown) this.#dirty.delete(key);
    else this.#push(key);
  }

  /** Ends the queue: waiting getters get undefined, delayed adds are dropped. */
  close(): void {
    this.#shutDown = true;
    for (const waiting of [this.#waiting, this.#backingOff]) {
      for (const { timer } of waiting.values()) timer.cancel();
      waiting.clear();
    }
    this.#ready.length = 0;
    this.#metrics.close();
    for (const getter of this.#getters.splice(0)) getter(undefined);
  }
}
