// The on-disk layout, after k3s-io/kine's log table: every write appends a row whose id is the
// revision; a delete appends a tombstone (deleted = 1, empty value). A row's prev_revision points at
// the row it superseded, so an event's previous value is one primary-key lookup away and need not be
// stored twice (kine keeps an old_value copy; we halve the bytes written per update instead).
//
// Compaction keeps, for every key, its newest row at or below the compact revision; every row above
// it survives. The row an event's prev_revision names is therefore always present for every event a
// watch may still replay.
import type Database from 'better-sqlite3';

export const schemaVersion = 1;

export const logTable = 'kv_log';

const ddl = `
CREATE TABLE kv_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,  -- the revision; AUTOINCREMENT never reuses an id,
                                         -- even after compaction deleted the newest row
  name TEXT NOT NULL,                    -- the full storage key
  created INTEGER NOT NULL,              -- 1 when this row created the key
  deleted INTEGER NOT NULL,              -- 1 for a tombstone
  create_revision INTEGER NOT NULL,
  prev_revision INTEGER NOT NULL,        -- id of the row this one superseded, 0 if none
  lease INTEGER NOT NULL,                -- TTL in seconds, 0 if none
  expires_at INTEGER,                    -- wall-clock ms when a TTL row expires; cleared once superseded
  value BLOB NOT NULL
);
-- Reads walk (name, id) in order: the newest row per key at or below a revision without a sort.
CREATE INDEX kv_log_name_id ON kv_log (name, id);
-- Only rows that may still expire are indexed, so the TTL sweeper reads a handful of entries.
CREATE INDEX kv_log_expires_at ON kv_log (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
`;

/** Creates the tables in an empty database, or checks that an existing one is ours. */
export function ensureSchema(db: Database.Database): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version === 0) {
      const tables = db
        .prepare<[], number>("SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table'")
        .pluck()
        .get();
      if (tables !== 0) throw new Error('the file holds tables that are not a Capstan kv log');
      db.exec(ddl);
      // A fresh store is at revision 1, as a fresh etcd is: revision 0 means "any" to kube clients,
      // so even an empty list must carry a real revision. The first write gets revision 2.
      db.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES ('kv_log', 1)").run();
      db.pragma(`user_version = ${schemaVersion}`);
    } else if (version !== schemaVersion) {
      throw new Error(`schema version ${version} is not supported (this build reads ${schemaVersion})`);
    }
    db.exec('COMMIT');
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}
