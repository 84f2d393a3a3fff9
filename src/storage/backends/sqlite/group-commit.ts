// Group commit: every write issued during one turn of the event loop joins one transaction, flushed
// from setImmediate (after the poll phase has handed over every request that arrived), so one fsync
// acknowledges them all. Each write's comparison is checked in order inside the transaction. Promises
// resolve only after COMMIT returned, i.e. after the WAL was synced (synchronous = FULL).
import type Database from 'better-sqlite3';
import type { KvEvent, WriteResult } from '../../kv/backend.js';
import { applied, applyWrite, type Applied, type WriteOp } from './apply-write.js';
import { runMaintenance, type MaintenanceOutcome, type MaintenanceTask } from './maintenance.js';
import type { Statements } from './statements.js';

interface Pending {
  readonly op: WriteOp;
  readonly resolve: (r: WriteResult) => void;
  readonly reject: (err: unknown) => void;
}

interface Committed {
  readonly applied: readonly Applied[];
  readonly revision: number;
}

export interface GroupCommitDeps {
  readonly db: Database.Database;
  readonly stmts: Statements;
  readonly now: () => number;
  /** The revision the log starts at (the sqlite_sequence of the table). */
  readonly revision: number;
  /** Turns a thrown SQLite error into the error callers see. */
  readonly fault: (doing: string, err: unknown) => Error;
  /** Called after each commit with that commit's events in revision order. */
  readonly onCommit: (events: readonly KvEvent[]) => void;
}

export interface GroupCommitStats {
  /** Transactions that committed. */
  readonly commits: number;
  /** Writes those transactions carried, including failed comparisons. */
  readonly writes: number;
}

/** Where the backend's writes go: a group committer on this thread, or the writer thread. */
export interface Committer {
  /** The newest committed revision. */
  readonly revision: number;
  readonly stats: GroupCommitStats;
  submit(op: WriteOp): Promise<WriteResult>;
  /** Runs `task` on the connection the writes use, between two of their transactions. */
  maintain(task: MaintenanceTask): Promise<MaintenanceOutcome>;
  /** Resolves once every write submitted so far has committed or failed. */
  drain(): Promise<void>;
  /** Drains, then lets go of the connection the writes used (not the backend's own). */
  close(): Promise<void>;
}

/** The committer of the in-memory database, whose one connection only this thread can use. */
export class GroupCommitter implements Committer {
  readonly #deps: GroupCommitDeps;
  readonly #txn: (ops: readonly WriteOp[]) => Committed;
  #queue: Pending[] = [];
  #scheduled: NodeJS.Immediate | null = null;
  #revision: number;
  #commits = 0;
  #writes = 0;

  constructor(deps: GroupCommitDeps) {
    this.#deps = deps;
    this.#revision = deps.revision;
    this.#txn = deps.db.transaction((ops: readonly WriteOp[]) => this.#applyAll(ops));
  }

  /** The newest committed revision. */
  get revision(): number {
    return this.#revision;
  }

  get stats(): GroupCommitStats {
    return { commits: this.#commits, writes: this.#writes };
  }

  submit(op: WriteOp): Promise<WriteResult> {
    return new Promise<WriteResult>((resolve, reject) => {
      this.#queue.push({ op, resolve, reject });
      this.#scheduled ??= setImmediate(() => {
        this.flush();
      });
    });
  }

  /** Each task in a turn of the event loop of its own, as each batch is. */
  maintain(task: MaintenanceTask): Promise<MaintenanceOutcome> {
    return new Promise((resolve, reject) => {
      setImmediate(() => {
        try {
          resolve(runMaintenance(this.#deps.db, this.#deps.stmts, task));
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      });
    });
  }

  drain(): Promise<void> {
    this.flush();
    return Promise.resolve();
  }

  close(): Promise<void> {
    return this.drain();
  }

  /** Commits whatever is queued now (the scheduled flush, or close() draining the queue). */
  flush(): void {
    if (this.#scheduled !== null) clearImmediate(this.#scheduled);
    this.#scheduled = null;
    const batch = this.#queue;
    this.#queue = [];
    if (batch.length === 0) return;
    if (this.#commitBatch(batch)) return;
    // The shared transaction failed and rolled back. Retry each write alone so one bad write (too big
    // for the quota, say) cannot fail its neighbours; a fault of the disk fails them all again.
    if (batch.length > 1) for (const p of batch) this.#commitBatch([p]);
  }

  #commitBatch(batch: readonly Pending[]): boolean {
    let done: Committed;
    try {
      done = this.#txn(batch.map((p) => p.op));
    } catch (err) {
      if (batch.length === 1) batch[0]?.reject(this.#deps.fault('write', err));
      return false;
    }
    this.#revision = done.revision;
    this.#commits++;
    this.#writes += batch.length;
    const events: KvEvent[] = [];
    for (const a of done.applied) if (a.event !== null) events.push(a.event);
    if (events.length > 0) this.#deps.onCommit(events);
    batch.forEach((p, i) => {
      const a = done.applied[i];
      if (a !== undefined) p.resolve(a.result);
    });
    return true;
  }

  #applyAll(ops: readonly WriteOp[]): Committed {
    const at = { revision: this.#revision, now: this.#deps.now() };
    const done: Applied[] = [];
    for (const op of ops) {
      const o = applyWrite(this.#deps.stmts, op, at);
      if (o.ok) at.revision = o.revision;
      done.push(applied(op, o));
    }
    return { applied: done, revision: at.revision };
  }
}
