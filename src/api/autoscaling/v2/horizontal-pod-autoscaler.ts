// autoscaling/v2 HorizontalPodAutoscaler(+List): schemas and protobuf tables
// (k8s.io/api/autoscaling/v2/types.go, generated.proto).
import type { APIModule } from '../../schema/api-module.js';
import { apiDefinitions, groupKind } from '../../schema/api-module.js';
import { arrayOf, atomicList, int32, int64, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import type { Schema } from '../../schema/types.js';
import { LABEL_SELECTOR } from '../../meta/v1/label-selector.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META, TIME } from '../../meta/v1/object-meta.js';
import { QUANTITY } from '../../util/int-or-string.js';
import { metricSourceTypes, metricTargetTypes, scalingPolicySelects, scalingPolicyTypes } from './types.js';

export const autoscalingV2 = { group: 'autoscaling', version: 'v2' } as const;
const def = apiDefinitions('autoscaling', 'v2');

const HPA = def('HorizontalPodAutoscaler');
const HPA_LIST = def('HorizontalPodAutoscalerList');
const SPEC = def('HorizontalPodAutoscalerSpec');
const STATUS = def('HorizontalPodAutoscalerStatus');
const CONDITION = def('HorizontalPodAutoscalerCondition');
const BEHAVIOR = def('HorizontalPodAutoscalerBehavior');
const RULES = def('HPAScalingRules');
const POLICY = def('HPAScalingPolicy');
const REF = def('CrossVersionObjectReference');
const METRIC_SPEC = def('MetricSpec');
const METRIC_STATUS = def('MetricStatus');
const METRIC_ID = def('MetricIdentifier');
const TARGET = def('MetricTarget');
const VALUE_STATUS = def('MetricValueStatus');
const OBJECT_SRC = def('ObjectMetricSource');
const PODS_SRC = def('PodsMetricSource');
const RESOURCE_SRC = def('ResourceMetricSource');
const CONTAINER_SRC = def('ContainerResourceMetricSource');
const EXTERNAL_SRC = def('ExternalMetricSource');
const OBJECT_STATUS = def('ObjectMetricStatus');
const PODS_STATUS = def('PodsMetricStatus');
const RESOURCE_STATUS = def('ResourceMetricStatus');
const CONTAINER_STATUS = def('ContainerResourceMetricStatus');
const EXTERNAL_STATUS = def('ExternalMetricStatus');

export const horizontalPodAutoscalerV2Kind = groupKind(autoscalingV2, 'HorizontalPodAutoscaler', HPA);
export const horizontalPodAutoscalerV2ListKind = groupKind(
  autoscalingV2,
  'HorizontalPodAutoscalerList',
  HPA_LIST,
);

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');
const quantity = (description: string): Schema => ref(QUANTITY, description);
const required = (schema: Schema, names: string[]): Schema => ({ ...schema, required: names });

const metricSource = (description: string, fields: Record<string, Schema>, req: string[]): Schema =>
  required(struct(description, fields), req);

const metricSources: Record<string, Schema> = {
  [OBJECT_SRC]: metricSource(
    'A metric describing a single Kubernetes object.',
    {
      describedObject: ref(REF, 'The object the metric describes.', { default: {} }),
      metric: ref(METRIC_ID, 'The metric by name and selector.', { default: {} }),
      target: ref(TARGET, 'The target value of the metric.', { default: {} }),
    },
    ['describedObject', 'target', 'metric'],
  ),
  [PODS_SRC]: metricSource(
    'A metric describing each pod of the scale target, averaged.',
    {
      metric: ref(METRIC_ID, 'The metric by name and selector.', { default: {} }),
      target: ref(TARGET, 'The target value of the metric.', { default: {} }),
    },
    ['metric', 'target'],
  ),
  [RESOURCE_SRC]: metricSource(
    'A resource metric (requests and limits) of each pod of the scale target.',
    {
      name: str('The resource (cpu, memory).', { default: '' }),
      target: ref(TARGET, 'The target value of the metric.', { default: {} }),
    },
    ['name', 'target'],
  ),
  [CONTAINER_SRC]: metricSource(
    'A resource metric of one container in each pod of the scale target.',
    {
      container: str('The container in the pods of the scale target.', { default: '' }),
      name: str('The resource (cpu, memory).', { default: '' }),
      target: ref(TARGET, 'The target value of the metric.', { default: {} }),
    },
    ['name', 'target', 'container'],
  ),
  [EXTERNAL_SRC]: metricSource(
    'A global metric not tied to any Kubernetes object.',
    {
      metric: ref(METRIC_ID, 'The metric by name and selector.', { default: {} }),
      target: ref(TARGET, 'The target value of the metric.', { default: {} }),
    },
    ['metric', 'target'],
  ),
};

const metricStatuses: Record<string, Schema> = {
  [OBJECT_STATUS]: metricSource(
    'The current value of a metric describing a single Kubernetes object.',
    {
      current: ref(VALUE_STATUS, 'The current value of the metric.', { default: {} }),
      describedObject: ref(REF, 'The object the metric describes.', { default: {} }),
      metric: ref(METRIC_ID, 'The metric by name and selector.', { default: {} }),
    },
    ['metric', 'current', 'describedObject'],
  ),
  [PODS_STATUS]: metricSource(
    'The current value of a per-pod metric.',
    {
      current: ref(VALUE_STATUS, 'The current value of the metric.', { default: {} }),
      metric: ref(METRIC_ID, 'The metric by name and selector.', { default: {} }),
    },
    ['metric', 'current'],
  ),
  [RESOURCE_STATUS]: metricSource(
    'The current value of a resource metric.',
    {
      current: ref(VALUE_STATUS, 'The current value of the metric.', { default: {} }),
      name: str('The resource (cpu, memory).', { default: '' }),
    },
    ['name', 'current'],
  ),
  [CONTAINER_STATUS]: metricSource(
    'The current value of a container resource metric.',
    {
      container: str('The container in the pods of the scale target.', { default: '' }),
      current: ref(VALUE_STATUS, 'The current value of the metric.', { default: {} }),
      name: str('The resource (cpu, memory).', { default: '' }),
    },
    ['name', 'current', 'container'],
  ),
  [EXTERNAL_STATUS]: metricSource(
    'The current value of a global metric.',
    {
      current: ref(VALUE_STATUS, 'The current value of the metric.', { default: {} }),
      metric: ref(METRIC_ID, 'The metric by name and selector.', { default: {} }),
    },
    ['metric', 'current'],
  ),
};

const sourceRefs = (names: readonly [string, string, string, string, string]): Record<string, Schema> => ({
  containerResource: ref(names[0], 'A resource metric of one container in each pod.'),
  external: ref(names[1], 'A global metric not tied to any Kubernetes object.'),
  object: ref(names[2], 'A metric describing a single Kubernetes object.'),
  pods: ref(names[3], 'A metric describing each pod of the scale target.'),
  resource: ref(names[4], 'A resource metric of each pod of the scale target.'),
  type: str('The type of metric source.', { default: '', enum: [...metricSourceTypes] }),
});

const definitions: Record<string, Schema> = {
  [HPA]: struct('Scales a resource with a scale subresource on the metrics it names.', {
    apiVersion,
    kind,
    metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
    spec: ref(SPEC, 'The desired behaviour of the autoscaler.', { default: {} }),
    status: ref(STATUS, 'The current state of the autoscaler.', { default: {} }),
  }),
  [HPA_LIST]: required(
    struct('A list of HorizontalPodAutoscalers.', {
      apiVersion,
      items: arrayOf(ref(HPA, undefined, { default: {} }), 'The HorizontalPodAutoscalers.'),
      kind,
      metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
    }),
    ['items'],
  ),
  [SPEC]: required(
    struct('What the autoscaler scales, within which bounds, on which metrics.', {
      behavior: ref(BEHAVIOR, 'How fast the target is scaled up and down.'),
      maxReplicas: int32('The most replicas the autoscaler may set.', { default: 0 }),
      metrics: atomicList(ref(METRIC_SPEC, undefined, { default: {} }), 'The metrics to scale on.'),
      minReplicas: int32('The fewest replicas the autoscaler may set; 1 by default.'),
      scaleTargetRef: ref(REF, 'The resource to scale.', { default: {} }),
    }),
    ['scaleTargetRef', 'maxReplicas'],
  ),
  [REF]: required(
    struct('Identifies a resource across versions.', {
      apiVersion: str('The API version of the referent.'),
      kind: str('The kind of the referent.', { default: '' }),
      name: str('The name of the referent.', { default: '' }),
    }),
    ['kind', 'name'],
  ),
  [BEHAVIOR]: struct('Scaling rules up and down.', {
    scaleDown: ref(RULES, 'The rules for scaling down.'),
    scaleUp: ref(RULES, 'The rules for scaling up.'),
  }),
  [RULES]: struct('Scaling rules in one direction.', {
    policies: atomicList(ref(POLICY, undefined, { default: {} }), 'The policies that may limit scaling.'),
    selectPolicy: str('Which policy applies.', { enum: [...scalingPolicySelects] }),
    stabilizationWindowSeconds: int32('Seconds of past recommendations to consider.'),
    tolerance: quantity('The tolerance on the ratio of current to desired metric value.'),
  }),
  [POLICY]: required(
    struct('A limit on scaling over a past interval.', {
      periodSeconds: int32('The window the policy holds over.', { default: 0 }),
      type: str('Pods or Percent.', { default: '', enum: [...scalingPolicyTypes] }),
      value: int32('The change the policy permits.', { default: 0 }),
    }),
    ['type', 'value', 'periodSeconds'],
  ),
  [METRIC_SPEC]: required(
    struct(
      'One metric to scale on.',
      sourceRefs([CONTAINER_SRC, EXTERNAL_SRC, OBJECT_SRC, PODS_SRC, RESOURCE_SRC]),
    ),
    ['type'],
  ),
  [METRIC_STATUS]: required(
    struct(
      'The last read state of one metric.',
      sourceRefs([CONTAINER_STATUS, EXTERNAL_STATUS, OBJECT_STATUS, PODS_STATUS, RESOURCE_STATUS]),
    ),
    ['type'],
  ),
  [METRIC_ID]: required(
    struct('A metric by name and selector.', {
      name: str('The name of the metric.', { default: '' }),
      selector: ref(LABEL_SELECTOR, 'Narrows the metric down.'),
    }),
    ['name'],
  ),
  [TARGET]: required(
    struct('The target value of a metric.', {
      averageUtilization: int32('The target average utilization, in percent of the requests.'),
      averageValue: quantity('The target average value across pods.'),
      type: str('Utilization, Value or AverageValue.', { default: '', enum: [...metricTargetTypes] }),
      value: quantity('The target value.'),
    }),
    ['type'],
  ),
  [VALUE_STATUS]: struct('The current value of a metric.', {
    averageUtilization: int32('The current average utilization, in percent of the requests.'),
    averageValue: quantity('The current average value across pods.'),
    value: quantity('The current value.'),
  }),
  ...metricSources,
  ...metricStatuses,
  [STATUS]: required(
    struct('What the autoscaler last observed.', {
      conditions: arrayOf(ref(CONDITION, undefined, { default: {} }), 'The latest observations.', {
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['type'],
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-patch-merge-key': 'type',
      }),
      currentMetrics: atomicList(ref(METRIC_STATUS, undefined, { default: {} }), 'The metrics last read.'),
      currentReplicas: int32('The replicas of the target last seen.'),
      desiredReplicas: int32('The replicas the autoscaler last asked for.', { default: 0 }),
      lastScaleTime: ref(TIME, 'When the autoscaler last scaled.'),
      observedGeneration: int64('The generation this status was computed for.'),
    }),
    ['desiredReplicas'],
  ),
  [CONDITION]: required(
    struct('One observation of the autoscaler.', {
      lastTransitionTime: ref(TIME, 'When the condition last changed status.'),
      message: str('Details of the transition.'),
      reason: str('Why the condition last changed.'),
      status: str('True, False or Unknown.', { default: '' }),
      type: str('The condition type.', { default: '' }),
    }),
    ['type', 'status'],
  ),
};

const sourceTable = {
  type: 1,
  object: pointer(2),
  pods: pointer(3),
  resource: pointer(4),
  containerResource: pointer(7),
  external: pointer(5),
};

export const horizontalPodAutoscalerV2Module: APIModule = {
  definitions,
  kinds: [horizontalPodAutoscalerV2Kind, horizontalPodAutoscalerV2ListKind],
  goTypes: {
    [METRIC_SPEC]: { type: 'v2.MetricSourceType' },
    [TARGET]: { type: 'v2.MetricTargetType' },
    [POLICY]: { type: 'v2.HPAScalingPolicyType' },
    [RULES]: { selectPolicy: 'v2.ScalingPolicySelect' },
  },
  // k8s.io/api/autoscaling/v2 generated.proto.
  protobuf: {
    [HPA]: { metadata: 1, spec: 2, status: 3 },
    [HPA_LIST]: { metadata: 1, items: 2 },
    [SPEC]: { scaleTargetRef: 1, minReplicas: pointer(2), maxReplicas: 3, metrics: 4, behavior: pointer(5) },
    [REF]: { kind: 1, name: 2, apiVersion: 3 },
    [BEHAVIOR]: { scaleUp: pointer(1), scaleDown: pointer(2) },
    [RULES]: {
      stabilizationWindowSeconds: pointer(3),
      selectPolicy: pointer(1),
      policies: 2,
      tolerance: pointer(4),
    },
    [POLICY]: { type: 1, value: 2, periodSeconds: 3 },
    [METRIC_SPEC]: sourceTable,
    [METRIC_STATUS]: sourceTable,
    [METRIC_ID]: { name: 1, selector: pointer(2) },
    [TARGET]: { type: 1, value: pointer(2), averageValue: pointer(3), averageUtilization: pointer(4) },
    [VALUE_STATUS]: { value: pointer(1), averageValue: pointer(2), averageUtilization: pointer(3) },
    [OBJECT_SRC]: { describedObject: 1, target: 2, metric: 3 },
    [PODS_SRC]: { metric: 1, target: 2 },
    [RESOURCE_SRC]: { name: 1, target: 2 },
    [CONTAINER_SRC]: { name: 1, target: 2, container: 3 },
    [EXTERNAL_SRC]: { metric: 1, target: 2 },
    [OBJECT_STATUS]: { metric: 1, current: 2, describedObject: 3 },
    [PODS_STATUS]: { metric: 1, current: 2 },
    [RESOURCE_STATUS]: { name: 1, current: 2 },
    [CONTAINER_STATUS]: { name: 1, current: 2, container: 3 },
    [EXTERNAL_STATUS]: { metric: 1, current: 2 },
    [STATUS]: {
      observedGeneration: pointer(1),
      lastScaleTime: pointer(2),
      currentReplicas: 3,
      desiredReplicas: 4,
      currentMetrics: 5,
      conditions: 6,
    },
    [CONDITION]: { type: 1, status: 2, lastTransitionTime: 3, reason: 4, message: 5 },
  },
};
