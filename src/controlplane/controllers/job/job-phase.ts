// The part of syncJob for a Job that has not reached its end (pkg/controller/job/job_controller.go):
// its pods are managed, it completes once enough pods succeeded and none runs, and, in a sync that
// managed its pods, Suspended turns True or False with spec.suspend (a resumed Job's startTime
// restarts, so activeDeadlineSeconds counts only the time it ran).
import { rfc3339 } from '../simulation/clock.js';
import { ensureCondition, resumedCondition, suspendedCondition } from './job-conditions.js';
import { isComplete, successCondition } from './job-status.js';
import { manageJob, type ManageDeps } from './manage-job.js';
import type { SyncJobContext } from './sync-context.js';

export async function settleRunningJob(
  deps: ManageDeps,
  ctx: SyncJobContext,
  manage: boolean,
): Promise<{
  readonly active: number;
  readonly failure: { readonly cause: unknown } | undefined;
  readonly conditionsChanged: boolean;
}> {
  let active = ctx.activePods.length;
  let failure: { readonly cause: unknown } | undefined;
  if (manage) ({ active, err: failure } = await manageJob(deps, ctx));
  if (isComplete(ctx.job, { succeeded: ctx.succeeded, active })) {
    ctx.finished = successCondition;
    return { active, failure, conditionsChanged: false };
  }
  // Conditions follow spec.suspend only in a sync that managed the pods.
  if (!manage) return { active, failure, conditionsChanged: false };
  const status = (ctx.job.status ??= {});
  const now = rfc3339(deps.now());
  const suspended = ctx.job.spec?.suspend === true;
  const { conditions, changed } = ensureCondition(
    status.conditions ?? [],
    suspended ? suspendedCondition : resumedCondition,
    now,
  );
  if (!changed) return { active, failure, conditionsChanged: false };
  status.conditions = conditions;
  if (suspended) ctx.events.push({ type: 'Normal', reason: 'Suspended', message: 'Job suspended' });
  else {
    ctx.events.push({ type: 'Normal', reason: 'Resumed', message: 'Job resumed' });
    status.startTime = now;
  }
  return { active, failure, conditionsChanged: true };
}
