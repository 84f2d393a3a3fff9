// One compare-and-swap write, run inside the group-commit transaction: read the key's newest row,
// compare, append. A failed comparison is an outcome, not an error, and leaves the others in the
// batch alone.
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
export function applyWrite(stmts: Statements, op: WriteOp, at: { revision: number; now: number }): Applied {
  const head = stmts.head.get(op.key);
  const live = liveKv(op.key, head);
  if (!comparisonHolds(op, live)) {
    return { result: { ok: false, revision: at.revision, current: live }, event: null };
  }
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
  return { result: { ok: true, revision: id, prevKv: live }, event: toEvent({ op, id, live, value }) };
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
