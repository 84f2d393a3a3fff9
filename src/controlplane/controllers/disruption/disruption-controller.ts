// The disruption controller (pkg/controller/disruption): each PodDisruptionBudget's status from the
// pods its selector matches — expectedPods (the pods there are; kube asks their controllers' scale,
// which in a simulated cluster they equal), desiredHealthy from minAvailable or maxUnavailable (a
// percentage rounded up), currentHealthy (ready, not terminating, not already disrupted),
// disruptionsAllowed and the DisruptionAllowed condition. Evictions charged in disruptedPods are
// dropped once the pod is terminating or gone, or after two minutes.
import type { Pod } from '../../../api/core/v1/pod.js';
import type {
  Condition,
  PodDisruptionBudget,
  PodDisruptionBudgetStatus,
} from '../../../api/policy/v1/pod-disruption-budget.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import { labelSelectorAsSelector } from '../../../machinery/labels/meta-label-selector.js';
import type { Logger } from '../../../server/logging/logger.js';
import { copyOf, type APIClient } from '../simulation/api-client.js';
import { rfc3339, type SimClock } from '../simulation/clock.js';
import { isPodReady } from '../simulation/controller-ref.js';
import { keyOf, splitKey, type Informer } from '../simulation/informer.js';
import { WorkLoop } from '../simulation/work-loop.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';

const deletionTimeoutMs = 2 * 60_000;

export interface DisruptionControllerOptions {
  readonly client: APIClient;
  readonly budgets: Informer<PodDisruptionBudget>;
  readonly pods: Informer<Pod>;
  readonly clock: SimClock;
  readonly logger: Logger;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

function scaled(value: number | string | undefined, expected: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(value);
  if (m === null) return /^\d+$/.test(value) ? Number(value) : undefined;
  return Math.ceil((Number(m[1]) * expected) / 100);
}

export function budgetStatus(
  pdb: PodDisruptionBudget,
  pods: readonly Pod[],
  now: number,
): PodDisruptionBudgetStatus {
  const live = pods.filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
  const expected = live.length;
  const disrupted: Record<string, string> = {};
  for (const [name, at] of Object.entries(pdb.status?.disruptedPods ?? {})) {
    const pod = live.find((p) => p.metadata?.name === name);
    if (pod === undefined || pod.metadata?.deletionTimestamp !== undefined) continue;
    if (Date.parse(at) + deletionTimeoutMs < now) continue;
    disrupted[name] = at;
  }
  const healthy = live.filter(
    (p) =>
      isPodReady(p) &&
      p.metadata?.deletionTimestamp === undefined &&
      !Object.hasOwn(disrupted, p.metadata?.name ?? ''),
  ).length;
  const minAvailable = scaled(pdb.spec?.minAvailable, expected);
  const maxUnavailable = scaled(pdb.spec?.maxUnavailable, expected);
  const desired = minAvailable ?? Math.max(0, expected - (maxUnavailable ?? 0));
  const allowed = expected === 0 ? 0 : Math.max(0, healthy - desired);
  const previous = pdb.status?.conditions?.find((c) => c.type === 'DisruptionAllowed');
  const reason = allowed > 0 ? 'SufficientPods' : 'InsufficientPods';
  const condition: Condition = {
    type: 'DisruptionAllowed',
    status: allowed > 0 ? 'True' : 'False',
    reason,
    message: '',
    observedGeneration: pdb.metadata?.generation ?? 0,
    lastTransitionTime: previous?.reason === reason ? previous.lastTransitionTime : rfc3339(now),
  };
  return {
    observedGeneration: pdb.metadata?.generation ?? 0,
    ...(Object.keys(disrupted).length === 0 ? {} : { disruptedPods: disrupted }),
    disruptionsAllowed: allowed,
    currentHealthy: healthy,
    desiredHealthy: desired,
    expectedPods: expected,
    conditions: [condition],
  };
}

export class DisruptionController {
  readonly #opts: DisruptionControllerOptions;
  readonly #loop: WorkLoop;

  constructor(opts: DisruptionControllerOptions) {
    this.#opts = opts;
    this.#loop = new WorkLoop({
      queueName: 'disruption',
      workqueueMetrics: opts.workqueueMetrics,
      name: 'disruption',
      logger: opts.logger,
      sync: (k) => this.#sync(k),
    });
    opts.budgets.addHandler((_t, pdb) => {
      this.#loop.queue.add(keyOf(pdb));
    });
    opts.pods.addHandler((_t, pod, old) => {
      for (const pdb of opts.budgets.list(pod.metadata?.namespace ?? '')) {
        const sel = labelSelectorAsSelector(pdb.spec?.selector);
        if (!sel.ok) continue;
        if (
          sel.selector.matches(pod.metadata?.labels ?? {}) ||
          sel.selector.matches(old?.metadata?.labels ?? {})
        )
          this.#loop.queue.add(keyOf(pdb));
      }
    });
  }

  run(): void {
    this.#loop.run();
    for (const pdb of this.#opts.budgets.list()) this.#loop.queue.add(keyOf(pdb));
  }

  close(): Promise<void> {
    return this.#loop.close();
  }

  async #sync(key: string): Promise<void> {
    const pdb = this.#opts.budgets.get(key);
    if (pdb === undefined) return;
    const sel = labelSelectorAsSelector(pdb.spec?.selector);
    if (!sel.ok) return;
    const { namespace } = splitKey(key);
    const pods = this.#opts.pods
      .list(namespace)
      .filter((p) => !sel.selector.empty() && sel.selector.matches(p.metadata?.labels ?? {}));
    const status = budgetStatus(pdb, pods, this.#opts.clock.now());
    const strip = (s: PodDisruptionBudgetStatus | undefined): string =>
      JSON.stringify({ ...s, conditions: (s?.conditions ?? []).map((c) => [c.type, c.status, c.reason]) });
    if (strip(pdb.status) === strip(status)) return;
    const updated = copyOf(pdb);
    updated.status = status;
    try {
      await this.#opts.client
        .as('disruption-controller')
        .update('policy/v1/poddisruptionbudgets/status', updated);
    } catch (err) {
      if (reasonForError(err) !== 'NotFound') throw err;
    }
  }
}
