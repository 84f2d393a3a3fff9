// The PodMetrics and NodeMetrics of simulated pods and nodes, computed from the objects as they are
// now (nothing is sampled ahead). As metrics-server (pkg/storage/pod.go, node.go) reports only what
// it scraped from a kubelet: a pod has metrics while it is Running on a simulated node whose kubelet
// answers and every one of its containers runs; a node while its simulated kubelet answers. Each
// item carries the object's labels and is stamped with the server's time.
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { ObjectMeta } from '../../../api/meta.js';
import type { ContainerMetrics, NodeMetrics, PodMetrics } from '../../../api/metrics/v1beta1/types.js';
import { nowRFC3339 } from '../../../machinery/time/rfc3339.js';
import { isSimulatedNode } from '../../../registry/core/node/simulated.js';
import { isKubeletStopped } from '../kubelet/node-template.js';
import { addUsage, containerUsage, nodeBaseUsage, resourceList, type Usage } from './usage.js';

/** metrics-server's default --metric-resolution: the span between the two samples a usage is averaged over. */
export const metricsWindow = '15s';

/** A node a simulated kubelet answers for: one metrics-server could scrape. */
export const scrapeable = (node: Node | undefined): node is Node =>
  isSimulatedNode(node) && !isKubeletStopped(node);

/**
 * The names of the pod's containers that have metrics (its containers, then its running sidecars),
 * or undefined when the pod has none: not Running, not on a node in `nodes`, or a container not
 * running.
 */
export function containersWithMetrics(
  pod: Pod,
  nodes: ReadonlyMap<string, Node>,
): readonly string[] | undefined {
  if (pod.status?.phase !== 'Running') return undefined;
  if (!scrapeable(nodes.get(pod.spec?.nodeName ?? ''))) return undefined;
  const running = new Set(
    [...(pod.status.containerStatuses ?? []), ...(pod.status.initContainerStatuses ?? [])]
      .filter((s) => s.state?.running !== undefined)
      .map((s) => s.name),
  );
  const containers = pod.spec?.containers ?? [];
  if (containers.length === 0 || containers.some((c) => !running.has(c.name))) return undefined;
  const sidecars = (pod.spec?.initContainers ?? []).filter(
    (c) => c.restartPolicy === 'Always' && running.has(c.name),
  );
  return [...containers, ...sidecars].map((c) => c.name);
}

function itemMeta(obj: { metadata?: ObjectMeta }, now: number, namespaced: boolean): ObjectMeta {
  const m = obj.metadata ?? {};
  const labels = m.labels ?? {};
  return {
    name: m.name ?? '',
    ...(namespaced ? { namespace: m.namespace ?? '' } : {}),
    creationTimestamp: nowRFC3339(now),
    ...(Object.keys(labels).length === 0 ? {} : { labels: { ...labels } }),
  };
}

/** The pod's usage summed over the containers that have metrics; undefined when it has none. */
export function podUsage(pod: Pod, nodes: ReadonlyMap<string, Node>): Usage | undefined {
  const names = containersWithMetrics(pod, nodes);
  if (names === undefined) return undefined;
  const annotations = pod.metadata?.annotations;
  return names.reduce<Usage>((sum, name) => addUsage(sum, containerUsage(annotations, name)), {
    cpuNanos: 0n,
    memoryBytes: 0n,
  });
}

/** The pod's PodMetrics (list item form: no kind), or undefined when it has none. */
export function podMetricsOf(
  pod: Pod,
  at: { nodes: ReadonlyMap<string, Node>; now: number },
): PodMetrics | undefined {
  const names = containersWithMetrics(pod, at.nodes);
  if (names === undefined) return undefined;
  const annotations = pod.metadata?.annotations;
  const containers = names.map((name): ContainerMetrics => ({
    name,
    usage: resourceList(containerUsage(annotations, name)),
  }));
  return {
    metadata: itemMeta(pod, at.now, true),
    timestamp: nowRFC3339(at.now),
    window: metricsWindow,
    containers,
  };
}

/** What the pods that have metrics use, summed per node name. */
export function usageByNode(pods: readonly Pod[], nodes: ReadonlyMap<string, Node>): Map<string, Usage> {
  const out = new Map<string, Usage>();
  for (const pod of pods) {
    const used = podUsage(pod, nodes);
    if (used === undefined) continue;
    const name = pod.spec?.nodeName ?? '';
    const sum = out.get(name);
    out.set(name, sum === undefined ? used : addUsage(sum, used));
  }
  return out;
}

/**
 * The node's NodeMetrics (list item form), or undefined when its kubelet is not simulated or not
 * answering: its own base plus what its pods use (`podsUsage`, from usageByNode).
 */
export function nodeMetricsOf(
  node: Node,
  at: { podsUsage: Usage | undefined; now: number },
): NodeMetrics | undefined {
  if (!scrapeable(node)) return undefined;
  const base = nodeBaseUsage(node.metadata?.annotations);
  return {
    metadata: itemMeta(node, at.now, false),
    timestamp: nowRFC3339(at.now),
    window: metricsWindow,
    usage: resourceList(at.podsUsage === undefined ? base : addUsage(base, at.podsUsage)),
  };
}
