// Whether the cache can serve (kube's ready.go): pending until the first list lands, pending again
// while it relists, stopped for good after stop(). Requests that need the cache while it is not
// ready fail at once with 429 "storage is (re)initializing" and a Retry-After that grows with the
// downtime, as kube's cacher does (KEP-4568), instead of queueing.
import { statusError, type StatusError } from '../../machinery/errors/index.js';

export const readyStates = ['pending', 'ready', 'stopped'] as const;
export type ReadyState = (typeof readyStates)[number];

/** kube's calculateRetryAfterForUnreadyCache: e^(0.06·downtime s), between 1 and 30 seconds. */
export function retryAfterForUnreadyCache(downtimeMs: number): number {
  return Math.trunc(Math.min(30, Math.max(1, Math.exp((0.06 * downtimeMs) / 1000))));
}

export class Ready {
  #state: ReadyState = 'pending';
  #changedAt: number;
  #generation = 0;
  #waiters: { resolve: () => void; reject: (err: unknown) => void }[] = [];
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.#changedAt = now();
  }

  get state(): ReadyState {
    return this.#state;
  }

  /** Bumped on every transition to ready; a watch started in one generation ends with it. */
  get generation(): number {
    return this.#generation;
  }

  setReady(): void {
    if (this.#state !== 'pending') return;
    this.#state = 'ready';
    this.#generation++;
    this.#changedAt = this.#now();
    const waiting = this.#waiters;
    this.#waiters = [];
    for (const w of waiting) w.resolve();
  }

  setPending(): void {
    if (this.#state !== 'ready') return;
    this.#state = 'pending';
    this.#changedAt = this.#now();
  }

  stop(): void {
    if (this.#state === 'stopped') return;
    this.#state = 'stopped';
    this.#changedAt = this.#now();
    const waiting = this.#waiters;
    this.#waiters = [];
    for (const w of waiting) w.reject(new Error('apiserver cacher is stopped'));
  }

  /** Null when ready, else the 429 a request that needs the cache gets. */
  check(): StatusError | null {
    if (this.#state === 'ready') return null;
    const message = this.#state === 'stopped' ? 'apiserver cacher is stopped' : 'storage is (re)initializing';
    const retryAfterSeconds = retryAfterForUnreadyCache(this.#now() - this.#changedAt);
    // kube's NewTooManyRequests: the message as given (the machinery constructor prefixes it).
    return statusError({ reason: 'TooManyRequests', message, details: { retryAfterSeconds } });
  }

  /** Resolves when ready; rejects if stopped first. */
  wait(): Promise<void> {
    if (this.#state === 'ready') return Promise.resolve();
    if (this.#state === 'stopped') return Promise.reject(new Error('apiserver cacher is stopped'));
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }
}
