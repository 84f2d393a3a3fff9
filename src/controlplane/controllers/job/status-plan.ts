// What one sync of a Job decides for its status beyond the counts (syncJob and enactJobFinished in
// pkg/controller/job/job_controller.go): the conditions, startTime, completionTime and the events
// that go with them.
import type { Job } from '../../../api/batch/v1/job.js';
import type { EventNote } from '../event-recorder.js';
import {
  ensureCondition,
  outcomeConditions,
  resumedCondition,
  suspendedCondition,
} from './job-conditions.js';
import type { JobCounts, JobOutcome, StatusAt } from './job-status.js';

export interface StatusPlan extends StatusAt {
  readonly conditionsChanged: boolean;
  /** Recorded once the status is written. */
  readonly events: readonly EventNote[];
}

export function planStatus(
  job: Job,
  at: { counts: JobCounts; outcome: JobOutcome | undefined; activeDeleted: boolean; now: string },
): StatusPlan {
  const { counts, outcome, now } = at;
  const before = job.status?.conditions ?? [];
  const suspended = job.spec?.suspend === true;
  // A suspended Job that never ran has no startTime.
  const startTime = job.status?.startTime ?? (suspended ? undefined : now);
  const base = { startTime, completionTime: undefined, activeDeleted: at.activeDeleted };
  if (outcome !== undefined) {
    // A failed delete leaves the outcome for the next sync; the terminal condition waits until
    // no pod of the Job is terminating.
    if (!at.activeDeleted) return { ...base, conditions: [...before], conditionsChanged: false, events: [] };
    const final = counts.terminating === 0 && counts.active.length === 0;
    const conditions = outcomeConditions(job, { outcome, final, now });
    return {
      ...base,
      completionTime: final && outcome.type === 'Complete' ? now : undefined,
      conditions,
      conditionsChanged: JSON.stringify(conditions) !== JSON.stringify(before),
      events: final ? finishedEvents(job, { outcome, succeeded: counts.succeeded }) : [],
    };
  }
  if (suspended) {
    const { conditions, changed } = ensureCondition(before, suspendedCondition, now);
    const events: EventNote[] = changed
      ? [{ type: 'Normal', reason: 'Suspended', message: 'Job suspended' }]
      : [];
    return { ...base, conditions, conditionsChanged: changed, events };
  }
  const { conditions, changed } = ensureCondition(before, resumedCondition, now);
  if (!changed) return { ...base, conditions, conditionsChanged: false, events: [] };
  // A resumed Job starts its clock again, so activeDeadlineSeconds counts only time it ran.
  return {
    ...base,
    startTime: now,
    conditions,
    conditionsChanged: true,
    events: [{ type: 'Normal', reason: 'Resumed', message: 'Job resumed' }],
  };
}

// As recordJobFinished.
function finishedEvents(job: Job, at: { outcome: JobOutcome; succeeded: number }): EventNote[] {
  if (at.outcome.type === 'Failed')
    return [{ type: 'Warning', reason: at.outcome.reason, message: at.outcome.message }];
  const completions = job.spec?.completions;
  const tooMany: EventNote[] =
    completions !== undefined && at.succeeded > completions
      ? [
          {
            type: 'Warning',
            reason: 'TooManySucceededPods',
            message: 'Too many succeeded pods running after completion count reached',
          },
        ]
      : [];
  return [...tooMany, { type: 'Normal', reason: 'Completed', message: 'Job completed' }];
}
