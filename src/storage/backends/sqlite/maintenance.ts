// The upkeep of the file that the compactor (compactor.ts) decides on: forgetting compacted rows,
// giving free pages back, truncating the WAL. Each task runs on the connection that commits the
// writes (for a file, the writer thread's, between two batches), so neither its work nor a wait for
// the write lock holds up the event loop: on this thread a compaction chunk under steady writes
// stopped the loop for up to ~100 ms, most of it waiting for the writer thread's lock.
import type Database from 'better-sqlite3';
import type { Statements } from './statements.js';

/** The meta row holding the compact revision. */
export const compactRevisionKey = 'compact_revision';

export type MaintenanceTask =
  /** Forgets the rows superseded by revisions (lo, hi] and the tombstones among them; records hi. */
  | { readonly kind: 'compact'; readonly lo: number; readonly hi: number }
  /** Gives up to `pages` free pages back to the file system. */
  | { readonly kind: 'vacuum'; readonly pages: number }
  /** Copies the WAL into the file and truncates it. */
  | { readonly kind: 'checkpoint' };

export interface MaintenanceOutcome {
  /** The file's free pages after the task. */
  readonly freePages: number;
}

export function freePages(db: Database.Database): number {
  return db.pragma('freelist_count', { simple: true }) as number;
}

export function pageCount(db: Database.Database): number {
  return db.pragma('page_count', { simple: true }) as number;
}

/** Runs `task` on `db`, the connection the writes go through. */
export function runMaintenance(
  db: Database.Database,
  stmts: Statements,
  task: MaintenanceTask,
): MaintenanceOutcome {
  switch (task.kind) {
    case 'compact':
      // IMMEDIATE, as the writes' transactions (writer-worker.ts).
      db.transaction(() => {
        stmts.deleteSuperseded.run(task.lo, task.hi);
        stmts.deleteTombstones.run(task.lo, task.hi);
        stmts.setMeta.run(compactRevisionKey, task.hi);
      }).immediate();
      break;
    case 'vacuum':
      db.pragma(`incremental_vacuum(${Math.floor(task.pages)})`);
      break;
    case 'checkpoint':
      db.pragma('wal_checkpoint(TRUNCATE)');
      break;
  }
  return { freePages: freePages(db) };
}
