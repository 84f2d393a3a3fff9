// What admission counts (k8s.io/apiserver/pkg/admission/metrics/metrics.go): each step's and each
// plugin's latency, and each webhook's calls, refusals and failures. Counted here without
// prom-client and read at a scrape (src/server/metrics/prom-admission-metrics.ts). The chain's
// series are made once per plugin, step type and operation, so observing one allocates nothing.
import { operations, type Operation } from '../attributes.js';
import { LatencyHistogram } from './latency-histogram.js';
import { WindowedSummary } from './windowed-summary.js';

/** A step of the admission flow, and the `type` of its plugins' series. */
export type AdmissionStepType = 'admit' | 'validate';

/** The `type` of the webhook metrics: kube's dispatchers name the validating ones so. */
export type WebhookType = 'admit' | 'validating';

/** Why a webhook call refused a request (WebhookRejectionErrorType). */
export type WebhookRejectionErrorType = 'calling_webhook_error' | 'apiserver_internal_error' | 'no_error';

// kube's buckets: 5 ms to 2.5 s for steps and plugins, to 25 s for webhooks.
export const stepBuckets: readonly number[] = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];
export const webhookBuckets: readonly number[] = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25];
export const matchConditionBuckets: readonly number[] = [0.001, 0.005, 0.01, 0.025, 0.1, 0.2, 0.25];

/** One series' labels, in the order kube declares them, and its value. */
export interface LabeledSeries<T> {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: T;
}

/** A counter series. */
export class Count {
  #n = 0;
  inc(): void {
    this.#n++;
  }
  get value(): number {
    return this.#n;
  }
}

/** A metric's series by their label values. */
export class SeriesFamily<T> {
  readonly #series = new Map<string, LabeledSeries<T>>();
  readonly #make: () => T;

  constructor(make: () => T) {
    this.#make = make;
  }

  /** The series of these labels, made when first asked for. */
  get(labels: Readonly<Record<string, string>>): T {
    const key = Object.values(labels).join('\u0000');
    let s = this.#series.get(key);
    if (s === undefined) {
      s = { labels, value: this.#make() };
      this.#series.set(key, s);
    }
    return s.value;
  }

  series(): IterableIterator<LabeledSeries<T>> {
    return this.#series.values();
  }
}

/** The two series of one set of labels: `rejected` false and true. */
export interface Outcome<T extends { observe(seconds: number): void } = LatencyHistogram> {
  readonly allowed: T;
  readonly rejected: T;
}

export type OutcomeByOperation<T extends { observe(seconds: number): void } = LatencyHistogram> = Readonly<
  Record<Operation, Outcome<T>>
>;

// kube's step summary: component-base's default objectives over five hours.
const summaryTargets = [
  { quantile: 0.5, epsilon: 0.05 },
  { quantile: 0.9, epsilon: 0.01 },
  { quantile: 0.99, epsilon: 0.001 },
];
const summaryMaxAgeMs = 5 * 3600_000;

/** A step's series: the histogram and the summary, which observe the same durations. */
export class StepSeries {
  readonly histogram = new LatencyHistogram(stepBuckets);
  readonly summary: WindowedSummary;

  constructor(now: () => number) {
    this.summary = new WindowedSummary({ targets: summaryTargets, maxAgeMs: summaryMaxAgeMs, now });
  }

  observe(seconds: number): void {
    this.histogram.observe(seconds);
    this.summary.observe(seconds);
  }

  /** The summary's quantiles, by the `quantile` label's value. */
  quantiles(): { quantile: number; value: number }[] {
    const values = this.summary.quantiles();
    return summaryTargets.map((t, i) => ({ quantile: t.quantile, value: values[i] ?? NaN }));
  }
}

const histogramsOf = (bounds: readonly number[]) => () => new LatencyHistogram(bounds);

export class AdmissionMetrics {
  /** apiserver_admission_step_admission_duration_seconds and its _summary. */
  readonly step: SeriesFamily<StepSeries>;
  /** apiserver_admission_controller_admission_duration_seconds. */
  readonly controller = new SeriesFamily(histogramsOf(stepBuckets));
  /** apiserver_admission_webhook_admission_duration_seconds. */
  readonly webhook = new SeriesFamily(histogramsOf(webhookBuckets));
  /** apiserver_admission_webhook_request_total. */
  readonly webhookRequests = new SeriesFamily(() => new Count());
  /** apiserver_admission_webhook_rejection_count. */
  readonly webhookRejections = new SeriesFamily(() => new Count());
  /** apiserver_admission_webhook_fail_open_count. */
  readonly webhookFailOpen = new SeriesFamily(() => new Count());
  /** apiserver_admission_match_condition_evaluation_errors_total. */
  readonly matchConditionErrors = new SeriesFamily(() => new Count());
  /** apiserver_admission_match_condition_exclusions_total. */
  readonly matchConditionExclusions = new SeriesFamily(() => new Count());
  /** apiserver_admission_match_condition_evaluation_seconds. */
  readonly matchConditionSeconds = new SeriesFamily(histogramsOf(matchConditionBuckets));

  /** `now`: the wall clock (ms) that ages the step summary's window. */
  constructor(o: { now?: () => number } = {}) {
    const now = o.now ?? Date.now;
    this.step = new SeriesFamily(() => new StepSeries(now));
  }

  /** A whole step's series by operation (ObserveAdmissionStep). */
  stepOutcomes(type: AdmissionStepType): OutcomeByOperation<StepSeries> {
    return outcomes(this.step, (operation, rejected) => ({ type, operation, rejected }));
  }

  /** One plugin's series by operation (ObserveAdmissionController). */
  controllerOutcomes(name: string, type: AdmissionStepType): OutcomeByOperation {
    return outcomes(this.controller, (operation, rejected) => ({ name, type, operation, rejected }));
  }

  /** One webhook call (ObserveWebhook); codes past 600 are counted as 600, as kube bounds them. */
  observeWebhook(
    name: string,
    r: { type: WebhookType; operation: Operation; seconds: number; rejected: boolean; code: number },
  ): void {
    const { type, operation } = r;
    const rejected = String(r.rejected);
    const code = String(Math.min(r.code, 600));
    this.webhookRequests.get({ name, type, operation, code, rejected }).inc();
    this.webhook.get({ name, type, operation, rejected }).observe(r.seconds);
  }

  /** A webhook call that refused the request (ObserveWebhookRejection). */
  observeWebhookRejection(
    name: string,
    r: { type: WebhookType; operation: Operation; errorType: WebhookRejectionErrorType; code: number },
  ): void {
    const { type, operation } = r;
    const labels = {
      name,
      type,
      operation,
      error_type: r.errorType,
      rejection_code: String(Math.min(r.code, 600)),
    };
    this.webhookRejections.get(labels).inc();
  }

  /** A failed call its failurePolicy Ignore let pass (ObserveWebhookFailOpen). */
  observeWebhookFailOpen(name: string, type: WebhookType): void {
    this.webhookFailOpen.get({ name, type }).inc();
  }

  /** A matchCondition that failed to evaluate (ObserveMatchConditionEvalError). */
  observeMatchConditionEvalError(name: string, r: MatchConditionLabels): void {
    this.matchConditionErrors.get({ name, kind: r.kind, type: r.type, operation: r.operation }).inc();
  }

  /** A webhook the matchConditions left out (ObserveMatchConditionExclusion). */
  observeMatchConditionExclusion(name: string, r: MatchConditionLabels): void {
    this.matchConditionExclusions.get({ name, kind: r.kind, type: r.type, operation: r.operation }).inc();
  }

  /** The matchConditions' evaluation time (ObserveMatchConditionEvaluationTime). */
  observeMatchConditionEvaluation(name: string, r: MatchConditionLabels & { seconds: number }): void {
    const labels = { name, kind: r.kind, type: r.type, operation: r.operation };
    this.matchConditionSeconds.get(labels).observe(r.seconds);
  }
}

export interface MatchConditionLabels {
  /** `webhook` or `policy`. */
  readonly kind: string;
  readonly type: string;
  readonly operation: Operation;
}

function outcomes<T extends { observe(seconds: number): void }>(
  family: SeriesFamily<T>,
  labels: (operation: Operation, rejected: string) => Record<string, string>,
): OutcomeByOperation<T> {
  const byOperation = {} as Record<Operation, Outcome<T>>;
  for (const op of operations)
    byOperation[op] = { allowed: family.get(labels(op, 'false')), rejected: family.get(labels(op, 'true')) };
  return byOperation;
}
