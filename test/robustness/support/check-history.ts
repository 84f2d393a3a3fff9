// Runs every check on a recorded history and sums it up in one line for the test's output.
import type { History } from './history.js';
import { checkLinearizable } from './linearizability.js';
import { patchUnknowns } from './patch-history.js';
import { checkWatchesAndLists } from './watch-check.js';

export interface HistoryVerdict {
  readonly summary: string;
  /** Empty when every check passed; else each failure, the linearizability one with its sub-history. */
  readonly problems: readonly string[];
  readonly counts: {
    readonly ok: number;
    readonly unknown: number;
    readonly listsChecked: number;
    readonly events: number;
  };
}

export function checkHistory(history: History, baseRv: number): HistoryVerdict {
  const patched = patchUnknowns(history, baseRv);
  const lin = checkLinearizable(patched.ops);
  const watch = checkWatchesAndLists(history, baseRv);
  const problems = [...(lin.ok ? [] : [lin.report]), ...watch.problems.slice(0, 20)];
  const by = (t: string): number => history.ops.filter((o) => o.output.type === t).length;
  const ok = by('ok');
  const unknown = by('unknown');
  const summary =
    `${history.ops.length} operations (${ok} ok, ${by('conflict')} conflicts, ${by('exists')} exists, ` +
    `${by('notFound')} not found, ${unknown} unknown), ${history.lists.length} lists ` +
    `(${watch.listsChecked} checked against the replay, ${watch.listsUncovered} outside the watched range), ` +
    `${history.segments.length} watch segments delivering ${watch.eventsDelivered} events over ${watch.changes} revisions` +
    `, ${patched.open} writes of unknown outcome left open`;
  return {
    summary,
    problems,
    counts: { ok, unknown, listsChecked: watch.listsChecked, events: watch.eventsDelivered },
  };
}
