// What the HPA controller reads metrics through (MetricsClient in pkg/controller/podautoscaler/
// metrics/interfaces.go), and kube's restMetricsClient: the resource, custom and external metrics
// clients over one getter of the aggregated APIs.
import {
  getObjectMetric,
  getRawMetric,
  type ObjectMetricQuery,
  type PodsMetricQuery,
} from './custom-metrics.js';
import { getExternalMetric, type ExternalMetricQuery } from './external-metrics.js';
import type { MetricsAPIGetter } from './metrics-api-getter.js';
import type { Calculated, PodMetricsInfo } from './replica-calculator.js';
import { listPodMetrics, type PodMetricsResult } from './resource-metrics.js';

export interface MetricsClient {
  /** The PodMetrics of the namespace's pods that the label selector (its string form) matches. */
  podMetrics(namespace: string, labelSelector: string): Promise<PodMetricsResult>;
  /** GetRawMetric: a custom metric of each selected pod. */
  rawMetric(q: PodsMetricQuery): Promise<Calculated<{ metrics: PodMetricsInfo; timestamp: number }>>;
  /** GetObjectMetric: a custom metric of one object. */
  objectMetric(q: ObjectMetricQuery): Promise<Calculated<{ value: number; timestamp: number }>>;
  /** GetExternalMetric: the values of an external metric. */
  externalMetric(q: ExternalMetricQuery): Promise<Calculated<{ values: number[]; timestamp: number }>>;
  close(): void;
}

export class RESTMetricsClient implements MetricsClient {
  readonly #getter: MetricsAPIGetter;

  constructor(getter: MetricsAPIGetter) {
    this.#getter = getter;
  }

  podMetrics(namespace: string, labelSelector: string): Promise<PodMetricsResult> {
    return listPodMetrics(this.#getter, { namespace, labelSelector });
  }

  rawMetric(q: PodsMetricQuery): Promise<Calculated<{ metrics: PodMetricsInfo; timestamp: number }>> {
    return getRawMetric(this.#getter, q);
  }

  objectMetric(q: ObjectMetricQuery): Promise<Calculated<{ value: number; timestamp: number }>> {
    return getObjectMetric(this.#getter, q);
  }

  externalMetric(q: ExternalMetricQuery): Promise<Calculated<{ values: number[]; timestamp: number }>> {
    return getExternalMetric(this.#getter, q);
  }

  close(): void {
    this.#getter.close();
  }
}
