// Faults from SQLite become BackendUnavailableError (the store maps it to Unreachable), naming the
// database file and keeping SQLite's error as the cause; a write that does not fit (SQLITE_FULL: the
// quota or a full disk) becomes BackendNoSpaceError, etcd's NOSPACE. Programming errors pass through.
import Database from 'better-sqlite3';
import { BackendNoSpaceError, BackendUnavailableError } from '../../kv/backend.js';

/** SQLite result codes that mean another connection holds the database. */
const lockedCodes: ReadonlySet<string> = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED']);

export function isSqliteError(err: unknown): err is InstanceType<typeof Database.SqliteError> {
  return err instanceof Database.SqliteError;
}

export function sqliteCode(err: unknown): string {
  return isSqliteError(err) ? err.code : '';
}

/** A fault while `doing` something on the database at `path`. */
export function sqliteFault(path: string, doing: string, err: unknown): Error {
  if (err instanceof BackendUnavailableError || err instanceof BackendNoSpaceError) return err;
  if (!isSqliteError(err)) return err instanceof Error ? err : new Error(String(err));
  // Clients see this text (as kube's see etcd's), so it names no file; the cause does.
  if (err.code === 'SQLITE_FULL')
    return new BackendNoSpaceError(`sqlite: database space exceeded: ${err.message}`, { cause: err });
  return new BackendUnavailableError(`sqlite backend (${path}): ${doing}: ${err.message} (${err.code})`, {
    cause: err,
  });
}

/** The database could not be opened; says plainly when another process holds it. */
export function openFault(path: string, err: unknown): BackendUnavailableError {
  const code = sqliteCode(err);
  const reason = err instanceof Error ? err.message : String(err);
  if (lockedCodes.has(code)) {
    return new BackendUnavailableError(
      `sqlite backend (${path}): the database is locked by another process or connection ` +
        `(the data dir must be used by one server only): ${reason}`,
      { cause: err },
    );
  }
  const suffix = code === '' ? '' : ` (${code})`;
  return new BackendUnavailableError(
    `sqlite backend (${path}): cannot open the database: ${reason}${suffix}`,
    {
      cause: err,
    },
  );
}

export function closedError(path: string): BackendUnavailableError {
  return new BackendUnavailableError(`sqlite backend (${path}): the backend is closed`);
}
