// metrics.k8s.io/v1beta1 (k8s.io/metrics/pkg/apis/metrics/v1beta1/types.go): the resource metrics
// API that metrics-server serves and `kubectl top` and the HPA controller read. Members are listed
// in Go's field order, which the JSON keeps.
import type { KubeList, KubeObject, ObjectMeta } from '../../meta.js';

export const metricsV1beta1 = { group: 'metrics.k8s.io', version: 'v1beta1' } as const;
export const metricsAPIVersion = 'metrics.k8s.io/v1beta1';

import type { ResourceList } from '../../core/v1/limit-range.js';

export interface NodeMetrics extends KubeObject {
  kind?: 'NodeMetrics';
  apiVersion?: typeof metricsAPIVersion;
  metadata?: ObjectMeta;
  /** When the sample was taken: the end of `window`. */
  timestamp: string;
  /** The span the usage was averaged over, as a Go duration (`15s`). */
  window: string;
  usage: ResourceList;
}

export interface NodeMetricsList extends KubeList<NodeMetrics> {
  kind?: 'NodeMetricsList';
  apiVersion?: typeof metricsAPIVersion;
}

export interface ContainerMetrics {
  name: string;
  usage: ResourceList;
}

export interface PodMetrics extends KubeObject {
  kind?: 'PodMetrics';
  apiVersion?: typeof metricsAPIVersion;
  metadata?: ObjectMeta;
  timestamp: string;
  window: string;
  containers: ContainerMetrics[];
}

export interface PodMetricsList extends KubeList<PodMetrics> {
  kind?: 'PodMetricsList';
  apiVersion?: typeof metricsAPIVersion;
}
