// The Job's conditions as syncJob sets them (pkg/controller/job/job_controller.go): how one is
// made and put in the list (ensureJobConditionStatus), and Suspended True/False as spec.suspend is
// set and cleared.
import type { JobCondition } from '../../../api/batch/v1/job.js';

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
