// A failed pod against a Job's podFailurePolicy (pkg/controller/job/pod_failure_policy.go): the
// first rule whose exit codes or pod conditions match decides. FailJob ends the Job with the
// rule's message, Ignore leaves the failure out of the backoff count, Count counts it, FailIndex
// counts it and (with backoffLimitPerIndex) marks the pod's index failed at once. A rule with an
// action this controller does not know is passed over, as the API asks of clients.
import type {
  Job,
  PodFailurePolicyOnExitCodesRequirement,
  PodFailurePolicyRule,
} from '../../../api/batch/v1/job.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { ContainerStatus } from '../../../api/core/v1/pod-status.js';

export const podFailurePolicyActions = ['FailJob', 'FailIndex', 'Ignore', 'Count'] as const;
export type PodFailurePolicyAction = (typeof podFailurePolicyActions)[number];

export interface PolicyMatch {
  /** Set when a FailJob rule matched: the Job's failure message. */
  readonly failJobMessage?: string;
  /** False when an Ignore rule matched: the failure is not counted against backoffLimit. */
  readonly countFailed: boolean;
  /** The action of the rule that matched; undefined when none did. */
  readonly action?: PodFailurePolicyAction;
}

const noMatch: PolicyMatch = { countFailed: true };

export function matchPodFailurePolicy(job: Job, pod: Pod): PolicyMatch {
  const rules = job.spec?.podFailurePolicy?.rules ?? [];
  for (const [index, rule] of rules.entries()) {
    const what = ruleMatches(rule, pod);
    if (what === undefined) continue;
    switch (rule.action) {
      case 'Ignore':
        return { countFailed: false, action: 'Ignore' };
      case 'Count':
        return { countFailed: true, action: 'Count' };
      case 'FailIndex':
        return { countFailed: true, action: 'FailIndex' };
      case 'FailJob':
        return { countFailed: true, action: 'FailJob', failJobMessage: failJobMessage({ pod, what, index }) };
      default:
        continue;
    }
  }
  return noMatch;
}

/** The first FailJob message among the Job's failed pods (kube's getFailJobMessage). */
export function failJobMessageOf(job: Job, pods: readonly Pod[]): string | undefined {
  if (job.spec?.podFailurePolicy === undefined) return undefined;
  for (const pod of pods) {
    if (pod.status?.phase !== 'Failed') continue;
    const message = matchPodFailurePolicy(job, pod).failJobMessage;
    if (message !== undefined) return message;
  }
  return undefined;
}

type RuleMatch =
  | { readonly kind: 'exit'; readonly container: string; readonly exitCode: number }
  | { readonly kind: 'condition'; readonly type: string };

function ruleMatches(rule: PodFailurePolicyRule, pod: Pod): RuleMatch | undefined {
  if (rule.onExitCodes !== undefined) {
    const req = rule.onExitCodes;
    const status =
      matchingContainer(pod.status?.containerStatuses, req) ??
      matchingContainer(pod.status?.initContainerStatuses, req);
    const exitCode = status?.state?.terminated?.exitCode;
    return status === undefined || exitCode === undefined
      ? undefined
      : { kind: 'exit', container: status.name, exitCode };
  }
  if (rule.onPodConditions === undefined) return undefined;
  for (const cond of pod.status?.conditions ?? [])
    for (const pattern of rule.onPodConditions)
      // The API server defaults a pattern's status to True.
      if (cond.type === pattern.type && cond.status === (pattern.status ?? 'True'))
        return { kind: 'condition', type: cond.type };
  return undefined;
}

function matchingContainer(
  statuses: readonly ContainerStatus[] | undefined,
  req: PodFailurePolicyOnExitCodesRequirement,
): ContainerStatus | undefined {
  return statuses?.find((s) => {
    const code = s.state?.terminated?.exitCode;
    // A container still terminating has no exit code yet; exit code 0 never matches.
    if (code === undefined || code === 0) return false;
    if (req.containerName !== undefined && req.containerName !== s.name) return false;
    if (req.operator === 'In') return req.values.includes(code);
    if (req.operator === 'NotIn') return !req.values.includes(code);
    return false;
  });
}

function failJobMessage(at: { pod: Pod; what: RuleMatch; index: number }): string {
  const podRef = `${at.pod.metadata?.namespace ?? ''}/${at.pod.metadata?.name ?? ''}`;
  return at.what.kind === 'exit'
    ? `Container ${at.what.container} for pod ${podRef} failed with exit code ${String(at.what.exitCode)} matching FailJob rule at index ${String(at.index)}`
    : `Pod ${podRef} has condition ${at.what.type} matching FailJob rule at index ${String(at.index)}`;
}
