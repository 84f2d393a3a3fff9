// Group commit through the writer thread: writes issued while a batch is being committed wait and go
// together in the next batch, so under load one transaction and one fsync carry many writes, and
// none of SQLite's work runs on the event loop that serves requests. Events are published and
// promises resolved in revision order, only once the thread reported its COMMIT returned.
import Database from 'better-sqlite3';
import type { Worker } from 'node:worker_threads';
import type { KvEvent, WriteResult } from '../../kv/backend.js';
import { applied, type WriteOp } from './apply-write.js';
import type { Committer, GroupCommitStats } from './group-commit.js';
import type { MaintenanceOutcome, MaintenanceTask } from './maintenance.js';
import {
  arrivedKv,
  type FromWriter,
  type ToWriter,
  type WireError,
  type WireOutcome,
  type WriterConfig,
} from './writer-protocol.js';
import { startWriterThread } from './writer-thread.js';

/**
 * Writes that go to an idle writer without waiting for the turn's end. At 64 connections ConfigMap
 * creates came to 8.8 % more a second and durable creates to 9.7 % more, at the same CPU per create,
 * in three alternating runs. 16 connections rarely queue that many, and a Pod create there cost the
 * same CPU; sending after 8 writes cost it 8 % more, after 1 ms 4 %, for the extra commits
 * (docs/performance.md, stop 68).
 */
const earlyBatchWrites = 16;

interface Pending {
  readonly op: WriteOp;
  readonly resolve: (r: WriteResult) => void;
  readonly reject: (err: unknown) => void;
}

interface PendingTask {
  readonly resolve: (o: MaintenanceOutcome) => void;
  readonly reject: (err: unknown) => void;
}

export interface WriterCommitterDeps {
  readonly config: WriterConfig;
  /** The newest revision in the file now; startAt() moves it before the first batch. */
  readonly revision: number;
  readonly now: () => number;
  /** Turns a SQLite error into the error callers see. */
  readonly fault: (doing: string, err: unknown) => Error;
  /** Called after each commit with that commit's events in revision order. */
  readonly onCommit: (events: readonly KvEvent[]) => void;
}

export class WriterCommitter implements Committer {
  readonly #deps: WriterCommitterDeps;
  readonly #worker: Worker;
  readonly #exited: Promise<void>;
  #queue: Pending[] = [];
  #inFlight: readonly Pending[] | null = null;
  #scheduled: NodeJS.Immediate | null = null;
  #idle: (() => void)[] = [];
  readonly #tasks = new Map<number, PendingTask>();
  #taskIds = 0;
  #revision: number;
  #commits = 0;
  #writes = 0;
  #broken: Error | null = null;
  #closing = false;
  #markReady: () => void = () => undefined;
  /**
   * Settles once the thread's connection is open, or once the committer broke (the thread failed
   * to open, exited): from then on its writes commit, or fail with what broke it.
   */
  readonly ready: Promise<void>;

  constructor(deps: WriterCommitterDeps) {
    this.#deps = deps;
    this.#revision = deps.revision;
    this.ready = new Promise((resolve) => {
      this.#markReady = resolve;
    });
    this.#worker = startWriterThread(deps.config);
    this.#worker.unref();
    this.#worker.on('message', (msg: FromWriter) => {
      this.#received(msg);
    });
    this.#worker.on('error', (err: unknown) => {
      // A SQLiteError thrown in the thread arrives as a plain object: keep its message.
      const message = (err as { message?: unknown } | null)?.message;
      const error =
        err instanceof Error ? err : new Error(typeof message === 'string' ? message : String(err));
      this.#fail(deps.fault('write', error));
    });
    this.#exited = new Promise((resolve) => {
      this.#worker.once('exit', (code) => {
        if (!this.#closing) this.#fail(deps.fault('write', new Error(`the writer thread exited (${code})`)));
        resolve();
      });
    });
  }

  get revision(): number {
    return this.#revision;
  }

  /**
   * Takes `revision` as the file's newest: another connection committed up to it meanwhile. Only
   * before this committer's first write.
   */
  startAt(revision: number): void {
    if (this.#inFlight !== null || this.#queue.length > 0 || this.#commits > 0)
      throw new Error('writer committer: startAt after writes');
    this.#revision = revision;
  }

  get stats(): GroupCommitStats {
    return { commits: this.#commits, writes: this.#writes };
  }

  submit(op: WriteOp): Promise<WriteResult> {
    if (this.#broken !== null) return Promise.reject(this.#broken);
    return new Promise<WriteResult>((resolve, reject) => {
      this.#queue.push({ op, resolve, reject });
      this.#worker.ref();
      // A batch in flight takes the queue with it when it returns. Otherwise the queue goes once this
      // turn of the event loop has handed over every request that arrived, or at once when it holds
      // a batch's worth: a busy turn starts requests for up to 8 ms (TurnPacer), which the writer
      // would otherwise spend idle, with every write of the turn then waiting on one commit.
      if (this.#inFlight !== null) return;
      if (this.#queue.length >= earlyBatchWrites) this.#send();
      else
        this.#scheduled ??= setImmediate(() => {
          this.#send();
        });
    });
  }

  maintain(task: MaintenanceTask): Promise<MaintenanceOutcome> {
    if (this.#broken !== null) return Promise.reject(this.#broken);
    const id = ++this.#taskIds;
    return new Promise<MaintenanceOutcome>((resolve, reject) => {
      this.#tasks.set(id, { resolve, reject });
      this.#worker.ref();
      this.#worker.postMessage({ type: 'maintain', id, task } satisfies ToWriter);
    });
  }

  drain(): Promise<void> {
    if (this.#inFlight === null && this.#queue.length === 0) return Promise.resolve();
    this.#send();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  async close(): Promise<void> {
    await this.drain();
    if (this.#closing) return this.#exited;
    this.#closing = true;
    if (this.#broken === null) this.#worker.postMessage({ type: 'close' });
    else void this.#worker.terminate();
    this.#worker.ref();
    return this.#exited;
  }

  #send(): void {
    if (this.#scheduled !== null) clearImmediate(this.#scheduled);
    this.#scheduled = null;
    if (this.#inFlight !== null || this.#queue.length === 0 || this.#broken !== null) return;
    const batch = this.#queue;
    this.#queue = [];
    this.#inFlight = batch;
    const transfer: ArrayBuffer[] = [];
    const ops = batch.map((p) => outgoing(p.op, transfer));
    const message: ToWriter = { type: 'batch', ops, now: this.#deps.now(), revision: this.#revision };
    this.#worker.postMessage(message, transfer);
  }

  #received(msg: FromWriter): void {
    if (msg.type === 'ready') {
      this.#markReady();
      return;
    }
    if (msg.type === 'failed') {
      this.#fail(this.#deps.fault('open the database for writing', sqliteError(msg.error)));
      return;
    }
    if (msg.type === 'maintained') {
      this.#maintained(msg.id, msg.outcome);
      return;
    }
    const batch = this.#inFlight ?? [];
    this.#inFlight = null;
    this.#revision = msg.revision;
    this.#commits++;
    this.#writes += batch.length;
    const events: KvEvent[] = [];
    const settle: (() => void)[] = [];
    batch.forEach((p, i) => {
      const o = msg.outcomes[i];
      settle.push(this.#outcome(p, o, events));
    });
    if (events.length > 0) this.#deps.onCommit(events);
    for (const s of settle) s();
    if (this.#queue.length > 0) this.#send();
    else this.#settled();
  }

  /** What settles `p`, after the events of the whole batch went out (events gains `p`'s own). */
  #outcome(p: Pending, o: WireOutcome | undefined, events: KvEvent[]): () => void {
    if (o === undefined)
      return () => {
        p.reject(this.#deps.fault('write', new Error('no outcome for a write')));
      };
    if ('error' in o)
      return () => {
        p.reject(this.#deps.fault('write', sqliteError(o.error)));
      };
    const a = applied(p.op, { ok: o.ok, revision: o.revision, live: arrivedKv(o.live) });
    if (a.event !== null) events.push(a.event);
    return () => {
      p.resolve(a.result);
    };
  }

  #maintained(id: number, outcome: MaintenanceOutcome | { readonly error: WireError }): void {
    const task = this.#tasks.get(id);
    this.#tasks.delete(id);
    if ('error' in outcome) task?.reject(sqliteError(outcome.error));
    else task?.resolve(outcome);
    if (this.#inFlight === null && this.#queue.length === 0) this.#settled();
  }

  #settled(): void {
    if (this.#tasks.size === 0) this.#worker.unref();
    const idle = this.#idle;
    this.#idle = [];
    for (const resolve of idle) resolve();
  }

  #fail(err: Error): void {
    if (this.#broken !== null) return;
    this.#broken = err;
    this.#markReady();
    const pending = [...(this.#inFlight ?? []), ...this.#queue, ...this.#tasks.values()];
    this.#inFlight = null;
    this.#queue = [];
    this.#tasks.clear();
    for (const p of pending) p.reject(err);
    this.#settled();
    if (!this.#closing) void this.#worker.terminate();
  }
}

/**
 * The op as it crosses. A value that is all of its memory (a Buffer past Node's pool size has memory
 * of its own) is cloned: copied into the message, with no second buffer made on this thread. Any
 * other value is copied into a buffer of its own, which is moved: cloning the Buffer would copy the
 * whole memory it is a view of (Node's 8 KiB pool, say). This thread keeps the original for the
 * event it builds.
 */
function outgoing(op: WriteOp, transfer: ArrayBuffer[]): WriteOp {
  if (op.kind === 'delete') return op;
  const value = op.value;
  if (value.byteOffset === 0 && value.byteLength === value.buffer.byteLength) return op;
  const own = new Uint8Array(value);
  transfer.push(own.buffer);
  return { ...op, value: own as Buffer };
}

/** The thread's error as the SQLiteError it was, so faults keep their SQLite result code. */
function sqliteError(e: WireError): Error {
  return e.code === '' ? new Error(e.message) : new Database.SqliteError(e.message, e.code);
}
