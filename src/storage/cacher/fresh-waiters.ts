// Reads that must see at least a resourceVersion wait here until the cache reaches it, for at most
// kube's blockTimeout, then fail with 504 "Too large resource version" (watch_cache.go's
// waitUntilFreshAndBlock). While anyone waits, storage is asked for progress so a quiet resource
// still catches up (kube's conditionalProgressRequester).
import { tooLargeResourceVersion } from '../api-errors.js';

/** kube's resourceVersionTooHighRetrySeconds. */
const retryAfterSeconds = 1;

interface Waiter {
  readonly rv: number;
  readonly resolve: () => void;
  readonly reject: (err: unknown) => void;
  readonly timer: NodeJS.Timeout;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
}

export interface FreshWaitersOptions {
  readonly timeoutMs: number;
  readonly progressIntervalMs: number;
  readonly requestProgress: () => void;
}

export class FreshWaiters {
  readonly #opts: FreshWaitersOptions;
  readonly #waiters = new Set<Waiter>();
  #progressTimer: NodeJS.Timeout | null = null;
  #current: () => number;

  constructor(opts: FreshWaitersOptions, current: () => number) {
    this.#opts = opts;
    this.#current = current;
  }

  get waiting(): number {
    return this.#waiters.size;
  }

  /**
   * Resolves once the cache is at `rv` or later. The signal is read only when there is a wait: a
   * request makes its signal when first asked for it.
   */
  wait(rv: number, opts: { readonly signal?: AbortSignal | undefined } = {}): Promise<void> {
    if (rv <= this.#current()) return Promise.resolve();
    const signal = opts.signal;
    signal?.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#settle(waiter, tooLargeResourceVersion(rv, this.#current(), retryAfterSeconds));
      }, this.#opts.timeoutMs);
      const onAbort = (): void => {
        this.#settle(waiter, signal?.reason);
      };
      const waiter: Waiter = { rv, resolve, reject, timer, signal, onAbort };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.add(waiter);
      this.#startProgress();
    });
  }

  /** Wakes every waiter the cache's resourceVersion now satisfies. */
  advanced(rv: number): void {
    if (this.#waiters.size === 0) return;
    for (const w of this.#waiters) if (w.rv <= rv) this.#settle(w, null);
  }

  /** Fails every waiter (the cacher stopped). */
  close(err: unknown): void {
    for (const w of this.#waiters) this.#settle(w, err);
  }

  #settle(w: Waiter, err: unknown): void {
    if (!this.#waiters.delete(w)) return;
    clearTimeout(w.timer);
    w.signal?.removeEventListener('abort', w.onAbort);
    if (err === null) w.resolve();
    else w.reject(err);
    if (this.#waiters.size === 0) this.#stopProgress();
  }

  #startProgress(): void {
    if (this.#progressTimer !== null) return;
    this.#opts.requestProgress();
    this.#progressTimer = setInterval(() => {
      this.#opts.requestProgress();
    }, this.#opts.progressIntervalMs);
    this.#progressTimer.unref();
  }

  #stopProgress(): void {
    if (this.#progressTimer !== null) clearInterval(this.#progressTimer);
    this.#progressTimer = null;
  }
}
