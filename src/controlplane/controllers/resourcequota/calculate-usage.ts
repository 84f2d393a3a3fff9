// quota.CalculateUsage (pkg/quota/v1/resources.go with the evaluators' UsageStats): what a
// namespace uses of each resource a quota bounds, counted from the objects storage holds now.
// Each bounded name an evaluator counts starts at zero; names no served resource counts keep the
// value they had.
import type { ResourceQuota } from '../../../api/core/v1/resource-quota.js';
import type { KubeObject } from '../../../api/meta.js';
import { evaluatorFor } from '../../../admission/plugin/resourcequota/evaluator/evaluators.js';
import {
  addAmounts,
  amountsOf,
  maskAmounts,
  type ResourceAmounts,
} from '../../../admission/plugin/resourcequota/evaluator/resources.js';
import type { Lister } from '../../../registry/rest/capabilities.js';

/** The resources whose usage has names of their own beyond count/<resource>. */
const alwaysConsidered = ['pods', 'services', 'persistentvolumeclaims'];
const legacyCounts = ['configmaps', 'secrets', 'replicationcontrollers', 'resourcequotas'];

/** `group/resource` of each resource a hard name may be about. */
export function resourcesNamedBy(hard: readonly string[]): string[] {
  const out = new Set(alwaysConsidered.map((r) => `/${r}`));
  for (const name of hard) {
    if (legacyCounts.includes(name)) out.add(`/${name}`);
    if (!name.startsWith('count/')) continue;
    const rest = name.slice('count/'.length);
    const dot = rest.indexOf('.');
    out.add(dot < 0 ? `/${rest}` : `${rest.slice(dot + 1)}/${rest.slice(0, dot)}`);
  }
  return [...out];
}

export interface UsageSources {
  /** The lister of a served `group/resource`, if any. */
  listerOf(groupResource: string): Lister | undefined;
  /** The objects of the resource in the namespace, now. */
  list(lister: Lister, namespace: string): Promise<readonly KubeObject[]>;
  readonly now: number;
}

export async function calculateUsage(quota: ResourceQuota, sources: UsageSources): Promise<ResourceAmounts> {
  const hard = Object.keys(quota.spec?.hard ?? {});
  const namespace = quota.metadata?.namespace ?? '';
  let used = maskAmounts(amountsOf(quota.status?.used), hard);
  for (const key of resourcesNamedBy(hard)) {
    const slash = key.indexOf('/');
    const evaluator = evaluatorFor(key.slice(0, slash), key.slice(slash + 1));
    const matching = evaluator.matchingResources(hard);
    const lister = sources.listerOf(key);
    if (matching.length === 0 || lister === undefined) continue;
    let total: ResourceAmounts = new Map(
      matching.map((n) => [n, { unscaled: 0n, exponent: 0, format: 'DecimalSI' } as const]),
    );
    for (const obj of await sources.list(lister, namespace)) {
      if (!evaluator.matchesScopes(quota, obj)) continue;
      total = addAmounts(total, maskAmounts(evaluator.usage(obj, sources.now), matching));
    }
    used = new Map([...used, ...total]);
  }
  return used;
}
