// The desired replica count of a resource metric (pkg/controller/podautoscaler/replica_calculator.go
// and metrics/utilization.go): pods grouped into ready, unready, missing and ignored, the usage
// ratio against the target, the tolerance, and the conservative re-run when pods are missing
// metrics or unready (missing pods count as 100% of their request on a scale-down and 0% on a
// scale-up; unready ones as 0% on a scale-up), never turning the direction of the scale.
import type { Pod } from '../../../api/core/v1/pod.js';
import { milliValue, parseQuantity } from '../../../machinery/quantity/quantity.js';

/** One pod's usage of a resource: milli-units, and when and over which window it was measured. */
export interface PodMetric {
  readonly value: number;
  readonly timestamp: number;
  readonly windowMs: number;
}

export type PodMetricsInfo = Map<string, PodMetric>;

export type Calculated<T> = ({ readonly ok: true } & T) | { readonly ok: false; readonly error: string };

export interface CalculatorSettings {
  /** --horizontal-pod-autoscaler-tolerance (0.1). */
  readonly tolerance: number;
  /** --horizontal-pod-autoscaler-cpu-initialization-period (5 minutes). */
  readonly cpuInitializationPeriodMs: number;
  /** --horizontal-pod-autoscaler-initial-readiness-delay (30 s). */
  readonly delayOfInitialReadinessStatusMs: number;
}

export const defaultCalculatorSettings: CalculatorSettings = {
  tolerance: 0.1,
  cpuInitializationPeriodMs: 5 * 60_000,
  delayOfInitialReadinessStatusMs: 30_000,
};

export interface ResourceInputs {
  readonly currentReplicas: number;
  /** The pods the target's selector matches. */
  readonly pods: readonly Pod[];
  /** Consumed: entries of ignored and unready pods are removed, fallbacks added. */
  readonly metrics: PodMetricsInfo;
  readonly resource: string;
  /** Only this container's requests count when set (ContainerResource metrics). */
  readonly container: string;
  readonly now: number;
}

interface Groups {
  readyPodCount: number;
  unready: Set<string>;
  missing: Set<string>;
  ignored: Set<string>;
}

const time = (s: string | undefined): number | undefined => {
  const t = s === undefined ? Number.NaN : Date.parse(s);
  return Number.isNaN(t) ? undefined : t;
};

/** Whether a CPU sample of a running pod must wait (pod not ready, or still warming up). */
function unreadyForCPU(pod: Pod, metric: PodMetric, inputs: { now: number; s: CalculatorSettings }): boolean {
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  const started = time(pod.status?.startTime);
  if (ready === undefined || started === undefined) return true;
  const transition = time(ready.lastTransitionTime) ?? 0;
  if (started + inputs.s.cpuInitializationPeriodMs > inputs.now)
    return ready.status === 'False' || metric.timestamp < transition + metric.windowMs;
  return ready.status === 'False' && started + inputs.s.delayOfInitialReadinessStatusMs > transition;
}

function groupPods(inputs: ResourceInputs, s: CalculatorSettings): Groups {
  const g: Groups = { readyPodCount: 0, unready: new Set(), missing: new Set(), ignored: new Set() };
  for (const pod of inputs.pods) {
    const name = pod.metadata?.name ?? '';
    if (pod.metadata?.deletionTimestamp !== undefined || pod.status?.phase === 'Failed') {
      g.ignored.add(name);
      continue;
    }
    if (pod.status?.phase === 'Pending') {
      g.unready.add(name);
      continue;
    }
    const metric = inputs.metrics.get(name);
    if (metric === undefined) {
      g.missing.add(name);
      continue;
    }
    if (inputs.resource === 'cpu' && unreadyForCPU(pod, metric, { now: inputs.now, s })) {
      g.unready.add(name);
      continue;
    }
    g.readyPodCount++;
  }
  return g;
}

/** calculatePodRequests: each pod's request in milli-units (regular containers and sidecars). */
function podRequests(
  pods: readonly Pod[],
  inputs: ResourceInputs,
): Calculated<{ requests: Map<string, number> }> {
  const requests = new Map<string, number>();
  for (const pod of pods) {
    let sum = 0;
    const sidecars = (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
    for (const c of [...(pod.spec?.containers ?? []), ...sidecars]) {
      if (inputs.container !== '' && inputs.container !== c.name) continue;
      const text = c.resources?.requests?.[inputs.resource];
      const parsed = text === undefined ? undefined : parseQuantity(text);
      if (parsed?.ok !== true)
        return {
          ok: false,
          error: `missing request for ${inputs.resource} in container ${c.name} of Pod ${pod.metadata?.name ?? ''}`,
        };
      sum += Number(milliValue(parsed.quantity));
    }
    requests.set(pod.metadata?.name ?? '', sum);
  }
  return { ok: true, requests };
}

/** GetResourceUtilizationRatio: the usage ratio, the utilization in percent, and the average raw usage. */
function utilizationRatio(
  metrics: PodMetricsInfo,
  requests: ReadonlyMap<string, number>,
  target: number,
): Calculated<{ ratio: number; utilization: number; raw: number }> {
  let metricsTotal = 0;
  let requestsTotal = 0;
  for (const [name, m] of metrics) {
    const request = requests.get(name);
    if (request === undefined) continue;
    metricsTotal += m.value;
    requestsTotal += request;
  }
  if (requestsTotal === 0) return { ok: false, error: 'no metrics returned matched known pods' };
  const utilization = Math.trunc((metricsTotal * 100) / requestsTotal);
  return { ok: true, ratio: utilization / target, utilization, raw: Math.trunc(metricsTotal / metrics.size) };
}

/** GetMetricUsageRatio: the average usage per pod against the target. */
function usageRatio(metrics: PodMetricsInfo, target: number): { ratio: number; usage: number } {
  let total = 0;
  for (const m of metrics.values()) total += m.value;
  const usage = Math.trunc(total / metrics.size);
  return { ratio: usage / target, usage };
}

interface Plan {
  readonly inputs: ResourceInputs;
  readonly s: CalculatorSettings;
  readonly groups: Groups;
  /** The ratio of the metrics as they are, and how to compute it again after the fallbacks. */
  readonly ratio: number;
  readonly rerun: () => Calculated<{ ratio: number }>;
  /** The value a missing pod is taken to use on a scale-down. */
  readonly missingOnScaleDown: (name: string) => number;
}

/** The replica count once ratio, tolerance and missing and unready pods have been weighed. */
function replicasFor(plan: Plan): Calculated<{ replicas: number }> {
  const { inputs, s, groups, ratio } = plan;
  const current = inputs.currentReplicas;
  const scaleUpWithUnready = groups.unready.size > 0 && ratio > 1;
  if (!scaleUpWithUnready && groups.missing.size === 0) {
    if (Math.abs(1 - ratio) <= s.tolerance) return { ok: true, replicas: current };
    return { ok: true, replicas: Math.ceil(ratio * groups.readyPodCount) };
  }
  for (const name of groups.missing) {
    if (ratio < 1)
      inputs.metrics.set(name, { value: plan.missingOnScaleDown(name), timestamp: 0, windowMs: 0 });
    else if (ratio > 1) inputs.metrics.set(name, { value: 0, timestamp: 0, windowMs: 0 });
  }
  if (scaleUpWithUnready)
    for (const name of groups.unready) inputs.metrics.set(name, { value: 0, timestamp: 0, windowMs: 0 });
  const again = plan.rerun();
  if (!again.ok) return again;
  const next = again.ratio;
  if (Math.abs(1 - next) <= s.tolerance || (ratio < 1 && next > 1) || (ratio > 1 && next < 1))
    return { ok: true, replicas: current };
  const replicas = Math.ceil(next * inputs.metrics.size);
  if ((next < 1 && replicas > current) || (next > 1 && replicas < current))
    return { ok: true, replicas: current };
  return { ok: true, replicas };
}

function prepare(inputs: ResourceInputs, s: CalculatorSettings): Calculated<{ groups: Groups }> {
  if (inputs.pods.length === 0)
    return { ok: false, error: 'no pods returned by selector while calculating replica count' };
  const groups = groupPods(inputs, s);
  for (const name of [...groups.ignored, ...groups.unready]) inputs.metrics.delete(name);
  if (inputs.metrics.size === 0)
    return { ok: false, error: 'did not receive metrics for targeted pods (pods might be unready)' };
  return { ok: true, groups };
}

/** GetResourceReplicas: a target average utilization in percent of the pods' requests. */
export function resourceReplicas(
  inputs: ResourceInputs & { readonly targetUtilization: number },
  s: CalculatorSettings = defaultCalculatorSettings,
): Calculated<{ replicas: number; utilization: number; rawUtilization: number }> {
  const prepared = prepare(inputs, s);
  if (!prepared.ok) return prepared;
  const requested = podRequests(inputs.pods, inputs);
  if (!requested.ok) return requested;
  const { requests } = requested;
  const first = utilizationRatio(inputs.metrics, requests, inputs.targetUtilization);
  if (!first.ok) return first;
  const fallback = Math.max(100, inputs.targetUtilization);
  const result = replicasFor({
    inputs,
    s,
    groups: prepared.groups,
    ratio: first.ratio,
    rerun: () => utilizationRatio(inputs.metrics, requests, inputs.targetUtilization),
    missingOnScaleDown: (name) => Math.trunc(((requests.get(name) ?? 0) * fallback) / 100),
  });
  if (!result.ok) return result;
  return { ok: true, replicas: result.replicas, utilization: first.utilization, rawUtilization: first.raw };
}

/** GetRawResourceReplicas (calcPlainMetricReplicas): a target average value in milli-units. */
export function rawResourceReplicas(
  inputs: ResourceInputs & { readonly targetUsage: number },
  s: CalculatorSettings = defaultCalculatorSettings,
): Calculated<{ replicas: number; usage: number }> {
  const prepared = prepare(inputs, s);
  if (!prepared.ok) return prepared;
  const first = usageRatio(inputs.metrics, inputs.targetUsage);
  const result = replicasFor({
    inputs,
    s,
    groups: prepared.groups,
    ratio: first.ratio,
    rerun: () => ({ ok: true, ratio: usageRatio(inputs.metrics, inputs.targetUsage).ratio }),
    missingOnScaleDown: () => inputs.targetUsage,
  });
  if (!result.ok) return result;
  return { ok: true, replicas: result.replicas, usage: first.usage };
}
