// The Job's conditions as syncJob sets them (pkg/controller/job/job_controller.go): the interim
// SuccessCriteriaMet or FailureTarget first, the terminal Complete or Failed only once no pod of
// the Job is terminating, and Suspended True/False as spec.suspend is set and cleared.
import type { Job, JobCondition } from '../../../api/batch/v1/job.js';
import type { JobOutcome } from './job-status.js';

interface ConditionFields {
  readonly type: string;
  readonly status: string;
  readonly reason: string;
  readonly message: string;
}

export function jobCondition(c: ConditionFields, now: string): JobCondition {
  return {
    type: c.type,
    status: c.status,
    lastProbeTime: now,
    lastTransitionTime: now,
    reason: c.reason,
    message: c.message,
  };
}

/**
 * kube's ensureJobConditionStatus: a condition of that type is replaced when its status, reason
 * or message differ; a missing one is added unless it would be False.
 */
export function ensureCondition(
  list: readonly JobCondition[],
  c: ConditionFields,
  now: string,
): { readonly conditions: JobCondition[]; readonly changed: boolean } {
  const at = list.findIndex((x) => x.type === c.type);
  const current = list[at];
  if (current !== undefined) {
    if (current.status === c.status && current.reason === c.reason && current.message === c.message)
      return { conditions: [...list], changed: false };
    const conditions = [...list];
    conditions[at] = jobCondition(c, now);
    return { conditions, changed: true };
  }
  if (c.status === 'False') return { conditions: [...list], changed: false };
  return { conditions: [...list, jobCondition(c, now)], changed: true };
}

const interimOf = { Complete: 'SuccessCriteriaMet', Failed: 'FailureTarget' } as const;

/** The outcome an earlier sync settled on: a SuccessCriteriaMet or FailureTarget condition. */
export function settledOutcome(job: Job): JobOutcome | undefined {
  for (const type of ['Complete', 'Failed'] as const) {
    const c = job.status?.conditions?.find((x) => x.type === interimOf[type] && x.status === 'True');
    if (c !== undefined) return { type, reason: c.reason ?? '', message: c.message ?? '' };
  }
  return undefined;
}

/** The conditions of a Job that reached `outcome`; `final` adds Complete or Failed. */
export function outcomeConditions(
  job: Job,
  at: { readonly outcome: JobOutcome; readonly final: boolean; readonly now: string },
): JobCondition[] {
  const { outcome, now } = at;
  let { conditions } = ensureCondition(
    job.status?.conditions ?? [],
    { ...outcome, type: interimOf[outcome.type], status: 'True' },
    now,
  );
  if (at.final) ({ conditions } = ensureCondition(conditions, { ...outcome, status: 'True' }, now));
  return conditions;
}

export const suspendedCondition = {
  type: 'Suspended',
  status: 'True',
  reason: 'JobSuspended',
  message: 'Job suspended',
} as const;
export const resumedCondition = {
  type: 'Suspended',
  status: 'False',
  reason: 'JobResumed',
  message: 'Job resumed',
} as const;
