// The pod evaluator of quota (pkg/quota/v1/evaluator/core/pods.go): what a pod uses, which quotas
// its scopes put it under, and the requests or limits a quota on cpu or memory requires of every
// container. Pods that have finished (Succeeded, Failed, or past their deletion grace period) use
// nothing but their count/pods.
import type { Container } from '../../../../api/core/v1/container.js';
import type { Pod } from '../../../../api/core/v1/pod.js';
import type { ResourceQuota } from '../../../../api/core/v1/resource-quota.js';
import { amountsOf, podAmounts } from '../../pod-resources.js';
import { one, type ResourceAmounts } from './resources.js';
import { selectorMatches, type ScopeValue } from './scopes.js';

/** The names a pod's usage can carry beyond requests.* and limits.*. */
const podNames: ReadonlySet<string> = new Set(['count/pods', 'pods', 'cpu', 'memory', 'ephemeral-storage']);

export function podMatchingResources(names: readonly string[]): string[] {
  return names.filter(
    (n) =>
      podNames.has(n) || n.startsWith('requests.') || n.startsWith('limits.') || n.startsWith('hugepages-'),
  );
}

/** QuotaV1Pod: whether the pod still counts against compute quota. */
export function isQuotaPod(pod: Pod, now: number): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const deletedAt = pod.metadata?.deletionTimestamp;
  const grace = pod.metadata?.deletionGracePeriodSeconds;
  if (deletedAt !== undefined && grace !== undefined) {
    if (Date.parse(deletedAt) + grace * 1000 < now) return false;
  }
  return true;
}

const isExtended = (name: string): boolean =>
  name.includes('/') &&
  !name.startsWith('kubernetes.io/') &&
  !name.includes('.kubernetes.io/') &&
  !name.startsWith('requests.');

/** podComputeUsageHelper. */
function computeUsage(requests: ResourceAmounts, limits: ResourceAmounts): ResourceAmounts {
  const out: ResourceAmounts = new Map([['pods', one]]);
  for (const name of ['cpu', 'memory', 'ephemeral-storage']) {
    const req = requests.get(name);
    if (req !== undefined) {
      out.set(name, req);
      out.set(`requests.${name}`, req);
    }
    const lim = limits.get(name);
    if (lim !== undefined) out.set(`limits.${name}`, lim);
  }
  for (const [name, q] of requests) {
    if (name.startsWith('hugepages-')) {
      out.set(name, q);
      out.set(`requests.${name}`, q);
    } else if (isExtended(name)) out.set(`requests.${name}`, q);
  }
  return out;
}

/** PodUsageFunc. */
export function podUsage(pod: Pod, now: number): ResourceAmounts {
  if (!isQuotaPod(pod, now)) return new Map([['count/pods', one]]);
  const spec = pod.spec ?? { containers: [] };
  const opts = { overhead: true, status: pod.status };
  const usage = computeUsage(podAmounts(spec, 'requests', opts), podAmounts(spec, 'limits', opts));
  usage.set('count/pods', one);
  return usage;
}

/** The resources every container must state when a quota limits them (a backward-compatible rule). */
const validationNames: ReadonlySet<string> = new Set([
  'requests.cpu',
  'requests.memory',
  'limits.cpu',
  'limits.memory',
  'cpu',
  'memory',
]);

/** Constraints: `must specify <resource> for: <containers>; …`, or undefined. */
export function podConstraints(required: readonly string[], pod: Pod): string | undefined {
  const needed = required.filter((n) => validationNames.has(n));
  if (needed.length === 0) return undefined;
  const missing = new Map<string, Set<string>>();
  const visit = (c: Container): void => {
    const have = computeUsage(amountsOf(c.resources?.requests), amountsOf(c.resources?.limits));
    for (const name of needed) {
      if (have.has(name)) continue;
      let names = missing.get(name);
      if (names === undefined) missing.set(name, (names = new Set()));
      names.add(c.name);
    }
  };
  (pod.spec?.containers ?? []).forEach(visit);
  (pod.spec?.initContainers ?? []).forEach(visit);
  if (missing.size === 0) return undefined;
  const parts = [...missing.keys()]
    .sort()
    .map((name) => `${name} for: ${[...(missing.get(name) ?? [])].sort().join(',')}`);
  return `must specify ${parts.join('; ')}`;
}

const computeNames = ['cpu', 'memory'];

/** qos.GetPodQOS(pod) == BestEffort: no container asks for or is limited in cpu or memory. */
function isBestEffort(pod: Pod): boolean {
  const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  return containers.every((c) =>
    computeNames.every(
      (n) => c.resources?.requests?.[n] === undefined && c.resources?.limits?.[n] === undefined,
    ),
  );
}

function hasCrossNamespaceAffinity(pod: Pod): boolean {
  const affinity = pod.spec?.affinity as
    | Record<
        string,
        | {
            requiredDuringSchedulingIgnoredDuringExecution?: unknown[];
            preferredDuringSchedulingIgnoredDuringExecution?: unknown[];
          }
        | undefined
      >
    | undefined;
  const terms = ['podAffinity', 'podAntiAffinity'].flatMap((k) => [
    ...(affinity?.[k]?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
    ...(affinity?.[k]?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map(
      (w) => (w as { podAffinityTerm?: unknown }).podAffinityTerm,
    ),
  ]) as Array<{ namespaces?: string[]; namespaceSelector?: unknown } | undefined>;
  return terms.some((t) => (t?.namespaces ?? []).length > 0 || t?.namespaceSelector !== undefined);
}

/** What each pod scope says of a pod: whether it is in it, and its value for In/NotIn. */
function podScopeValue(scope: string, pod: Pod): ScopeValue {
  switch (scope) {
    case 'Terminating':
      return { present: (pod.spec?.activeDeadlineSeconds ?? -1) >= 0 };
    case 'NotTerminating':
      return { present: (pod.spec?.activeDeadlineSeconds ?? -1) < 0 };
    case 'BestEffort':
      return { present: isBestEffort(pod) };
    case 'NotBestEffort':
      return { present: !isBestEffort(pod) };
    case 'PriorityClass':
      return {
        present: (pod.spec?.priorityClassName ?? '') !== '',
        value: pod.spec?.priorityClassName ?? '',
      };
    case 'CrossNamespacePodAffinity':
      return { present: hasCrossNamespaceAffinity(pod) };
    default:
      return { present: false };
  }
}

/** Whether the quota's scopes and scope selector take the pod in. */
export const podMatchesScopes = (quota: ResourceQuota, pod: Pod): boolean =>
  selectorMatches(quota, (scope) => podScopeValue(scope, pod));
