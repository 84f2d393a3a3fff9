// A pod's resource requests and a node's allocatable, in thousandths of a unit (the scheduler's
// Resource in milli for cpu; every other resource scaled the same way so one type serves all).
import type { Container } from '../../../api/core/v1/container.js';
import type { Node } from '../../../api/core/v1/node.js';
import type { ContainerStatus } from '../../../api/core/v1/pod-status.js';
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

/** Whether the kubelet found the pod's pending resize impossible on its node (PodResizePending Infeasible). */
export const resizeInfeasible = (pod: Pod): boolean =>
  (pod.status?.conditions ?? []).some(
    (c) => c.type === 'PodResizePending' && c.status === 'True' && c.reason === 'Infeasible',
  );

function maxInto(into: Resources, from: Readonly<Record<string, string>> | undefined): void {
  for (const [name, q] of Object.entries(from ?? {})) {
    const v = milli(q);
    if (v > (into.get(name) ?? 0n)) into.set(name, v);
  }
}

function specRequests(c: Container): Resources {
  const one: Resources = new Map();
  add(one, c.resources?.requests);
  return one;
}

/**
 * A running container's requests as component-helpers' PodRequests reads them with
 * InPlacePodVerticalScaling: the larger of what the spec asks (unless the kubelet found that
 * infeasible) and what the kubelet allocated and applied; the spec's alone before the kubelet reports.
 */
function containerRequests(
  pod: Pod,
  c: Container,
  statuses: ReadonlyMap<string, ContainerStatus>,
): Resources {
  const status = statuses.get(c.name);
  if (status?.resources === undefined) return specRequests(c);
  const one: Resources = new Map();
  if (!resizeInfeasible(pod)) maxInto(one, c.resources?.requests);
  maxInto(one, status.resources.requests);
  maxInto(one, status.allocatedResources);
  return one;
}

/**
 * computePodResourceRequest: the sum over the containers, raised to the largest init container's
 * request (init containers run one at a time), plus the pod's overhead.
 */
export function podRequests(pod: Pod): Resources {
  const sum: Resources = new Map();
  const statuses = new Map<string, ContainerStatus>();
  for (const s of pod.status?.containerStatuses ?? []) statuses.set(s.name, s);
  for (const s of pod.status?.initContainerStatuses ?? []) statuses.set(s.name, s);
  for (const c of pod.spec?.containers ?? []) addResources(sum, containerRequests(pod, c, statuses));
  for (const c of pod.spec?.initContainers ?? []) {
    // Only a sidecar's status counts: the others ran before and were never resized.
    const one = c.restartPolicy === 'Always' ? containerRequests(pod, c, statuses) : specRequests(c);
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
