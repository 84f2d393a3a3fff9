// Pod QoS class (pkg/apis/core/helper/qos/qos.go): BestEffort without any cpu/memory request or
// limit; Guaranteed when every container limits cpu and memory and requests equal limits.
import type { Container } from '../../../api/core/v1/container.js';
import type { PodSpec } from '../../../api/core/v1/pod.js';
import type { PodQOSClass } from '../../../api/core/v1/pod-status.js';
import { addQuantities, compareQuantities, quantityOf, quantitySign, type Quantity } from './quantity.js';

const computeResources = ['cpu', 'memory'] as const;

type Totals = Map<string, Quantity>;

function add(totals: Totals, list: Record<string, string> | undefined): void {
  for (const name of computeResources) {
    const raw = list?.[name];
    if (raw === undefined) continue;
    const value = quantityOf(raw);
    if (value === undefined || quantitySign(value) <= 0) continue;
    const sum = totals.get(name);
    totals.set(name, sum === undefined ? value : addQuantities(sum, value));
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
  for (const [name, req] of requests) {
    const limit = limits.get(name);
    if (limit === undefined || compareQuantities(limit, req) !== 0) return 'Burstable';
  }
  return limits.size === computeResources.length ? 'Guaranteed' : 'Burstable';
}
