// What a simulated container or node "uses", in the manner of kwok's annotation-based
// ClusterResourceUsage (kustomize/metrics/usage): a pod's annotations set its containers' CPU and
// memory, one value for every container or one for a named container, and a container without
// them uses kwok's default (1m of CPU, 1Mi of memory). A node uses what its pods use plus a base of
// its own (the kubelet and the system daemons), which the same annotations on the Node replace.
import type { ResourceList } from '../../../api/core/v1/limit-range.js';
import { parseQuantity, quantityString, scaledValue } from '../../../machinery/quantity/quantity.js';

/** The CPU every container of the pod uses (`250m`); `capstan.dev/cpu-usage.<container>` wins. */
export const cpuUsageAnnotation = 'capstan.dev/cpu-usage';
/** The memory every container of the pod uses (`64Mi`); `capstan.dev/memory-usage.<container>` wins. */
export const memoryUsageAnnotation = 'capstan.dev/memory-usage';

/** CPU in nanocores and memory in bytes, the units metrics-server reads from the kubelet. */
export interface Usage {
  readonly cpuNanos: bigint;
  readonly memoryBytes: bigint;
}

const mi = 1024n * 1024n;

/** kwok's default per container: 1m and 1Mi. */
export const defaultContainerUsage: Usage = { cpuNanos: 1_000_000n, memoryBytes: mi };

/** A simulated node's own usage beside its pods': 50m and 128Mi. */
export const defaultNodeBaseUsage: Usage = { cpuNanos: 50_000_000n, memoryBytes: 128n * mi };

type Annotations = Readonly<Record<string, string>> | undefined;

/** The annotation's quantity in units of 10^scale; undefined when absent, malformed or negative. */
function annotated(annotations: Annotations, key: string, scale: number): bigint | undefined {
  const text = annotations?.[key];
  if (text === undefined) return undefined;
  const parsed = parseQuantity(text.trim());
  if (!parsed.ok) return undefined;
  const value = scaledValue(parsed.quantity, scale);
  return value < 0n ? undefined : value;
}

/** The usage the annotations give: the container's own key first, then the pod-wide one. */
function usageFrom(annotations: Annotations, container: string | undefined, fallback: Usage): Usage {
  const pick = (key: string, scale: number): bigint | undefined =>
    (container === undefined ? undefined : annotated(annotations, `${key}.${container}`, scale)) ??
    annotated(annotations, key, scale);
  return {
    cpuNanos: pick(cpuUsageAnnotation, -9) ?? fallback.cpuNanos,
    memoryBytes: pick(memoryUsageAnnotation, 0) ?? fallback.memoryBytes,
  };
}

/** One container's usage, from its pod's annotations. */
export const containerUsage = (podAnnotations: Annotations, container: string): Usage =>
  usageFrom(podAnnotations, container, defaultContainerUsage);

/** A node's own usage, from its annotations. */
export const nodeBaseUsage = (nodeAnnotations: Annotations): Usage =>
  usageFrom(nodeAnnotations, undefined, defaultNodeBaseUsage);

export const addUsage = (a: Usage, b: Usage): Usage => ({
  cpuNanos: a.cpuNanos + b.cpuNanos,
  memoryBytes: a.memoryBytes + b.memoryBytes,
});

/**
 * As metrics-server writes it: CPU a nanocore quantity in decimal form, memory a byte quantity in
 * binary form, each in its canonical text (`250m`, `64Mi`).
 */
export function resourceList(u: Usage): ResourceList {
  return {
    cpu: quantityString({ unscaled: u.cpuNanos, exponent: -9, format: 'DecimalSI' }),
    memory: quantityString({ unscaled: u.memoryBytes, exponent: 0, format: 'BinarySI' }),
  };
}
