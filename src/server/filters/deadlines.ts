// The request timeout's clock: one timer per timeout length instead of one per request. Requests
// given the same length expire in the order they arrived, so each length keeps its deadlines in a
// queue and one timer armed for the oldest; a request that ends only marks its entry, and entries
// are swept from the front as they end or expire.
import { longestNodeTimerMs, longTimeout } from '../../machinery/time/clock.js';

/** One request's deadline; `expire` is dropped once the request has ended. */
interface Entry {
  readonly at: number;
  expire: (() => void) | undefined;
}

// Beyond this many lengths in use (each `?timeout=` value is one), a request gets its own timer.
const maxQueues = 64;

class DeadlineQueue {
  readonly #ms: number;
  #entries: Entry[] = [];
  #head = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(ms: number) {
    this.#ms = ms;
  }

  get empty(): boolean {
    return this.#head === this.#entries.length;
  }

  add(expire: () => void): Entry {
    const entry: Entry = { at: performance.now() + this.#ms, expire };
    this.#entries.push(entry);
    if (this.#timer === undefined) this.#arm(entry.at);
    return entry;
  }

  /** The request ended: its entry goes, with the ended ones at the front. */
  end(entry: Entry): void {
    entry.expire = undefined;
    this.#sweep();
  }

  #sweep(): void {
    const entries = this.#entries;
    while (this.#head < entries.length && entries[this.#head]?.expire === undefined) this.#head++;
    if (this.#head === entries.length) {
      this.#entries = [];
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= entries.length) {
      this.#entries = entries.slice(this.#head);
      this.#head = 0;
    }
  }

  #arm(at: number): void {
    // A deadline beyond Node's longest timer (a --request-timeout of weeks) is re-armed when it fires early.
    const ms = Math.min(longestNodeTimerMs, Math.max(1, Math.ceil(at - performance.now())));
    this.#timer = setTimeout(this.#fire, ms);
    // The requests keep the process alive, not their deadlines.
    this.#timer.unref();
  }

  readonly #fire = (): void => {
    this.#timer = undefined;
    const now = performance.now();
    this.#sweep();
    for (let first = this.#entries[this.#head]; first !== undefined; first = this.#entries[this.#head]) {
      if (first.expire !== undefined && first.at > now) {
        this.#arm(first.at);
        return;
      }
      const expire = first.expire;
      first.expire = undefined;
      this.#head++;
      expire?.();
    }
    this.#sweep();
  };

  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/** Deadlines of requests in flight: `expire` runs when `ms` pass before `end` is called. */
export class Deadlines {
  readonly #queues = new Map<number, DeadlineQueue>();

  /** Starts the clock of one request; the returned function ends it. */
  start(ms: number, expire: () => void): () => void {
    let queue = this.#queues.get(ms);
    if (queue === undefined) {
      if (this.#queues.size >= maxQueues) this.#dropIdle();
      if (this.#queues.size >= maxQueues) return ownTimer(ms, expire);
      queue = new DeadlineQueue(ms);
      this.#queues.set(ms, queue);
    }
    const q = queue;
    const entry = q.add(expire);
    return () => {
      q.end(entry);
    };
  }

  #dropIdle(): void {
    for (const [ms, queue] of this.#queues) {
      if (!queue.empty) continue;
      queue.close();
      this.#queues.delete(ms);
    }
  }

  close(): void {
    for (const queue of this.#queues.values()) queue.close();
    this.#queues.clear();
  }
}

function ownTimer(ms: number, expire: () => void): () => void {
  const timer = longTimeout(expire, ms);
  return () => {
    timer.cancel();
  };
}
