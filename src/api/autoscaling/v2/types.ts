// autoscaling/v2 HorizontalPodAutoscaler wire types (k8s.io/api/autoscaling/v2/types.go).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { LabelSelector } from '../../meta/v1/label-selector.js';
import type { Quantity } from '../../util/int-or-string.js';

export const metricSourceTypes = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'] as const;
export type MetricSourceType = (typeof metricSourceTypes)[number];
export const metricTargetTypes = ['AverageValue', 'Utilization', 'Value'] as const;
export const scalingPolicySelects = ['Disabled', 'Max', 'Min'] as const;
export const scalingPolicyTypes = ['Percent', 'Pods'] as const;

export interface CrossVersionObjectReference {
  kind: string;
  name: string;
  apiVersion?: string;
}

export interface MetricIdentifier {
  name: string;
  selector?: LabelSelector;
}

export interface MetricTarget {
  type: string;
  value?: Quantity;
  averageValue?: Quantity;
  averageUtilization?: number;
}

export interface MetricValueStatus {
  value?: Quantity;
  averageValue?: Quantity;
  averageUtilization?: number;
}

export interface ObjectMetricSource {
  describedObject: CrossVersionObjectReference;
  target: MetricTarget;
  metric: MetricIdentifier;
}

export interface PodsMetricSource {
  metric: MetricIdentifier;
  target: MetricTarget;
}

export interface ResourceMetricSource {
  name: string;
  target: MetricTarget;
}

export interface ContainerResourceMetricSource extends ResourceMetricSource {
  container: string;
}

export interface ExternalMetricSource {
  metric: MetricIdentifier;
  target: MetricTarget;
}

export interface MetricSpec {
  type: string;
  object?: ObjectMetricSource;
  pods?: PodsMetricSource;
  resource?: ResourceMetricSource;
  containerResource?: ContainerResourceMetricSource;
  external?: ExternalMetricSource;
}

export interface HPAScalingPolicy {
  type: string;
  value: number;
  periodSeconds: number;
}

export interface HPAScalingRules {
  stabilizationWindowSeconds?: number;
  selectPolicy?: string;
  policies?: HPAScalingPolicy[];
  tolerance?: Quantity;
}

export interface HorizontalPodAutoscalerBehavior {
  scaleUp?: HPAScalingRules;
  scaleDown?: HPAScalingRules;
}

export interface HorizontalPodAutoscalerSpec {
  scaleTargetRef: CrossVersionObjectReference;
  minReplicas?: number;
  maxReplicas: number;
  metrics?: MetricSpec[];
  behavior?: HorizontalPodAutoscalerBehavior;
}

export interface ObjectMetricStatus {
  metric: MetricIdentifier;
  current: MetricValueStatus;
  describedObject: CrossVersionObjectReference;
}

export interface PodsMetricStatus {
  metric: MetricIdentifier;
  current: MetricValueStatus;
}

export interface ResourceMetricStatus {
  name: string;
  current: MetricValueStatus;
}

export interface ContainerResourceMetricStatus extends ResourceMetricStatus {
  container: string;
}

export interface ExternalMetricStatus {
  metric: MetricIdentifier;
  current: MetricValueStatus;
}

export interface MetricStatus {
  type: string;
  object?: ObjectMetricStatus;
  pods?: PodsMetricStatus;
  resource?: ResourceMetricStatus;
  containerResource?: ContainerResourceMetricStatus;
  external?: ExternalMetricStatus;
}

export interface HorizontalPodAutoscalerCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface HorizontalPodAutoscalerStatus {
  observedGeneration?: number;
  lastScaleTime?: string;
  currentReplicas?: number;
  desiredReplicas: number;
  currentMetrics?: MetricStatus[];
  conditions?: HorizontalPodAutoscalerCondition[];
}

export interface HorizontalPodAutoscaler extends KubeObject {
  apiVersion?: 'autoscaling/v2';
  kind?: 'HorizontalPodAutoscaler';
  metadata?: ObjectMeta;
  spec?: HorizontalPodAutoscalerSpec;
  status?: HorizontalPodAutoscalerStatus;
}

export interface HorizontalPodAutoscalerList extends KubeObject {
  metadata?: ListMeta;
  items: HorizontalPodAutoscaler[];
}
