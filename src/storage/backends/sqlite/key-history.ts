// One key's rows in the log, oldest first: its history is what compaction has left of them.
import type Database from 'better-sqlite3';
import { maxHistoryRevisions, type KeyHistory, type KeyRevision } from '../../kv/key-history.js';

interface Row {
  readonly id: number;
  readonly create_revision: number;
  readonly deleted: number;
  readonly value: Buffer;
}

const sql = `SELECT id, create_revision, deleted, value FROM kv_log WHERE name = ? ORDER BY id DESC LIMIT ${maxHistoryRevisions}`;

/** Prepares the read once per database; call the result for each key. */
export function keyHistoryReader(
  db: Database.Database,
): (key: string, at: { revision: number; compactRevision: number }) => KeyHistory {
  const stmt = db.prepare<[string], Row>(sql);
  return (key, at) => {
    const revisions: KeyRevision[] = stmt
      .all(key)
      .reverse()
      .map((r) => ({
        modRevision: r.id,
        createRevision: r.deleted !== 0 ? 0 : r.create_revision,
        deleted: r.deleted !== 0,
        value: r.deleted !== 0 ? Buffer.alloc(0) : r.value,
      }));
    return { ...at, revisions };
  };
}
