// One compare-and-swap write, run inside the group-commit transaction: read the key's newest row,
// compare, append. A failed comparison is an outcome, not an error, and leaves the others in the
// batch alone. The outcome is small (what a writer thread sends back); applied() turns it into the
// result and the event, with the value the caller already holds.
import type { KeyValue, KvEvent, WriteResult } from '../../kv/backend.js';
import type { HeadRow, Statements } from './statements.js';

export type WriteOp =
  | { readonly kind: 'create'; readonly key: string; readonly value: Buffer; readonly ttl: number }
  | {
      readonly kind: 'update';
      readonly key: string;
      readonly value: Buffer;
      readonly modRevision: number;
      readonly ttl: number;
    }
  | { readonly kind: 'delete'; readonly key: string; readonly modRevision: number };

/** What a write did: its revision (the new one, or the newest so far when the comparison failed) and the live row it compared with. */
export interface Outcome {
  readonly ok: boolean;
  readonly revision: number;
  readonly live: KeyValue | null;
}

export interface Applied {
  readonly result: WriteResult;
  /** The event watchers see once the transaction commits; null when the comparison failed. */
  readonly event: KvEvent | null;
}

const empty = Buffer.alloc(0);

export function liveKv(key: string, row: HeadRow | undefined): KeyValue | null {
  if (row === undefined || row.deleted !== 0) return null;
  return { key, value: row.value, createRevision: row.create_revision, modRevision: row.id };
}

function comparisonHolds(op: WriteOp, live: KeyValue | null): boolean {
  if (op.kind === 'create') return live === null;
  return live !== null && live.modRevision === op.modRevision;
}

/**
 * Applies `op` at the end of the log. `at.revision` is the newest revision so far in this transaction
 * (the caller advances it on success); `at.now` the wall clock for TTL expiry.
 */
export function applyWrite(stmts: Statements, op: WriteOp, at: { revision: number; now: number }): Outcome {
  const head = stmts.head.get(op.key);
  const live = liveKv(op.key, head);
  if (!comparisonHolds(op, live)) return { ok: false, revision: at.revision, live };
  const deleting = op.kind === 'delete';
  const value = deleting ? empty : op.value;
  const ttl = deleting ? 0 : op.ttl;
  const expiresAt = ttl > 0 ? at.now + ttl * 1000 : null;
  // This process is the only writer, so the next id is known; naming it lets a create record its own
  // revision as create_revision, and the primary key would refuse a reused id.
  const id = at.revision + 1;
  stmts.insert.run(
    id,
    op.key,
    op.kind === 'create' ? 1 : 0,
    deleting ? 1 : 0,
    deleting ? 0 : (live?.createRevision ?? id),
    head?.id ?? 0,
    ttl,
    expiresAt,
    value,
  );
  // A superseded row can no longer expire; clearing it keeps the sweeper's index small.
  if (head !== undefined && head.expires_at !== null) stmts.clearExpiry.run(head.id);
  return { ok: true, revision: id, live };
}

/** The result the caller sees and the event watchers see, once the transaction committed. */
export function applied(op: WriteOp, o: Outcome): Applied {
  if (!o.ok) return { result: { ok: false, revision: o.revision, current: o.live }, event: null };
  const value = op.kind === 'delete' ? empty : op.value;
  return {
    result: { ok: true, revision: o.revision, prevKv: o.live },
    event: toEvent({ op, id: o.revision, live: o.live, value }),
  };
}

function toEvent(w: { op: WriteOp; id: number; live: KeyValue | null; value: Buffer }): KvEvent {
  const { op, id, live } = w;
  if (op.kind === 'delete') {
    return {
      type: 'delete',
      kv: { key: op.key, value: empty, createRevision: 0, modRevision: id },
      prevKv: live,
    };
  }
  const createRevision = live === null ? id : live.createRevision;
  return { type: 'put', kv: { key: op.key, value: w.value, createRevision, modRevision: id }, prevKv: live };
}
