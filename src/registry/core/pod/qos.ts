// Pod QoS class (pkg/apis/core/helper/qos/qos.go): BestEffort without any cpu/memory request or
// limit; Guaranteed when every container limits cpu and memory and requests equal limits.
import type { Container } from '../../../api/core/v1/container.js';
import type { PodSpec } from '../../../api/core/v1/pod.js';
import type { PodQOSClass } from '../../../api/core/v1/pod-status.js';
import { parseQuantity } from './quantity.js';

const computeResources = ['cpu', 'memory'] as const;

type Totals = Map<string, number>;

function add(totals: Totals, list: Record<string, string> | undefined): void {
  for (const name of computeResources) {
    const raw = list?.[name];
    if (raw === undefined) continue;
    const value = parseQuantity(raw);
    if (value > 0) totals.set(name, (totals.get(name) ?? 0) + value);
  }
}

/** GetPodQOS over init and regular containers. */
export function computePodQOS(spec: PodSpec | undefined): PodQOSClass {
  const requests: Totals = new Map();
  const limits: Totals = new Map();
  let limitsComplete = true;
  const all: Container[] = [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])];
  for (const c of all) {
    add(requests, c.resources?.requests);
    const own: Totals = new Map();
    add(own, c.resources?.limits);
    add(limits, c.resources?.limits);
    if (!computeResources.every((r) => own.has(r))) limitsComplete = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (!limitsComplete || requests.size !== limits.size) return 'Burstable';
  for (const [name, req] of requests) if (limits.get(name) !== req) return 'Burstable';
  return limits.size === computeResources.length ? 'Guaranteed' : 'Burstable';
}
