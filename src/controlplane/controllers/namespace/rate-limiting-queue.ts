// A rate-limited, delaying work queue (k8s.io/client-go/util/workqueue): a key is queued at most
// once, is never handed to two workers at the same time (a key added while processed is queued
// again when done), can be added after a delay, and failures back off per key exponentially.

export interface RateLimitingQueueOptions {
  /** The first retry delay after a failure (kube: 5ms). */
  readonly baseDelayMs?: number;
  /** The longest retry delay (kube's namespace controller: 60s). */
  readonly maxDelayMs?: number;
}

export class RateLimitingQueue {
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #ready: string[] = [];
  /** Keys waiting to be processed (queued, or to be queued again when their processing ends). */
  readonly #dirty = new Set<string>();
  readonly #processing = new Set<string>();
  readonly #waiting = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  readonly #failures = new Map<string, number>();
  readonly #getters: ((key: string | undefined) => void)[] = [];
  #shutDown = false;

  constructor(opts: RateLimitingQueueOptions = {}) {
    this.#baseDelayMs = opts.baseDelayMs ?? 5;
    this.#maxDelayMs = opts.maxDelayMs ?? 60_000;
  }

  get length(): number {
    return this.#ready.length;
  }

  add(key: string): void {
    if (this.#shutDown || this.#dirty.has(key)) return;
    this.#dirty.add(key);
    if (this.#processing.has(key)) return;
    const getter = this.#getters.shift();
    if (getter === undefined) this.#ready.push(key);
    else {
      this.#dirty.delete(key);
      this.#processing.add(key);
      getter(key);
    }
  }

  /** Adds the key once `ms` have passed; a key already waiting keeps the earlier of the two times. */
  addAfter(key: string, ms: number): void {
    if (this.#shutDown) return;
    if (ms <= 0) {
      this.add(key);
      return;
    }
    const at = Date.now() + ms;
    const current = this.#waiting.get(key);
    if (current !== undefined) {
      if (current.at <= at) return;
      clearTimeout(current.timer);
    }
    const timer = setTimeout(() => {
      this.#waiting.delete(key);
      this.add(key);
    }, ms);
    this.#waiting.set(key, { at, timer });
  }

  /** Adds the key after its backoff: base × 2^failures, at most the maximum. */
  addRateLimited(key: string): void {
    const failures = this.#failures.get(key) ?? 0;
    this.#failures.set(key, failures + 1);
    this.addAfter(key, Math.min(this.#baseDelayMs * 2 ** failures, this.#maxDelayMs));
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
      this.#dirty.delete(key);
      this.#processing.add(key);
      return Promise.resolve(key);
    }
    return new Promise((resolve) => this.#getters.push(resolve));
  }

  /** Marks the key processed; queues it again when it was added meanwhile. */
  done(key: string): void {
    this.#processing.delete(key);
    if (this.#dirty.delete(key)) this.add(key);
  }

  /** Ends the queue: waiting getters get undefined, delayed adds are dropped. */
  close(): void {
    this.#shutDown = true;
    for (const { timer } of this.#waiting.values()) clearTimeout(timer);
    this.#waiting.clear();
    this.#ready.length = 0;
    for (const getter of this.#getters.splice(0)) getter(undefined);
  }
}
