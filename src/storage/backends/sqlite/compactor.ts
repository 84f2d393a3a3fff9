// Compaction (after kine's compactor): forget rows superseded at or below a revision and tombstones at
// or below it, in short transactions so writes interleave, then give the freed pages back to the file
// system. A built-in loop keeps at least the newest N revisions and everything from the last M ms.
// The work itself runs where the writes are committed (maintenance.ts); this decides what and when.
import { FutureRevisionError } from '../../kv/backend.js';
import type { MaintenanceOutcome, MaintenanceTask } from './maintenance.js';
import type { Clock, ClockTimer } from '../../../machinery/time/clock.js';

/** Revisions handled per compaction transaction: bounds how long one holds up the writes behind it. */
const chunkRevisions = 1_000;
/** Free pages returned to the file system per step. */
const vacuumPages = 512;
/** Free pages are given back only past this many (1 MiB of 4 KiB pages) and this share of the file. */
const reclaimMinPages = 256;
const reclaimMinShare = 0.25;
/** A WAL larger than this is checkpointed and truncated at each round. */
const walTruncateBytes = 1024 * 1024;

export interface CompactorDeps {
  /** Runs a task on the connection that commits the writes, between two of their transactions. */
  readonly maintain: (task: MaintenanceTask) => Promise<MaintenanceOutcome>;
  /** The file's free pages and all its pages, read on the backend's own connection. */
  readonly freePages: () => number;
  readonly pageCount: () => number;
  /** The compact revision recorded in the database at open. */
  readonly compactRevision: number;
  /** Size of the WAL file (0 for an in-memory database). */
  readonly walBytes: () => number;
  readonly currentRevision: () => number;
  readonly now: () => number;
  readonly minRetainRevisions: number;
  readonly minRetainMs: number;
  readonly intervalMs: number;
  readonly timers: Pick<Clock, 'setInterval'>;
  readonly fault: (doing: string, err: unknown) => Error;
  readonly closed: () => Error | null;
}

export class Compactor {
  readonly #deps: CompactorDeps;
  /**
   * Reads at or below it are refused: the target of the compaction under way, as etcd refuses reads
   * below a compaction it has scheduled. Its rows go in chunks on the writer thread, which may have
   * deleted a chunk's rows before its answer reaches this thread.
   */
  #compactRevision: number;
  /** Where the chunks done so far reach (the compact revision the file records). */
  #compacted: number;
  /** Revision marks: every revision ≤ rev was committed at or before `at`. */
  readonly #marks: { at: number; rev: number }[] = [];
  #running: Promise<void> = Promise.resolve();
  /** The built-in round in progress, if any. */
  #round: Promise<void> | null = null;
  #timer: ClockTimer | null = null;

  constructor(deps: CompactorDeps) {
    this.#deps = deps;
    this.#compactRevision = deps.compactRevision;
    this.#compacted = deps.compactRevision;
    this.#mark();
    if (deps.intervalMs > 0) {
      this.#timer = deps.timers.setInterval(() => {
        this.#startRound();
      }, deps.intervalMs);
    }
  }

  get compactRevision(): number {
    return this.#compactRevision;
  }

  /** Compacts up to `revision`; a revision at or below the compacted one is already done. */
  compact(revision: number): Promise<void> {
    const current = this.#deps.currentRevision();
    if (revision > current) return Promise.reject(new FutureRevisionError(revision, current));
    const run = this.#running.then(() => this.#compactTo(revision));
    this.#running = run.catch(() => undefined);
    return run;
  }

  /** The revision the retention rules allow compacting to right now. */
  retentionTarget(): number {
    const byCount = this.#deps.currentRevision() - this.#deps.minRetainRevisions;
    const horizon = this.#deps.now() - this.#deps.minRetainMs;
    let byTime = 0;
    for (const m of this.#marks) if (m.at <= horizon) byTime = m.rev;
    return Math.max(0, Math.min(byCount, byTime));
  }

  /** Starts a round of the built-in compactor unless one is still running. */
  #startRound(): void {
    if (this.#round !== null) return;
    this.#round = this.#runRound()
      .catch(() => {
        // A fault here shows up again on the next write or read; the next round retries.
      })
      .finally(() => {
        this.#round = null;
      });
  }

  async #runRound(): Promise<void> {
    this.#mark();
    const target = this.retentionTarget();
    if (target > this.#compactRevision) await this.compact(target);
    await this.#reclaim();
  }

  #mark(): void {
    const now = this.#deps.now();
    this.#marks.push({ at: now, rev: this.#deps.currentRevision() });
    const horizon = now - this.#deps.minRetainMs;
    // Keep the newest mark past the horizon (it is the one retentionTarget uses) and all after it.
    while (this.#marks.length > 1 && (this.#marks[1]?.at ?? Infinity) <= horizon) this.#marks.shift();
  }

  async #compactTo(revision: number): Promise<void> {
    this.#compactRevision = Math.max(this.#compactRevision, revision);
    while (this.#compacted < revision) {
      const lo = this.#compacted;
      const hi = Math.min(revision, lo + chunkRevisions);
      try {
        this.#throwIfClosed();
        await this.#deps.maintain({ kind: 'compact', lo, hi });
      } catch (err) {
        // A chunk that failed rolled back: the revisions above the chunks done are read again.
        this.#compactRevision = this.#compacted;
        throw this.#deps.fault('compact', err);
      }
      this.#compacted = hi;
    }
  }

  /**
   * Hands free pages back to the file system once there are enough of them to matter, and truncates
   * the WAL so the shrink reaches the disk. Fewer free pages are left for new rows to reuse: under
   * steady updates the file then stays flat instead of shrinking and regrowing at every round.
   * Between rounds SQLite's auto-checkpoint (1000 pages) and journal_size_limit bound the WAL.
   */
  async #reclaim(): Promise<void> {
    const deps = this.#deps;
    try {
      let free = deps.freePages();
      const vacuum = free >= Math.max(reclaimMinPages, deps.pageCount() * reclaimMinShare);
      while (vacuum && free > 0) {
        this.#throwIfClosed();
        const left = (await deps.maintain({ kind: 'vacuum', pages: vacuumPages })).freePages;
        // A file created without auto_vacuum keeps its free pages; stop rather than spin.
        if (left >= free) break;
        free = left;
      }
      this.#throwIfClosed();
      if (vacuum || deps.walBytes() > walTruncateBytes) await deps.maintain({ kind: 'checkpoint' });
    } catch (err) {
      throw this.#deps.fault('reclaim space', err);
    }
  }

  #throwIfClosed(): void {
    const err = this.#deps.closed();
    if (err !== null) throw err;
  }

  /** Stops the loop; resolves when a running round has stopped. */
  async close(): Promise<void> {
    this.#timer?.cancel();
    this.#timer = null;
    await Promise.all([this.#running, this.#round]);
  }
}
