// Opens the database with the pragmas the backend's guarantees rest on, and takes the file for this
// process alone.
import Database from 'better-sqlite3';
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { CompletedSqliteOptions } from './options.js';
import { ensureSchema } from './schema.js';
import { openFault } from './sqlite-errors.js';
import type { WriterConfig } from './writer-protocol.js';

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

/** The file that says which process owns the database (see lockFile). */
export function lockPath(path: string): string {
  return `${path}.lock`;
}

/** Opens the database (the backend's connection: reads, compaction); for a file, after taking its lock. */
export function openDatabase(opts: CompletedSqliteOptions): {
  db: Database.Database;
  lock: Database.Database | null;
} {
  let lock: Database.Database | null = null;
  let db: Database.Database | undefined;
  try {
    if (!opts.memory) lock = lockFile(lockPath(opts.path), opts.busyTimeoutMs);
    db = new Database(source(opts), { timeout: opts.busyTimeoutMs, ...addonOption() });
    // Takes effect only before the first table exists: freed pages can then be handed back to the file
    // system by incremental_vacuum, so compaction shrinks the file without a full VACUUM.
    db.pragma('auto_vacuum = INCREMENTAL');
    if (!opts.memory) configureFile(db);
    ensureSchema(db);
    limitSize(db, opts.quotaBytes);
    return { db, lock };
  } catch (err) {
    for (const open of [db, lock]) {
      try {
        open?.close();
      } catch {
        // The open already failed; that error is the one to report.
      }
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

/** The writer thread's connection to a file the backend opened (and so created and checked) first. */
export function openWriterConnection(config: WriterConfig): Database.Database {
  const db = new Database(config.path, { timeout: config.busyTimeoutMs, ...addonOption() });
  try {
    configureFile(db);
    limitSize(db, config.quotaBytes);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/**
 * One process owns the data dir: it holds an exclusive lock on a small database beside it for as long
 * as it runs. In EXCLUSIVE locking mode a connection keeps the file locks its first write took, so a
 * second opener (another process, or another backend in this one) fails with SQLITE_BUSY after
 * busy_timeout instead of waiting. The locks are POSIX locks, which die with the process: a crash
 * leaves nothing stale behind. The database itself is shared by this process's two connections, the
 * backend's and its writer thread's, so it cannot be the one locked.
 */
function lockFile(path: string, busyTimeoutMs: number): Database.Database {
  const lock = new Database(path, { timeout: busyTimeoutMs, ...addonOption() });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('CREATE TABLE IF NOT EXISTS owner (pid INTEGER); DELETE FROM owner');
    lock.prepare('INSERT INTO owner (pid) VALUES (?)').run(process.pid);
    return lock;
  } catch (err) {
    lock.close();
    throw err;
  }
}

/** Per-connection settings of a file database; every connection that writes needs them. */
function configureFile(db: Database.Database): void {
  const mode = db.pragma('journal_mode = WAL', { simple: true }) as string;
  if (mode !== 'wal') throw new Error(`journal_mode is ${mode}, expected wal`);
  // FULL fsyncs the WAL at every commit, so an acknowledged write survives power loss (with NORMAL the
  // last commits may roll back). Set explicitly: better-sqlite3 opens a database that is already in WAL
  // mode at NORMAL, while only a fresh connection switching to WAL stays at FULL.
  db.pragma('synchronous = FULL');
  db.pragma(`journal_size_limit = ${walSizeLimitBytes}`);
}

/** The quota, like etcd's: a write that would grow the file past it fails (SQLITE_FULL). Per connection. */
function limitSize(db: Database.Database, quotaBytes: number): void {
  if (quotaBytes <= 0) return;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.pragma(`max_page_count = ${Math.max(1, Math.floor(quotaBytes / pageSize))}`);
}
