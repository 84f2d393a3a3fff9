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
  readonly #onTake: (() => void) | undefined;
  #resolveDone!: () => void;
  readonly done: Promise<void>;

  /** `onTake` is called as the consumer takes each event (there is room again). */
  constructor(opts: { capacity?: number; onStop?: () => void; onTake?: () => void } = {}) {
    this.#capacity = opts.capacity ?? Number.POSITIVE_INFINITY;
    this.#onStop = opts.onStop;
    this.#onTake = opts.onTake;
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

  /** The next queued event, its slot let go of; undefined when none is queued. */
  #take(): WatchEvent<T> | undefined {
    if (this.#head >= this.#queue.length) return undefined;
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
    this.#onTake?.();
    return ev;
  }

  /**
   * The events in order, then the end (which stops the watch, as does the consumer's return()).
   * A plain iterator, not an async generator: one promise per event, where a generator makes
   * several more for each, on every watch an event passes through.
   */
  [Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>> {
    return {
      next: () => this.#next(),
      return: () => {
        this.stop();
        return Promise.resolve(finished);
      },
    };
  }

  #next(): Promise<IteratorResult<WatchEvent<T>>> {
    const ev = this.#take();
    if (ev !== undefined) return Promise.resolve({ value: ev, done: false });
    if (this.#closed) {
      this.stop();
      return Promise.resolve(finished);
    }
    return new Promise((resolve) => {
      const wait = (): void => {
        const e = this.#take();
        if (e !== undefined) resolve({ value: e, done: false });
        else if (this.#closed) {
          this.stop();
          resolve(finished);
        } else this.#waiter = wait;
      };
      this.#waiter = wait;
    });
  }
}

const finished: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });
