// A FlowSchema's `Dangling` condition as kube's configuration controller writes it: False with
// reason Found when its priority level exists, True with reason NotFound when it does not.
import type { FlowcontrolCondition, FlowSchema } from '../../api/flowcontrol/v1/flow-schema.js';
import { deepCopyJSON } from '../../machinery/json/deep-copy.js';

function desiredCondition(fs: FlowSchema, exists: boolean, now: string): FlowcontrolCondition {
  const pl = JSON.stringify(fs.spec.priorityLevelConfiguration?.name ?? '');
  return exists
    ? {
        type: 'Dangling',
        status: 'False',
        lastTransitionTime: now,
        reason: 'Found',
        message: `This FlowSchema references the PriorityLevelConfiguration object named ${pl} and it exists`,
      }
    : {
        type: 'Dangling',
        status: 'True',
        lastTransitionTime: now,
        reason: 'NotFound',
        message: `This FlowSchema references the PriorityLevelConfiguration object named ${pl} but there is no such object`,
      };
}

/** The FlowSchema with its condition brought up to date, or undefined when it already is. */
export function danglingStatusUpdate(fs: FlowSchema, exists: boolean, now: string): FlowSchema | undefined {
  const want = desiredCondition(fs, exists, now);
  const conditions = fs.status?.conditions ?? [];
  const have = conditions.find((c) => c.type === 'Dangling');
  if (
    have !== undefined &&
    have.status === want.status &&
    have.reason === want.reason &&
    have.message === want.message
  )
    return undefined;
  const next = deepCopyJSON(fs);
  next.status = { ...next.status, conditions: [...conditions.filter((c) => c.type !== 'Dangling'), want] };
  return next;
}
