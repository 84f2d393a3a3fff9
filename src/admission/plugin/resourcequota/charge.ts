// One quota's part in admitting an object (k8s.io/apiserver/pkg/admission/plugin/resourcequota/
// controller.go checkRequest): which quotas the object falls under, the checks made before any
// usage is counted, and the new status.used, or kube's "exceeded quota" text.
import type { ResourceQuota } from '../../../api/core/v1/resource-quota.js';
import type { KubeObject } from '../../../api/meta.js';
import type { QuotaEvaluator } from './evaluator/evaluators.js';
import {
  addAmounts,
  amountsOf,
  exceededNames,
  maskAmounts,
  prettyPrint,
  resourceList,
  type ResourceAmounts,
} from './evaluator/resources.js';

const hardNames = (q: ResourceQuota): string[] => Object.keys(q.status?.hard ?? {});

/** The quotas whose status.hard names something the evaluator counts and whose scopes take the object. */
export function interestingQuotas(
  quotas: readonly ResourceQuota[],
  evaluator: QuotaEvaluator,
  obj: KubeObject,
): ResourceQuota[] {
  return quotas.filter(
    (q) => evaluator.matchingResources(hardNames(q)).length > 0 && evaluator.matchesScopes(q, obj),
  );
}

/** Evaluator constraints, then hasUsageStats: the reason to refuse before counting, or undefined. */
export function precheck(
  quota: ResourceQuota,
  evaluator: QuotaEvaluator,
  obj: KubeObject,
): string | undefined {
  const name = quota.metadata?.name ?? '';
  const restricted = evaluator.matchingResources(hardNames(quota));
  const failed = evaluator.constraints(restricted, obj);
  if (failed !== undefined) return `failed quota: ${name}: ${failed}`;
  const used = quota.status?.used ?? {};
  if (restricted.some((r) => !(r in used)))
    return `status unknown for quota: ${name}, resources: ${[...restricted].sort().join(',')}`;
  return undefined;
}

export type ChargeResult =
  | { readonly ok: true; readonly used: Record<string, string> | undefined }
  | { readonly ok: false; readonly message: string };

/** The quota's used plus the object's delta where the quota bounds it; refused over any bound. */
export function charge(quota: ResourceQuota, delta: ResourceAmounts): ChargeResult {
  const hard = amountsOf(quota.status?.hard);
  const used = amountsOf(quota.status?.used);
  const requested = maskAmounts(delta, hard.keys());
  if (requested.size === 0) return { ok: true, used: undefined };
  const next = addAmounts(used, requested);
  const exceeded = exceededNames(maskAmounts(next, requested.keys()), hard);
  if (exceeded.length > 0)
    return {
      ok: false,
      message: `exceeded quota: ${quota.metadata?.name ?? ''}, requested: ${prettyPrint(maskAmounts(requested, exceeded))}, used: ${prettyPrint(maskAmounts(used, exceeded))}, limited: ${prettyPrint(maskAmounts(hard, exceeded))}`,
    };
  return { ok: true, used: resourceList(next) };
}
