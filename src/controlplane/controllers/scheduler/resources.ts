// A pod's resource requests and a node's allocatable, in thousandths of a unit (the scheduler's
// Resource in milli for cpu; every other resource scaled the same way so one type serves all).
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { milliValue, parseQuantity } from '../../../machinery/quantity/quantity.js';

export type Resources = Map<string, bigint>;

const milli = (text: string): bigint => {
  const parsed = parseQuantity(text);
  return parsed.ok ? milliValue(parsed.quantity) : 0n;
};

function add(into: Resources, from: Readonly<Record<string, string>> | undefined): void {
  for (const [name, q] of Object.entries(from ?? {})) into.set(name, (into.get(name) ?? 0n) + milli(q));
}

/**
 * computePodResourceRequest: the sum over the containers, raised to the largest init container's
 * request (init containers run one at a time), plus the pod's overhead.
 */
export function podRequests(pod: Pod): Resources {
  const sum: Resources = new Map();
  for (const c of pod.spec?.containers ?? []) add(sum, c.resources?.requests);
  for (const c of pod.spec?.initContainers ?? []) {
    const one: Resources = new Map();
    add(one, c.resources?.requests);
    for (const [name, v] of one) if (v > (sum.get(name) ?? 0n)) sum.set(name, v);
  }
  add(sum, pod.spec?.overhead);
  return sum;
}

export function nodeAllocatable(node: Node): Resources {
  const r: Resources = new Map();
  add(r, node.status?.allocatable ?? node.status?.capacity);
  return r;
}

export function addResources(a: Resources, b: Resources, sign: 1n | -1n = 1n): void {
  for (const [name, v] of b) a.set(name, (a.get(name) ?? 0n) + sign * v);
}
