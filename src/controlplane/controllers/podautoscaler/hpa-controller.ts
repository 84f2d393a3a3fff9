// kube-controller-manager's horizontalpodautoscaling controller (pkg/controller/podautoscaler/
// horizontal.go) in the simulated cluster: every HPA is reconciled one resync period (15 s, the
// --horizontal-pod-autoscaler-sync-period) after it is seen or last reconciled, on the server's
// clock, so a virtual clock advanced by a test drives it. Its memory per HPA (recommendations, scale
// events, the selector it last used) goes with the HPA.
import type { HorizontalPodAutoscaler } from '../../../api/autoscaling/v2/types.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { Selector } from '../../../machinery/labels/index.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import { errorText } from '../../../server/logging/error-text.js';
import type { Logger } from '../../../server/logging/logger.js';
import type { EventRecorder } from '../event-recorder.js';
import type { APIClient } from '../simulation/api-client.js';
import type { SimClock } from '../simulation/clock.js';
import { keyOf, splitKey, type Informer } from '../simulation/informer.js';
import { objectRef } from '../simulation/pod-control.js';
import { WorkLoop } from '../simulation/work-loop.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';
import { ScalingHistory } from './normalize.js';
import { reconcileAutoscaler } from './reconcile-autoscaler.js';
import { defaultCalculatorSettings, type CalculatorSettings } from './replica-calculator.js';
import type { MetricsClient } from './metrics-client.js';

export interface HorizontalControllerOptions {
  readonly client: APIClient;
  readonly hpas: Informer<HorizontalPodAutoscaler>;
  readonly pods: Informer<Pod>;
  /** The served groups where scale targets are looked up, custom resources' included. */
  readonly groups: () => readonly APIGroupInfo[];
  readonly metrics: MetricsClient;
  readonly clock: SimClock;
  readonly logger: Logger;
  readonly recorder?: EventRecorder | undefined;
  /** --horizontal-pod-autoscaler-sync-period (15 s). */
  readonly resyncPeriodMs?: number;
  /** --horizontal-pod-autoscaler-downscale-stabilization (5 minutes). */
  readonly downscaleStabilizationMs?: number;
  readonly settings?: CalculatorSettings;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

const hpaKind = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler' } as const;
const statusPath = 'autoscaling/v2/horizontalpodautoscalers/status';

export class HorizontalController {
  readonly #o: HorizontalControllerOptions;
  readonly #loop: WorkLoop;
  readonly #abort = new AbortController();
  readonly #timers = new Map<string, { at: number; cancel: () => void }>();
  readonly #history = new Map<string, ScalingHistory>();
  /** Each HPA's pod selector as last reconciled (Nothing until then), for AmbiguousSelector. */
  readonly #selectors = new Map<string, Selector>();

  constructor(o: HorizontalControllerOptions) {
    this.#o = o;
    this.#loop = new WorkLoop({
      queueName: 'horizontalpodautoscaler',
      workqueueMetrics: o.workqueueMetrics,

      name: 'horizontalpodautoscaler',
      logger: o.logger,
      sync: (k) => this.#sync(k),
    });
    o.hpas.addHandler((type, hpa) => {
      const key = keyOf(hpa);
      if (type === 'DELETED') {
        this.#forget(key);
        return;
      }
      if (!this.#selectors.has(key)) this.#selectors.set(key, Selector.nothing());
      this.#requeueAfterResync(key);
    });
  }

  run(): void {
    this.#loop.run();
    for (const hpa of this.#o.hpas.list()) this.#requeueAfterResync(keyOf(hpa));
  }

  async close(): Promise<void> {
    this.#abort.abort();
    for (const t of this.#timers.values()) t.cancel();
    this.#timers.clear();
    await this.#loop.close();
    this.#o.metrics.close();
  }

  #forget(key: string): void {
    this.#timers.get(key)?.cancel();
    this.#timers.delete(key);
    this.#history.delete(key);
    this.#selectors.delete(key);
  }

  /** AddRateLimited with kube's fixed-interval limiter: one resync period on, an earlier request kept. */
  #requeueAfterResync(key: string): void {
    const now = this.#o.clock.now();
    const at = now + (this.#o.resyncPeriodMs ?? 15_000);
    const pending = this.#timers.get(key);
    if (pending !== undefined && pending.at <= at && pending.at > now) return;
    pending?.cancel();
    const cancel = this.#o.clock.after(at - now, () => {
      this.#timers.delete(key);
      this.#loop.queue.add(key);
    });
    this.#timers.set(key, { at, cancel });
  }

  async #sync(key: string): Promise<void> {
    const hpa = this.#o.hpas.get(key);
    if (hpa === undefined) {
      this.#forget(key);
      return;
    }
    let history = this.#history.get(key);
    if (history === undefined) {
      history = new ScalingHistory();
      this.#history.set(key, history);
    }
    try {
      await reconcileAutoscaler(hpa, {
        groups: this.#o.groups(),
        pods: (namespace) => this.#o.pods.list(namespace),
        metrics: this.#o.metrics,
        settings: this.#o.settings ?? defaultCalculatorSettings,
        history,
        downscaleWindowMs: this.#o.downscaleStabilizationMs ?? 300_000,
        now: this.#o.clock.now(),
        signal: this.#abort.signal,
        event: (type, reason, message) => {
          this.#o.recorder?.event(objectRef(hpa, hpaKind), { type, reason, message });
        },
        othersSelecting: (selector, pods) => this.#selecting(key, selector, pods),
        writeStatus: async (updated) => {
          await this.#o.client.update(statusPath, updated);
        },
      });
    } catch (err) {
      // kube logs the failure and tries again at the next resync, not sooner.
      this.#o.logger.v(2, `horizontal pod autoscaler ${key}: reconcile failed`, { err: errorText(err) });
    }
    if (this.#o.hpas.get(key) !== undefined) this.#requeueAfterResync(key);
  }

  /** hpasControllingPodsUnderSelector: the HPAs (this one included) whose selectors match the pods. */
  #selecting(key: string, selector: Selector, pods: readonly Pod[]): string[] {
    if (this.#selectors.has(key)) this.#selectors.set(key, selector);
    const { namespace } = splitKey(key);
    const found = new Set<string>();
    for (const [other, s] of this.#selectors) {
      if (splitKey(other).namespace !== namespace) continue;
      if (pods.some((pod) => s.matches(pod.metadata?.labels ?? {}))) found.add(other);
    }
    return [...found].sort();
  }
}
