// Fair queuing by priority level (a simplified kube util/flowcontrol/fairqueuing): the server's
// concurrency (--max-requests-inflight + --max-mutating-requests-inflight) is divided among the
// levels: each level's nominal limit comes from its share of the nominal concurrency shares, and
// every adjustment period (kube's is 10 s) the current limits are re-divided by the levels' seat
// demand, lending and borrowing within each level's lendablePercent and borrowingLimitPercent
// (borrowing.ts). A request beyond its level's current limit waits in one of the level's queues,
// chosen by shuffle sharding on its flow (FlowSchema and distinguisher), or is refused when the
// level rejects, its queue is full or it waited a quarter of the request timeout. Queues are served
// round robin. Exempt levels never wait, but their demand counts in the division. Every request
// takes one seat.
import {
  allocate,
  allocationItem,
  levelLimits,
  SeatDemandIntegrator,
  SeatDemandStats,
  type LevelLimits,
} from './borrowing.js';
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
  /** The current limit (at least one seat, so a level with nothing running can always run one). */
  limit = 1;
  limits: LevelLimits = { nominal: 0, min: 0, max: 0 };
  readonly demand: SeatDemandIntegrator;
  readonly stats = new SeatDemandStats();

  readonly name: string;

  constructor(name: string, settings: LevelSettings, now: () => number) {
    this.name = name;
    this.#settings = settings;
    this.#queues = Array.from({ length: Math.max(1, settings.queues) }, () => []);
    this.demand = new SeatDemandIntegrator(now);
  }

  configure(settings: LevelSettings): void {
    if (settings === this.#settings) return;
    this.#settings = settings;
    const waiting = this.#queues.flat();
    this.#queues = Array.from({ length: Math.max(1, settings.queues) }, () => []);
    waiting.forEach((w, i) => this.#queues[i % this.#queues.length]?.push(w));
  }

  /** A new current limit; waiters the higher limit has room for are admitted. */
  setLimit(limit: number): void {
    this.limit = Math.max(1, limit);
    while (this.executing < this.limit && this.#admitNext()) {
      /* admitted one */
    }
  }

  /** An exempt request: counted in the demand, never held. */
  enterExempt(): void {
    this.executing++;
    this.demand.add(1);
  }

  /** Resolves true once the request may run, false when it is refused. */
  acquire(flow: string, waitLimitMs: number, signal: AbortSignal): Promise<boolean> {
    if (this.executing < this.limit) {
      this.executing++;
      this.demand.add(1);
      return Promise.resolve(true);
    }
    if (this.#settings.reject) return Promise.resolve(false);
    const queue = this.#queues[shortestOfHand(this.#queues, this.#settings.handSize, hashFlow(flow))];
    if (queue === undefined || queue.length >= this.#settings.queueLengthLimit) return Promise.resolve(false);
    this.demand.add(1);
    return new Promise((resolve) => {
      const leave = (admitted: boolean): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', abandon);
        if (!admitted) this.demand.add(-1);
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
    this.demand.add(-1);
    if (this.executing < this.limit) this.#admitNext();
  }

  #admitNext(): boolean {
    for (let i = 0; i < this.#queues.length; i++) {
      const index = (this.#next + i) % this.#queues.length;
      const waiter = this.#queues[index]?.shift();
      if (waiter === undefined) continue;
      this.#next = (index + 1) % this.#queues.length;
      this.executing++;
      waiter.admit();
      return true;
    }
    return false;
  }
}

export interface FairQueuingOptions {
  /** --max-requests-inflight + --max-mutating-requests-inflight. */
  readonly serverConcurrency: number;
  /** How long a request may wait in a queue (kube: a quarter of --request-timeout). */
  readonly waitLimitMs: number;
  /** Milliseconds for the demand integrators; performance.now() by default. */
  readonly now?: () => number;
}

/** The priority levels in force, by name (a RequestClassifier's). */
export interface LevelConfiguration {
  readonly levels: ReadonlyMap<string, LevelSettings>;
}

export class FairQueuing {
  readonly #opts: FairQueuingOptions;
  readonly #now: () => number;
  readonly #levels = new Map<string, LevelQueues>();
  #config: LevelConfiguration | undefined;
  /** The nominal limits' sum: what the current limits are divided from. */
  #nominalSum = 0;

  constructor(opts: FairQueuingOptions) {
    this.#opts = opts;
    this.#now = opts.now ?? (() => performance.now());
  }

  /**
   * Waits for a seat at the request's level; resolves the function that gives it back, or
   * undefined when the request is refused. Exempt requests take no seat.
   */
  async acquire(
    c: Classification,
    flow: {
      readonly distinguisher: string;
      readonly config: LevelConfiguration;
      readonly signal: AbortSignal;
    },
  ): Promise<(() => void) | undefined> {
    if (flow.config !== this.#config) this.#configure(flow.config);
    const level = this.#levels.get(c.priorityLevelName) ?? this.#level(c.priorityLevelName, c.level);
    if (c.exempt) {
      level.enterExempt();
      return once(() => {
        level.release();
      });
    }
    const key = `${c.flowSchemaName}\u0000${flow.distinguisher}`;
    if (!(await level.acquire(key, this.#opts.waitLimitMs, flow.signal))) return undefined;
    return once(() => {
      level.release();
    });
  }

  /** The current limit of a level (undefined before it is known). */
  limitOf(level: string): number | undefined {
    return this.#levels.get(level)?.limit;
  }

  /**
   * The periodic adjustment: each level's demand over the period just ended sets its target, and
   * the nominal limits' sum is divided anew by the targets within the levels' bounds.
   */
  adjust(): void {
    const config = this.#config?.levels;
    const levels = [...this.#levels.values()].filter((l) => config?.has(l.name) === true);
    for (const l of levels) l.stats.update(l.demand.reset());
    const shares = allocate(
      this.#nominalSum,
      levels.map((l) => allocationItem(l.limits, l.stats)),
    );
    levels.forEach((l, i) => {
      l.setLimit(Math.round(shares[i] ?? 0));
    });
  }

  #level(name: string, settings: LevelSettings): LevelQueues {
    const level = new LevelQueues(name, settings, this.#now);
    this.#levels.set(name, level);
    return level;
  }

  /** A new configuration: every level's bounds from its shares, then a division at once. */
  #configure(config: LevelConfiguration): void {
    this.#config = config;
    const serverConcurrency = this.#opts.serverConcurrency;
    let shareSum = 0;
    for (const s of config.levels.values()) shareSum += s.shares;
    this.#nominalSum = 0;
    for (const [name, settings] of config.levels) {
      const level = this.#levels.get(name) ?? this.#level(name, settings);
      level.configure(settings);
      level.limits = levelLimits(settings, serverConcurrency, shareSum);
      this.#nominalSum += level.limits.nominal;
    }
    this.adjust();
  }
}

/** A release that runs once however often it is called. */
function once(release: () => void): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    release();
  };
}
