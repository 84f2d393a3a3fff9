// Row → port shapes for reads and for replaying the log into a watch.
import type { KeyRange, KeyValue, KvEvent } from '../../kv/backend.js';
import { isUnbounded } from './key-range.js';
import type { HistoryRow, ListRow, RangeParams, Statements } from './statements.js';

const empty = Buffer.alloc(0);

export function listRowKv(row: ListRow): KeyValue {
  return { key: row.name, value: row.value, createRevision: row.create_revision, modRevision: row.id };
}

export function rangeParams(range: KeyRange, rev: number): RangeParams {
  return isUnbounded(range) ? { start: range.start, rev } : { start: range.start, end: range.end, rev };
}

/** Statement pairs are [unbounded, bounded]. */
export function pick<T>(pair: readonly [T, T], range: KeyRange): T {
  return isUnbounded(range) ? pair[0] : pair[1];
}

function historyEvent(row: HistoryRow): KvEvent {
  const prevKv: KeyValue | null =
    row.prev_id === null
      ? null
      : {
          key: row.name,
          value: row.prev_value ?? empty,
          createRevision: row.prev_create ?? 0,
          modRevision: row.prev_id,
        };
  if (row.deleted !== 0) {
    return {
      type: 'delete',
      kv: { key: row.name, value: empty, createRevision: 0, modRevision: row.id },
      prevKv,
    };
  }
  const kv = { key: row.name, value: row.value, createRevision: row.create_revision, modRevision: row.id };
  return { type: 'put', kv, prevKv };
}

/** The events of revisions [from, to] within `range`, in revision order. */
export function readHistory(
  stmts: Statements,
  req: { range: KeyRange; from: number; to: number },
): KvEvent[] {
  const stmt = pick(stmts.history, req.range);
  return stmt.all({ ...rangeParams(req.range, 0), from: req.from, to: req.to }).map(historyEvent);
}
