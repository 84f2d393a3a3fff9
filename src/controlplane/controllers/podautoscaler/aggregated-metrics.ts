// The metrics client the simulated cluster's HPA controller uses: kube's restMetricsClient over the
// aggregator (aggregator-getter.ts), so PodMetrics, custom and external metrics come from the
// servers behind the APIServices v1beta1.metrics.k8s.io, v1beta2/v1beta1.custom.metrics.k8s.io and
// v1beta1.external.metrics.k8s.io.
import { AggregatorGetter, type AggregatorGetterOptions } from './aggregator-getter.js';
import { RESTMetricsClient } from './metrics-client.js';

export type AggregatedResourceMetricsOptions = AggregatorGetterOptions;

export class AggregatedResourceMetrics extends RESTMetricsClient {
  constructor(o: AggregatedResourceMetricsOptions) {
    super(new AggregatorGetter(o));
  }
}
