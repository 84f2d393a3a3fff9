// The PodDisruptionBudget rules of an eviction (pkg/registry/core/pod/storage/eviction.go): which
// budget covers a pod, whether it allows one more disruption, and the budget charged for it.
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Condition, PodDisruptionBudget } from '../../../api/policy/v1/pod-disruption-budget.js';
import { StatusError, newForbidden, statusError } from '../../../machinery/errors/index.js';
import { labelSelectorAsSelector } from '../../../machinery/labels/index.js';
import { nowTimestamp } from '../../generic/object-meta.js';
import { deepCopyJSON } from '../../../machinery/json/deep-copy.js';

/** Beyond this many evictions the disruption controller has not confirmed, none is allowed. */
export const maxDisruptedPodSize = 2000;

const evictionResource = { group: 'policy', resource: 'poddisruptionbudget' } as const;

/** The budget cannot be charged yet: its status predates its spec, or a charge conflicted. */
export function stillProcessing(pdbName: string): StatusError {
  return statusError({
    reason: 'TooManyRequests',
    message: "Cannot evict pod as it would violate the pod's disruption budget.",
    details: {
      retryAfterSeconds: 10,
      causes: [
        {
          reason: 'DisruptionBudget',
          message: `The disruption budget ${pdbName} is still being processed by the server.`,
        },
      ],
    },
  });
}

function budgetExhausted(pdb: PodDisruptionBudget): StatusError {
  const name = pdb.metadata?.name ?? '';
  const desired = pdb.status?.desiredHealthy ?? 0;
  const current = pdb.status?.currentHealthy ?? 0;
  return statusError({
    reason: 'TooManyRequests',
    message: "Cannot evict pod as it would violate the pod's disruption budget.",
    details: {
      causes: [
        {
          reason: 'DisruptionBudget',
          message: `The disruption budget ${name} needs ${desired} healthy pods and has ${current} currently`,
        },
      ],
    },
  });
}

/** The 500 kube answers (as a Failure Status, no reason) when two budgets cover the pod. */
export function moreThanOneBudget(): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message:
      'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
    code: 500,
  });
}

/** meta.SetStatusCondition of DisruptionAllowed (pdbhelper.UpdateDisruptionAllowedCondition). */
function updateDisruptionAllowedCondition(pdb: PodDisruptionBudget, nowMs: number): void {
  const status = pdb.status ?? {
    disruptionsAllowed: 0,
    currentHealthy: 0,
    desiredHealthy: 0,
    expectedPods: 0,
  };
  const allowed = status.disruptionsAllowed > 0;
  const wanted: Condition = {
    type: 'DisruptionAllowed',
    status: allowed ? 'True' : 'False',
    reason: allowed ? 'SufficientPods' : 'InsufficientPods',
    message: '',
    lastTransitionTime: nowTimestamp(nowMs),
    ...(status.observedGeneration !== undefined ? { observedGeneration: status.observedGeneration } : {}),
  };
  const conditions = status.conditions ?? [];
  const i = conditions.findIndex((c) => c.type === wanted.type);
  const old = conditions[i];
  if (old === undefined) conditions.push(wanted);
  else
    conditions[i] = {
      ...wanted,
      lastTransitionTime: old.status === wanted.status ? old.lastTransitionTime : wanted.lastTransitionTime,
    };
  status.conditions = conditions;
  pdb.status = status;
}

/**
 * checkAndDecrement: fails with kube's errors when the budget allows no disruption; otherwise the
 * budget with one disruption fewer and, unless dry-run, the pod among its disruptedPods. `nowMs` is
 * the server's clock, which stamps both.
 */
export function checkAndDecrement(
  pdb: PodDisruptionBudget,
  req: { podName: string; dryRun: boolean; nowMs: number },
): PodDisruptionBudget {
  const name = pdb.metadata?.name ?? '';
  const status = pdb.status;
  if ((status?.observedGeneration ?? 0) < (pdb.metadata?.generation ?? 0)) throw stillProcessing(name);
  const allowed = status?.disruptionsAllowed ?? 0;
  if (allowed < 0) throw newForbidden(evictionResource, name, 'pdb disruptions allowed is negative');
  if (Object.keys(status?.disruptedPods ?? {}).length > maxDisruptedPodSize) {
    throw newForbidden(
      evictionResource,
      name,
      'DisruptedPods map too big - too many evictions not confirmed by PDB controller',
    );
  }
  if (allowed === 0) throw budgetExhausted(pdb);
  const out = deepCopyJSON(pdb);
  const next = (out.status ??= {
    disruptionsAllowed: 0,
    currentHealthy: 0,
    desiredHealthy: 0,
    expectedPods: 0,
  });
  next.disruptionsAllowed = allowed - 1;
  if (next.disruptionsAllowed === 0) updateDisruptionAllowedCondition(out, req.nowMs);
  if (!req.dryRun) next.disruptedPods = { ...next.disruptedPods, [req.podName]: nowTimestamp(req.nowMs) };
  return out;
}

/** Does the budget's selector pick the pod? A selector that does not parse picks nothing. */
export function covers(pdb: PodDisruptionBudget, pod: Pod): boolean {
  if ((pdb.metadata?.namespace ?? '') !== (pod.metadata?.namespace ?? '')) return false;
  const converted = labelSelectorAsSelector(pdb.spec?.selector);
  return converted.ok && converted.selector.matches(pod.metadata?.labels ?? {});
}
