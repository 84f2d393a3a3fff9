// The embedded kv backend: a kine-style log table in one SQLite file owned by this process. The parts:
// schema.ts (layout), group-commit.ts (writes), watch-hub.ts and catch-up.ts (watch), compactor.ts,
// ttl-sweeper.ts; README.md draws them together.
import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import {
  CompactedError,
  FutureRevisionError,
  type Backend,
  type BackendWatch,
  type KeyRange,
  type KeyValue,
  type KvEvent,
  type RangeResult,
  type WatchCallbacks,
  type WatchRequest,
  type WriteResult,
} from '../../kv/backend.js';
import { liveKv, type WriteOp } from './apply-write.js';
import { Compactor } from './compactor.js';
import { compactRevisionKey, freePages, pageCount } from './maintenance.js';
import { GroupCommitter, type Committer, type GroupCommitStats } from './group-commit.js';
import { catchUp, type CatchUpDeps } from './catch-up.js';
import { listRowKv, pick, rangeParams } from './history.js';
import type { KeyHistory } from '../../kv/key-history.js';
import { keyHistoryReader } from './key-history.js';
import { openDatabase } from './open-database.js';
import { completeSqliteOptions, type CompletedSqliteOptions, type SqliteBackendOptions } from './options.js';
import { closedError, openFault, sqliteFault } from './sqlite-errors.js';
import { prepareStatements, type Statements } from './statements.js';
import { TtlSweeper } from './ttl-sweeper.js';
import { WatchHub } from './watch-hub.js';
import { HandoffCommitter } from './handoff-committer.js';
import { WriterCommitter } from './writer-committer.js';

export interface SqliteBackendStats extends GroupCommitStats {
  readonly watchers: number;
}

/**
 * How long the writer thread waits for a lock the backend's own connection holds: compaction's short
 * transactions and checkpoints. Waiting costs the event loop nothing there, and a write that gave up
 * would fail for no fault of its own.
 */
const writerBusyTimeoutMs = 10_000;

export class SqliteBackend implements Backend {
  readonly type: 'sqlite' | 'memory';
  /** The only writer of its file: the revision lives in this process. */
  readonly local = true;
  readonly path: string;
  readonly #opts: CompletedSqliteOptions;
  readonly #db: Database.Database;
  /** The lock that makes a file this process's alone (null for the in-memory database). */
  readonly #lock: Database.Database | null;
  readonly #stmts: Statements;
  readonly #writes: Committer;
  readonly #hub: WatchHub;
  readonly #compactor: Compactor;
  readonly #sweeper: TtlSweeper;
  readonly #catchUpDeps: CatchUpDeps;
  #readHistory: ReturnType<typeof keyHistoryReader> | undefined;
  #closed: Error | null = null;
  #closing: Promise<void> | null = null;

  /**
   * Resolves once a file database's writes commit on the writer thread (at once in memory): the
   * first writes of a start commit on this thread while it boots (handoff-committer.ts).
   */
  writerStarted(): Promise<void> {
    return this.#writes instanceof HandoffCommitter ? this.#writes.handedOver : Promise.resolve();
  }

  /** Opens (creating if needed) the database; fails fast when another process holds the file. */
  static open(options: SqliteBackendOptions): Promise<SqliteBackend> {
    return new Promise((resolve) => {
      resolve(new SqliteBackend(options));
    });
  }

  constructor(options: SqliteBackendOptions) {
    const opts = completeSqliteOptions(options);
    this.#opts = opts;
    this.path = opts.path;
    this.type = opts.memory ? 'memory' : 'sqlite';
    const { db, lock } = openDatabase(opts);
    this.#db = db;
    this.#lock = lock;
    let revision: number;
    let compactRevision: number;
    try {
      this.#stmts = prepareStatements(db);
      revision = this.#stmts.sequence.get() ?? 0;
      compactRevision = this.#stmts.getMeta.get(compactRevisionKey) ?? 0;
    } catch (err) {
      db.close();
      lock?.close();
      throw openFault(opts.path, err);
    }
    const fault = (doing: string, err: unknown): Error => sqliteFault(opts.path, doing, err);
    const currentRevision = (): number => this.#writes.revision;
    this.#hub = new WatchHub({ progressNotifyIntervalMs: opts.progressNotifyIntervalMs, currentRevision });
    const onCommit = (events: readonly KvEvent[]): void => {
      this.#hub.publish(events);
    };
    // A file's writes go to a thread of their own once it has started (handoff-committer.ts); the
    // in-memory database exists on this thread only.
    const local = new GroupCommitter({ db, stmts: this.#stmts, now: opts.now, revision, fault, onCommit });
    this.#writes = opts.memory
      ? local
      : new HandoffCommitter(
          local,
          new WriterCommitter({
            config: { path: opts.path, busyTimeoutMs: writerBusyTimeoutMs, quotaBytes: opts.quotaBytes },
            revision,
            now: opts.now,
            fault,
            onCommit,
          }),
        );
    this.#compactor = new Compactor({
      maintain: (task) => this.#writes.maintain(task),
      freePages: () => freePages(db),
      pageCount: () => pageCount(db),
      walBytes: () => (opts.memory ? 0 : walBytes(opts.path)),
      compactRevision,
      currentRevision,
      now: opts.now,
      minRetainRevisions: opts.minRetainRevisions,
      minRetainMs: opts.minRetainMs,
      intervalMs: opts.compactionIntervalMs,
      timers: opts.clock,
      fault,
      closed: () => this.#closed,
    });
    this.#catchUpDeps = { stmts: this.#stmts, compactRevision: () => this.#compactor.compactRevision, fault };
    this.#sweeper = new TtlSweeper({
      stmts: this.#stmts,
      now: opts.now,
      intervalMs: opts.ttlSweepIntervalMs,
      timers: opts.clock,
      del: (key, modRevision) => this.delete(key, { modRevision }),
    });
  }

  get stats(): SqliteBackendStats {
    return { ...this.#writes.stats, watchers: this.#hub.size };
  }

  currentRevision(): Promise<number> {
    return this.#serve('read the revision', () => this.#revision());
  }

  revisionNow(): number {
    try {
      return this.#revision();
    } catch (err) {
      throw sqliteFault(this.path, 'read the revision', err);
    }
  }

  #revision(): number {
    this.#assertOpen();
    return this.#writes.revision;
  }

  get(key: string, opts: { revision?: number } = {}): Promise<{ revision: number; kv: KeyValue | null }> {
    return this.#serve('get', () => {
      const rev = this.#readRevision(opts.revision);
      return { revision: rev, kv: liveKv(key, this.#stmts.getAt.get(key, rev)) };
    });
  }

  list(range: KeyRange, opts: { revision?: number; limit?: number } = {}): Promise<RangeResult> {
    return this.#serve('list', () => {
      const rev = this.#readRevision(opts.revision);
      const limit = opts.limit ?? 0;
      if (!Number.isSafeInteger(limit) || limit < 0)
        throw new RangeError(`sqlite backend: bad limit ${limit}`);
      const rows = pick(this.#stmts.list, range).all({
        ...rangeParams(range, rev),
        limit: limit > 0 ? limit + 1 : -1,
      });
      const more = limit > 0 && rows.length > limit;
      if (more) rows.length = limit;
      return { revision: rev, kvs: rows.map(listRowKv), more };
    });
  }

  count(range: KeyRange, opts: { revision?: number } = {}): Promise<{ revision: number; count: number }> {
    return this.#serve('count', () => {
      const rev = this.#readRevision(opts.revision);
      return { revision: rev, count: pick(this.#stmts.count, range).get(rangeParams(range, rev)) ?? 0 };
    });
  }

  create(key: string, value: Buffer, opts: { ttl?: number } = {}): Promise<WriteResult> {
    return this.#write({ kind: 'create', key, value, ttl: opts.ttl ?? 0 });
  }

  update(key: string, value: Buffer, opts: { modRevision: number; ttl?: number }): Promise<WriteResult> {
    return this.#write({ kind: 'update', key, value, modRevision: opts.modRevision, ttl: opts.ttl ?? 0 });
  }

  delete(key: string, opts: { modRevision: number }): Promise<WriteResult> {
    return this.#write({ kind: 'delete', key, modRevision: opts.modRevision });
  }

  watch(range: KeyRange, req: WatchRequest, callbacks: WatchCallbacks): BackendWatch {
    const w = this.#hub.create(range, callbacks, req.progressNotify === true);
    if (this.#closed !== null) {
      w.fail(this.#closed);
      return w;
    }
    const current = this.#writes.revision;
    const from = req.fromRevision > 0 ? req.fromRevision : current + 1;
    const compacted = this.#compactor.compactRevision;
    // The row at the compact revision itself may be gone (a compacted tombstone), so a watch must
    // start above it; a read at it is still whole.
    if (from <= compacted) {
      w.fail(new CompactedError(from, compacted));
      return w;
    }
    w.startAt(from);
    // Registration and the replay's upper bound are fixed in this one synchronous step: every commit
    // is either at or below `current` (replayed) or above it (delivered live, held until the replay ends).
    if (from <= current) w.holdLive();
    this.#hub.goLive(w);
    if (from <= current) catchUp(this.#catchUpDeps, w, { range, from, upTo: current });
    return w;
  }

  requestProgress(): Promise<void> {
    return this.#serve('request progress', () => {
      this.#assertOpen();
      this.#hub.requestProgress();
    });
  }

  async compact(revision: number): Promise<void> {
    this.#assertOpen();
    if (!Number.isSafeInteger(revision) || revision < 0) {
      throw new RangeError(`sqlite backend: bad compact revision ${revision}`);
    }
    await this.#compactor.compact(revision);
  }

  interruptWatches(err: Error): void {
    if (this.#closed === null) this.#hub.failAll(err);
  }

  /** The key's rows in the log: every revision compaction left, tombstones included. */
  history(key: string): Promise<KeyHistory> {
    return this.#serve('read history', () => {
      this.#assertOpen();
      this.#readHistory ??= keyHistoryReader(this.#db);
      const at = { revision: this.#writes.revision, compactRevision: this.#compactor.compactRevision };
      return this.#readHistory(key, at);
    });
  }

  compactRevision(): Promise<number> {
    return this.#serve('read the compact revision', () => {
      this.#assertOpen();
      return this.#compactor.compactRevision;
    });
  }

  size(): Promise<number> {
    return this.#serve('size', () => {
      this.#assertOpen();
      const pageSize = this.#db.pragma('page_size', { simple: true }) as number;
      return pageCount(this.#db) * pageSize + (this.#opts.memory ? 0 : walBytes(this.path));
    });
  }

  /** The committed state as a database file's bytes (writes still queued are not in it). */
  serialize(): Buffer {
    this.#assertOpen();
    try {
      return this.#db.serialize();
    } catch (err) {
      throw sqliteFault(this.path, 'serialize', err);
    }
  }

  /** Idempotent: commits writes already accepted, ends every watch, closes the file. */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    const err = closedError(this.path);
    this.#closed = err;
    const stopping = Promise.all([this.#sweeper.close(), this.#compactor.close()]);
    await this.#writes.drain();
    await stopping;
    await this.#writes.close();
    this.#hub.close(err);
    try {
      this.#db.close();
      this.#lock?.close();
    } catch (cause) {
      throw sqliteFault(this.path, 'close', cause);
    }
  }

  #assertOpen(): void {
    if (this.#closed !== null) throw this.#closed;
  }

  #write(op: WriteOp): Promise<WriteResult> {
    if (this.#closed !== null) return Promise.reject(this.#closed);
    const bad = invalidWrite(op);
    if (bad !== null) return Promise.reject(new RangeError(`sqlite backend: ${bad}`));
    return this.#writes.submit(op);
  }

  #readRevision(revision: number | undefined): number {
    this.#assertOpen();
    const current = this.#writes.revision;
    if (revision === undefined || revision === 0) return current;
    if (!Number.isSafeInteger(revision) || revision < 0)
      throw new RangeError(`sqlite backend: bad revision ${revision}`);
    if (revision > current) throw new FutureRevisionError(revision, current);
    const compacted = this.#compactor.compactRevision;
    if (revision < compacted) throw new CompactedError(revision, compacted);
    return revision;
  }

  /** Runs a synchronous read as a promise; SQLite errors become BackendUnavailableError. */
  #serve<T>(doing: string, fn: () => T): Promise<T> {
    try {
      return Promise.resolve(fn());
    } catch (err) {
      return Promise.reject(sqliteFault(this.path, doing, err));
    }
  }
}

function invalidWrite(op: WriteOp): string | null {
  if (op.key === '') return 'empty key';
  if (op.kind !== 'delete' && (!Number.isSafeInteger(op.ttl) || op.ttl < 0)) return `bad ttl ${op.ttl}`;
  if (op.kind !== 'create' && !Number.isSafeInteger(op.modRevision))
    return `bad modRevision ${op.modRevision}`;
  return null;
}

function walBytes(path: string): number {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
}
