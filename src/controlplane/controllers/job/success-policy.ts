// spec.successPolicy of an Indexed Job (pkg/controller/job/success_policy.go): the rules are tried
// in order and the first one met declares the Job succeeded before every index did. A rule with
// succeededIndexes is met once all of those indexes succeeded, or, with succeededCount too, once
// that many of them did; a rule with succeededCount alone once that many indexes succeeded.
import type { Job } from '../../../api/batch/v1/job.js';
import { parseIndexIntervals, type IndexInterval } from './indexed.js';

/** Whether `i` is in one of the intervals, which are in increasing order (validation saw to it). */
function inIntervals(intervals: readonly IndexInterval[], i: number): boolean {
  let lo = 0;
  let hi = intervals.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [first, last] = intervals[mid] ?? [0, -1];
    if (i < first) hi = mid - 1;
    else if (i > last) lo = mid + 1;
    else return true;
  }
  return false;
}

/** The SuccessCriteriaMet message of the first rule met ("Matched rules at index 0"); undefined if none is. */
export function matchSuccessPolicy(job: Job, succeededIndexes: readonly number[]): string | undefined {
  const rules = job.spec?.successPolicy?.rules ?? [];
  if (rules.length === 0 || succeededIndexes.length === 0) return undefined;
  const completions = job.spec?.completions ?? 0;
  const succeeded = new Set(succeededIndexes);
  for (const [index, rule] of rules.entries()) {
    const count = rule.succeededCount;
    let met: boolean;
    if (rule.succeededIndexes !== undefined) {
      // Counted over the intervals, never expanded: a rule may name a billion indexes.
      const required = parseIndexIntervals(rule.succeededIndexes, completions);
      // A rule whose indexes cannot be read is passed over.
      if (required.length === 0) continue;
      const total = required.reduce((n, [first, last]) => n + last - first + 1, 0);
      let contained = 0;
      for (const i of succeeded) if (inIntervals(required, i)) contained++;
      met = contained === total || (count !== undefined && contained >= count);
    } else met = count !== undefined && succeededIndexes.length >= count;
    if (met) return `Matched rules at index ${String(index)}`;
  }
  return undefined;
}
