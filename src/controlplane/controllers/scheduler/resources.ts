// A pod's resource requests and a node's allocatable, in thousandths of a unit (the scheduler's
// Resource in milli for cpu; every other resource scaled the same way so one type serves all).
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { podAmounts } from '../../../admission/plugin/pod-resources.js';
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
 * computePodResourceRequest: component-helpers' PodRequests (the admission plugins' podAmounts) with
 * the pod's overhead and, as InPlacePodVerticalScaling has it read, what its kubelet reports.
 */
export function podRequests(pod: Pod): Resources {
  const out: Resources = new Map();
  const amounts = podAmounts(pod.spec ?? {}, 'requests', { overhead: true, status: pod.status });
  for (const [name, q] of amounts) out.set(name, milliValue(q));
  return out;
}

export function nodeAllocatable(node: Node): Resources {
  const r: Resources = new Map();
  add(r, node.status?.allocatable ?? node.status?.capacity);
  return r;
}

export function addResources(a: Resources, b: Resources, sign: 1n | -1n = 1n): void {
  for (const [name, v] of b) a.set(name, (a.get(name) ?? 0n) + sign * v);
}
