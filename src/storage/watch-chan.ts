import type { Status } from '../api/meta.js';
import type { KubeObject } from '../api/meta.js';

/** An object's storage key (as the storage's callers name keys), stored bytes and revision. */
export interface StoredState {
  readonly key: string;
  readonly data: Buffer;
  readonly revision: number;
}

export type WatchEvent<T extends KubeObject = KubeObject> =
  | {
      readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';
      readonly object: T;
      /** Where and as what bytes the object is stored (no resourceVersion), when at hand. */
      readonly stored?: StoredState;
    }
  | { readonly type: 'ERROR'; readonly object: Status };

/** watch.Interface: events in order until the watch ends; stop() ends it from the consumer side. */
export interface Watch<T extends KubeObject = KubeObject> extends AsyncIterable<WatchEvent<T>> {
  stop(): void;
  /** Resolves when the watch has ended for any reason. */
  readonly done: Promise<void>;
}

/**
 * A bounded, single-consumer event queue with an async iterator. A producer that overruns
 * `capacity` makes push() return false; the producer then ends the watch (the client relists)
 * rather than buffering without bound, as kube's cacher does with slow watchers.
 */
export class WatchChan<T extends KubeObject = KubeObject> implements Watch<T> {
  readonly #capacity: number;
  readonly #queue: (WatchEvent<T> | undefined)[] = [];
  #head = 0;
  #closed = false;
  #waiter: (() => void) | null = null;
  readonly #onStop: (() => void) | undefined;
  #resolveDone!: () => void;
  readonly done: Promise<void>;

  constructor(opts: { capacity?: number; onStop?: () => void } = {}) {
    this.#capacity = opts.capacity ?? Number.POSITIVE_INFINITY;
    this.#onStop = opts.onStop;
    this.done = new Promise((resolve) => (this.#resolveDone = resolve));
  }

  get closed(): boolean {
    return this.#closed;
  }

  get pending(): number {
    return this.#queue.length - this.#head;
  }

  /** Queues an event; false when the watch is closed or the consumer is too far behind. */
  push(event: WatchEvent<T>): boolean {
    if (this.#closed) return false;
    if (this.pending >= this.#capacity) return false;
    this.#queue.push(event);
    this.#wake();
    return true;
  }

  /** Ends the watch after the queued events; an error event goes out last if given. */
  close(errorEvent?: WatchEvent<T>): void {
    if (this.#closed) return;
    if (errorEvent !== undefined) this.#queue.push(errorEvent);
    this.#closed = true;
    this.#wake();
    if (this.pending === 0) this.#resolveDone();
  }

  stop(): void {
    const wasClosed = this.#closed;
    this.#queue.length = 0;
    this.#head = 0;
    this.#closed = true;
    this.#wake();
    this.#resolveDone();
    if (!wasClosed) this.#onStop?.();
  }

  #wake(): void {
    const w = this.#waiter;
    if (w !== null) {
      this.#waiter = null;
      w();
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>> {
    try {
      for (;;) {
        if (this.#head < this.#queue.length) {
          const ev = this.#queue[this.#head] as WatchEvent<T>;
          // A consumed slot lets go of its event at once: left in place until the next splice, up to
          // a thousand events of a busy store (each with its object and bytes) outlived their use,
          // long enough to be promoted into the old generation, and stayed after a burst ended.
          this.#queue[this.#head++] = undefined;
          if (this.#head === this.#queue.length) {
            this.#queue.length = 0;
            this.#head = 0;
          } else if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
            this.#queue.splice(0, this.#head);
            this.#head = 0;
          }
          yield ev;
          continue;
        }
        if (this.#closed) return;
        await new Promise<void>((resolve) => (this.#waiter = resolve));
      }
    } finally {
      this.stop();
    }
  }
}
