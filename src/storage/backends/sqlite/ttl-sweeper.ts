// TTL as etcd leases behave: a key written with a TTL stays readable until it expires and is then
// deleted by a tombstone, so watchers see a delete event at a revision of its own. Reads do not hide
// an expired key before the sweeper has run: a read at a revision must give the same answer whenever
// it is made, and hiding rows by the wall clock would break that. The delay is at most one sweep
// interval (default 1 s).
import type { WriteResult } from '../../kv/backend.js';
import type { Clock, ClockTimer } from '../../../machinery/time/clock.js';
import type { Statements } from './statements.js';

/** Expired keys deleted per sweep; the rest wait for the next one. */
const sweepBatch = 500;

export interface TtlSweeperDeps {
  readonly stmts: Statements;
  readonly now: () => number;
  readonly intervalMs: number;
  /** Runs the sweeps: the server's clock, so a virtual one expires keys when it is advanced. */
  readonly timers: Pick<Clock, 'setInterval'>;
  /** A compare-and-swap delete through the ordinary write path. */
  readonly del: (key: string, modRevision: number) => Promise<WriteResult>;
}

export class TtlSweeper {
  readonly #deps: TtlSweeperDeps;
  #timer: ClockTimer | null = null;
  #sweeping: Promise<void> | null = null;

  constructor(deps: TtlSweeperDeps) {
    this.#deps = deps;
    if (deps.intervalMs > 0) {
      this.#timer = deps.timers.setInterval(() => {
        this.sweep();
      }, deps.intervalMs);
    }
  }

  /** Deletes expired keys; a sweep already running is not started twice. */
  sweep(): void {
    if (this.#sweeping !== null) return;
    this.#sweeping = this.#sweepOnce().finally(() => {
      this.#sweeping = null;
    });
  }

  async #sweepOnce(): Promise<void> {
    let rows: { id: number; name: string }[];
    try {
      rows = this.#deps.stmts.expired.all(this.#deps.now(), sweepBatch);
    } catch {
      return; // The read fault surfaces to callers; try again next interval.
    }
    // A key rewritten meanwhile fails the comparison and keeps its new value: that is intended.
    await Promise.allSettled(rows.map((r) => this.#deps.del(r.name, r.id)));
  }

  async close(): Promise<void> {
    this.#timer?.cancel();
    this.#timer = null;
    await this.#sweeping;
  }
}
