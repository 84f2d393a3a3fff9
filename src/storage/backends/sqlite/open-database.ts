// Opens the database with the pragmas the backend's guarantees rest on, and takes the file for this
// process alone.
import Database from 'better-sqlite3';
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { CompletedSqliteOptions } from './options.js';
import { ensureSchema } from './schema.js';
import { openFault } from './sqlite-errors.js';

// better-sqlite3 finds its addon through the `bindings` package, which probes a dozen paths; where
// npm builds it is known, so it is loaded by path when there (the command bundles better-sqlite3's
// JavaScript, and the search would start from the bundle).
let addon: { nativeBinding?: string } | undefined;
function addonOption(): { nativeBinding?: string } {
  if (addon !== undefined) return addon;
  try {
    addon = {
      nativeBinding: createRequire(import.meta.url).resolve(
        'better-sqlite3/build/Release/better_sqlite3.node',
      ),
    };
  } catch {
    addon = {}; // elsewhere: let `bindings` search
  }
  return addon;
}

/** The WAL is cut back to this size whenever a checkpoint resets it. */
const walSizeLimitBytes = 4 * 1024 * 1024;

export function openDatabase(opts: CompletedSqliteOptions): Database.Database {
  let db: Database.Database | undefined;
  try {
    db = new Database(source(opts), { timeout: opts.busyTimeoutMs, ...addonOption() });
    configure(db, opts);
    ensureSchema(db);
    if (opts.quotaBytes > 0) {
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      db.pragma(`max_page_count = ${Math.max(1, Math.floor(opts.quotaBytes / pageSize))}`);
    }
    return db;
  } catch (err) {
    try {
      db?.close();
    } catch {
      // The open already failed; that error is the one to report.
    }
    throw openFault(opts.path, err);
  }
}

/** The file, or the image to open in memory; a file is first written from an image when it is new. */
function source(opts: CompletedSqliteOptions): string | Buffer {
  if (opts.image === undefined) return opts.path;
  if (opts.memory) return opts.image;
  if (!existsSync(opts.path)) writeFileSync(opts.path, opts.image, { mode: 0o600 });
  return opts.path;
}

/**
 * One process owns the data dir. In EXCLUSIVE mode the connection keeps its file locks once taken
 * (ensureSchema takes the write lock at open), so a second opener fails with SQLITE_BUSY after
 * busy_timeout instead of waiting. The locks are POSIX locks, which die with the process: a crash
 * leaves nothing stale behind. Set before the first read, it also keeps the WAL index in heap memory
 * (no -shm file).
 */
function lockForThisProcess(db: Database.Database): void {
  db.pragma('locking_mode = EXCLUSIVE');
}

function configure(db: Database.Database, opts: CompletedSqliteOptions): void {
  if (!opts.memory) lockForThisProcess(db);
  // Takes effect only before the first table exists: freed pages can then be handed back to the file
  // system by incremental_vacuum, so compaction shrinks the file without a full VACUUM.
  db.pragma('auto_vacuum = INCREMENTAL');
  if (opts.memory) return;
  const mode = db.pragma('journal_mode = WAL', { simple: true }) as string;
  if (mode !== 'wal') throw new Error(`journal_mode is ${mode}, expected wal`);
  // FULL fsyncs the WAL at every commit, so an acknowledged write survives power loss (with NORMAL the
  // last commits may roll back). Set explicitly: better-sqlite3 opens a database that is already in WAL
  // mode at NORMAL, while only a fresh connection switching to WAL stays at FULL.
  db.pragma('synchronous = FULL');
  db.pragma(`journal_size_limit = ${walSizeLimitBytes}`);
}
