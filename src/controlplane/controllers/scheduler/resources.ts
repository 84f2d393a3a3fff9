// A pod's resource requests and a node's allocatable, in thousandths of a unit (the scheduler's
// Resource in milli for cpu; every other resource scaled the same way so one type serves all).
import type { Container } from '../../../api/core/v1/container.js';
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

/**
 * What the scheduler counts for a container that asks for no cpu or memory when it scores nodes
 * (schedutil's DefaultMilliCPURequest and DefaultMemoryRequest), so that such pods still spread.
 */
const nonZeroDefaults: Readonly<Record<string, string>> = { cpu: '100m', memory: '200Mi' };

function withNonZeroRequests(c: Container): Container {
  const requests = c.resources?.requests ?? {};
  if (Object.hasOwn(requests, 'cpu') && Object.hasOwn(requests, 'memory')) return c;
  return { ...c, resources: { ...c.resources, requests: { ...nonZeroDefaults, ...requests } } };
}

/**
 * The pod's requests with each container's missing cpu and memory requests counted at their
 * defaults (PodRequests with NonMissingContainerRequests): NodeInfo.NonZeroRequested's share.
 */
export function podNonZeroRequests(pod: Pod): Resources {
  const spec = pod.spec;
  if (spec === undefined) return podRequests(pod);
  const initContainers = spec.initContainers?.map(withNonZeroRequests);
  return podRequests({
    ...pod,
    spec: {
      ...spec,
      containers: spec.containers.map(withNonZeroRequests),
      ...(initContainers === undefined ? {} : { initContainers }),
    },
  });
}

export function nodeAllocatable(node: Node): Resources {
  const r: Resources = new Map();
  add(r, node.status?.allocatable ?? node.status?.capacity);
  return r;
}

export function addResources(a: Resources, b: Resources, sign: 1n | -1n = 1n): void {
  for (const [name, v] of b) a.set(name, (a.get(name) ?? 0n) + sign * v);
}
