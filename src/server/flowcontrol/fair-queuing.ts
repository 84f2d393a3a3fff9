// Fair queuing by priority level (a simplified kube util/flowcontrol/fairqueuing): the server's
// concurrency (--max-requests-inflight + --max-mutating-requests-inflight) is shared among the
// levels in proportion to their nominal concurrency shares; a request beyond its level's share
// waits in one of the level's queues, chosen by shuffle sharding on its flow (FlowSchema and
// distinguisher), or is refused when the level rejects, its queue is full or it waited a quarter
// of the request timeout. Queues are served round robin. Exempt levels never wait. No borrowing
// between levels, and every request takes one seat.
import type { Classification, LevelSettings } from './classifier.js';

interface Waiter {
  readonly admit: () => void;
}

/** FNV-1a over the flow's name, for shuffle sharding. */
function hashFlow(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The shortest of the `handSize` queues dealt to `hash` (shufflesharding.Dealer's deal). */
function shortestOfHand(queues: readonly (readonly Waiter[])[], handSize: number, hash: number): number {
  const deck = queues.length;
  const hand = Math.min(handSize, deck);
  const picked: number[] = [];
  let value = hash;
  let best = -1;
  for (let i = 0; i < hand; i++) {
    let card = value % (deck - i);
    value = Math.floor(value / (deck - i));
    for (const p of [...picked].sort((a, b) => a - b)) if (card >= p) card++;
    picked.push(card);
    if (best < 0 || (queues[card]?.length ?? 0) < (queues[best]?.length ?? 0)) best = card;
  }
  return best;
}

class LevelQueues {
  #settings: LevelSettings;
  #queues: Waiter[][];
  #next = 0;
  executing = 0;
  limit = 1;

  constructor(settings: LevelSettings) {
    this.#settings = settings;
    this.#queues = Array.from({ length: Math.max(1, settings.queues) }, () => []);
  }

  configure(settings: LevelSettings, limit: number): void {
    this.limit = limit;
    if (settings === this.#settings) return;
    this.#settings = settings;
    const waiting = this.#queues.flat();
    this.#queues = Array.from({ length: Math.max(1, settings.queues) }, () => []);
    waiting.forEach((w, i) => this.#queues[i % this.#queues.length]?.push(w));
  }

  /** Resolves true once the request may run, false when it is refused. */
  acquire(flow: string, waitLimitMs: number, signal: AbortSignal): Promise<boolean> {
    if (this.executing < this.limit) {
      this.executing++;
      return Promise.resolve(true);
    }
    if (this.#settings.reject) return Promise.resolve(false);
    const queue = this.#queues[shortestOfHand(this.#queues, this.#settings.handSize, hashFlow(flow))];
    if (queue === undefined || queue.length >= this.#settings.queueLengthLimit) return Promise.resolve(false);
    return new Promise((resolve) => {
      const leave = (admitted: boolean): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', abandon);
        resolve(admitted);
      };
      const waiter: Waiter = {
        admit: () => {
          leave(true);
        },
      };
      const abandon = (): void => {
        const i = queue.indexOf(waiter);
        if (i >= 0) queue.splice(i, 1);
        leave(false);
      };
      const timer = setTimeout(abandon, waitLimitMs);
      signal.addEventListener('abort', abandon, { once: true });
      queue.push(waiter);
    });
  }

  /** A request ended: its seat goes to the next queue in turn that has a waiter. */
  release(): void {
    this.executing--;
    for (let i = 0; i < this.#queues.length && this.executing < this.limit; i++) {
      const index = (this.#next + i) % this.#queues.length;
      const waiter = this.#queues[index]?.shift();
      if (waiter === undefined) continue;
      this.#next = (index + 1) % this.#queues.length;
      this.executing++;
      waiter.admit();
      return;
    }
  }
}

export interface FairQueuingOptions {
  /** --max-requests-inflight + --max-mutating-requests-inflight. */
  readonly serverConcurrency: number;
  /** How long a request may wait in a queue (kube: a quarter of --request-timeout). */
  readonly waitLimitMs: number;
}

export class FairQueuing {
  readonly #opts: FairQueuingOptions;
  readonly #levels = new Map<string, LevelQueues>();

  constructor(opts: FairQueuingOptions) {
    this.#opts = opts;
  }

  /**
   * Waits for a seat at the request's level; resolves the function that gives it back, or
   * undefined when the request is refused. Exempt requests take no seat.
   */
  async acquire(
    c: Classification,
    flow: { readonly distinguisher: string; readonly totalShares: number; readonly signal: AbortSignal },
  ): Promise<(() => void) | undefined> {
    if (c.exempt) return () => undefined;
    let level = this.#levels.get(c.priorityLevelName);
    if (level === undefined) {
      level = new LevelQueues(c.level);
      this.#levels.set(c.priorityLevelName, level);
    }
    const total = Math.max(1, flow.totalShares);
    level.configure(c.level, Math.max(1, Math.ceil((this.#opts.serverConcurrency * c.level.shares) / total)));
    const key = `${c.flowSchemaName}\u0000${flow.distinguisher}`;
    if (!(await level.acquire(key, this.#opts.waitLimitMs, flow.signal))) return undefined;
    const seat = level;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      seat.release();
    };
  }
}
