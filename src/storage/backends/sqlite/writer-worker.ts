// The writer thread: its own connection to the backend's file commits the batches the backend sends
// (writer-committer.ts), so SQLite's work and each commit's fsync happen off the event loop that
// serves requests. One batch is one transaction; a failed one is retried write by write, so one bad
// write (too big for the quota, say) cannot fail its neighbours.
import { parentPort, workerData } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { applyWrite, type Outcome, type WriteOp } from './apply-write.js';
import { runMaintenance } from './maintenance.js';
import { openWriterConnection } from './open-database.js';
import { prepareStatements, type Statements } from './statements.js';
import {
  asBuffer,
  wireError,
  type FromWriter,
  type ToWriter,
  type WireOutcome,
  type WriterConfig,
} from './writer-protocol.js';

const port = parentPort;
if (port === null) throw new Error('writer-worker runs as a worker thread');
const config = workerData as WriterConfig;

function send(msg: FromWriter): void {
  port?.postMessage(msg);
}

let db: Database.Database;
let stmts: Statements;
try {
  db = openWriterConnection(config);
  stmts = prepareStatements(db);
} catch (err) {
  send({ type: 'failed', error: wireError(err) });
  port.close();
  throw err;
}
send({ type: 'ready' });

const txn = db.transaction((ops: readonly WriteOp[], now: number, revision: number) => {
  const at = { revision, now };
  const out: Outcome[] = [];
  for (const op of ops) {
    const o = applyWrite(stmts, op, at);
    if (o.ok) at.revision = o.revision;
    out.push(o);
  }
  return { out, revision: at.revision };
});

/** The batch's outcomes and the newest revision after it. */
function commit(
  ops: readonly WriteOp[],
  now: number,
  revision: number,
): { outcomes: WireOutcome[]; revision: number } {
  try {
    // IMMEDIATE: the write lock first, waiting on busy_timeout should another connection hold it; a
    // deferred transaction that read first could not upgrade once another wrote (SQLITE_BUSY_SNAPSHOT).
    const done = txn.immediate(ops, now, revision);
    return { outcomes: done.out, revision: done.revision };
  } catch (err) {
    if (ops.length === 1) return { outcomes: [{ error: wireError(err) }], revision };
    // Write by write, each after the ones before it.
    const outcomes: WireOutcome[] = [];
    let at = revision;
    for (const op of ops) {
      const one = commit([op], now, at);
      outcomes.push(...one.outcomes);
      at = one.revision;
    }
    return { outcomes, revision: at };
  }
}

/** A copy of the value that owns all of its memory, so moving its buffer moves nothing else. */
function movable(value: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(value);
}

/** The ops with their values as Buffers again (SQLite binds a Buffer as a blob). */
function arrived(ops: readonly WriteOp[]): WriteOp[] {
  return ops.map((op) => (op.kind === 'delete' ? op : { ...op, value: asBuffer(op.value) }));
}

port.on('message', (msg: ToWriter) => {
  if (msg.type === 'close') {
    db.close();
    port.close();
    return;
  }
  if (msg.type === 'maintain') {
    let outcome: FromWriter & { type: 'maintained' };
    try {
      outcome = { type: 'maintained', id: msg.id, outcome: runMaintenance(db, stmts, msg.task) };
    } catch (err) {
      outcome = { type: 'maintained', id: msg.id, outcome: { error: wireError(err) } };
    }
    send(outcome);
    return;
  }
  // The rows' values move rather than being cloned (the thread does not need them again).
  const transfer: ArrayBuffer[] = [];
  const done = commit(arrived(msg.ops), msg.now, msg.revision);
  const outcomes = done.outcomes.map((o) => {
    if (!('live' in o) || o.live === null) return o;
    const value = movable(o.live.value);
    transfer.push(value.buffer);
    return { ...o, live: { ...o.live, value } };
  });
  port.postMessage({ type: 'done', outcomes, revision: done.revision } satisfies FromWriter, transfer);
});
