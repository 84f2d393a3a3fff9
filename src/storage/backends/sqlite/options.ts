// Options of the SQLite backend: validated once by completeSqliteOptions(), then frozen.
import { systemClock, type Clock } from '../../../machinery/time/clock.js';

export interface SqliteCompactionOptions {
  /** Keep at least this many of the newest revisions (default 1000, kine's retention). */
  readonly minRetainRevisions?: number;
  /** Keep every revision committed within this many milliseconds (default 5 minutes). */
  readonly minRetainMs?: number;
  /** How often the built-in compactor runs; 0 turns it off (default 60 s). */
  readonly intervalMs?: number;
}

export interface SqliteBackendOptions {
  /** The database file, or ':memory:' for the same engine on an in-memory database. */
  readonly path: string;
  readonly compaction?: SqliteCompactionOptions;
  /** Period of onProgress for watches that asked for progressNotify (default 5 s). */
  readonly progressNotifyIntervalMs?: number;
  /** How often expired TTL keys are deleted (default 1 s). */
  readonly ttlSweepIntervalMs?: number;
  /** How long to wait for a lock held by another connection before failing (default 100 ms). */
  readonly busyTimeoutMs?: number;
  /** Refuse writes that would grow the database past this many bytes, like etcd's quota (0 = no quota). */
  readonly quotaBytes?: number;
  /** Wall clock in milliseconds, for TTL expiry and the compactor's time window (default: the clock's). */
  readonly now?: () => number;
  /** The server's clock: TTL expiry, the compactor's window and their timers (default: the system's). */
  readonly clock?: Clock;
  /**
   * A database image (another backend's serialize()) to start from: an in-memory database opens it
   * directly; a file is written from it when it does not exist yet. A fork of a test snapshot.
   */
  readonly image?: Buffer;
}

declare const completed: unique symbol;

export interface CompletedSqliteOptions {
  readonly [completed]: true;
  readonly path: string;
  readonly memory: boolean;
  readonly minRetainRevisions: number;
  readonly minRetainMs: number;
  readonly compactionIntervalMs: number;
  readonly progressNotifyIntervalMs: number;
  readonly ttlSweepIntervalMs: number;
  readonly busyTimeoutMs: number;
  readonly quotaBytes: number;
  readonly now: () => number;
  readonly clock: Clock;
  readonly image: Buffer | undefined;
}

export const sqliteDefaults = Object.freeze({
  minRetainRevisions: 1000,
  minRetainMs: 5 * 60_000,
  compactionIntervalMs: 60_000,
  progressNotifyIntervalMs: 5_000,
  ttlSweepIntervalMs: 1_000,
  busyTimeoutMs: 100,
  quotaBytes: 0,
});

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback;
  if (!Number.isSafeInteger(v) || v < 0) {
    throw new RangeError(`sqlite backend: ${name} must be a non-negative integer, got ${String(value)}`);
  }
  return v;
}

export function completeSqliteOptions(opts: SqliteBackendOptions): CompletedSqliteOptions {
  if (typeof opts.path !== 'string' || opts.path === '') {
    throw new RangeError("sqlite backend: path must be a file path or ':memory:'");
  }
  const c = opts.compaction ?? {};
  const clock = opts.clock ?? systemClock;
  const d = sqliteDefaults;
  const out = {
    path: opts.path,
    memory: opts.path === ':memory:',
    minRetainRevisions: nonNegative(
      'compaction.minRetainRevisions',
      c.minRetainRevisions,
      d.minRetainRevisions,
    ),
    minRetainMs: nonNegative('compaction.minRetainMs', c.minRetainMs, d.minRetainMs),
    compactionIntervalMs: nonNegative('compaction.intervalMs', c.intervalMs, d.compactionIntervalMs),
    progressNotifyIntervalMs: nonNegative(
      'progressNotifyIntervalMs',
      opts.progressNotifyIntervalMs,
      d.progressNotifyIntervalMs,
    ),
    ttlSweepIntervalMs: nonNegative('ttlSweepIntervalMs', opts.ttlSweepIntervalMs, d.ttlSweepIntervalMs),
    busyTimeoutMs: nonNegative('busyTimeoutMs', opts.busyTimeoutMs, d.busyTimeoutMs),
    quotaBytes: nonNegative('quotaBytes', opts.quotaBytes, d.quotaBytes),
    now: opts.now ?? (opts.clock === undefined ? Date.now : () => clock.now()),
    clock,
    image: opts.image,
  };
  return Object.freeze(out) as CompletedSqliteOptions;
}
