// Brings a new watch from an old revision up to date: the log is replayed in windows of revisions,
// yielding to the event loop between windows so a watch from far back does not stall every write.
// The watch is registered before the replay starts and holds the live commits meanwhile; it releases
// them after the last window, so the stream has no gap and no repeat.
import { CompactedError, type KeyRange } from '../../kv/backend.js';
import { readHistory } from './history.js';
import type { Statements } from './statements.js';
import type { Watcher } from './watcher.js';

/** Revisions read per step: bounds one step's time and memory whatever the range. */
const windowRevisions = 1_000;

export interface CatchUpDeps {
  readonly stmts: Statements;
  readonly compactRevision: () => number;
  readonly fault: (doing: string, err: unknown) => Error;
}

/** Replays revisions [from, upTo] of `range` into `w`; the first window is read before this returns. */
export function catchUp(
  deps: CatchUpDeps,
  w: Watcher,
  req: { range: KeyRange; from: number; upTo: number },
): void {
  let cursor = req.from;
  const step = (): void => {
    while (!w.ended) {
      if (cursor > req.upTo) {
        w.releaseLive();
        return;
      }
      // Rows above the compact revision are never removed; once compaction passes the cursor, the
      // rest of the replay may be gone, and the watch ends as etcd ends a watcher left behind.
      const compacted = deps.compactRevision();
      if (cursor <= compacted) {
        w.fail(new CompactedError(cursor, compacted));
        return;
      }
      const to = Math.min(req.upTo, cursor + windowRevisions - 1);
      try {
        w.replay(readHistory(deps.stmts, { range: req.range, from: cursor, to }));
      } catch (err) {
        w.fail(deps.fault('watch', err));
        return;
      }
      cursor = to + 1;
      if (cursor <= req.upTo) {
        setImmediate(step);
        return;
      }
    }
  };
  step();
}
