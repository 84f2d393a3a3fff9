// Generated from k8s.io/api autoscaling/v2 types.go as of kube 1.33: the members of each struct whose Go field
// is tagged omitempty and can be empty (go-omit-empty.ts says what each class drops). A
// definition listed without members has none; struct-typed members are never dropped, so not listed.
import type { APIModule } from '../../schema/api-module.js';
import type { GoOmitEmptyTables } from '../../schema/go-omit-empty.js';

const def = (name: string): string => `io.k8s.api.autoscaling.v2.${name}`;

const tables: GoOmitEmptyTables = {
  [def('ContainerResourceMetricSource')]: {},
  [def('ContainerResourceMetricStatus')]: {},
  [def('CrossVersionObjectReference')]: { apiVersion: 'zero' },
  [def('ExternalMetricSource')]: {},
  [def('ExternalMetricStatus')]: {},
  [def('HPAScalingPolicy')]: {},
  [def('HPAScalingRules')]: {
    stabilizationWindowSeconds: 'nil',
    selectPolicy: 'nil',
    policies: 'empty',
    tolerance: 'nil',
  },
  [def('HorizontalPodAutoscaler')]: {},
  [def('HorizontalPodAutoscalerBehavior')]: { scaleUp: 'nil', scaleDown: 'nil' },
  [def('HorizontalPodAutoscalerCondition')]: { reason: 'zero', message: 'zero' },
  [def('HorizontalPodAutoscalerList')]: {},
  [def('HorizontalPodAutoscalerSpec')]: { minReplicas: 'nil', metrics: 'empty', behavior: 'nil' },
  [def('HorizontalPodAutoscalerStatus')]: {
    observedGeneration: 'nil',
    lastScaleTime: 'nil',
    currentReplicas: 'zero',
    conditions: 'empty',
  },
  [def('MetricIdentifier')]: { selector: 'nil' },
  [def('MetricSpec')]: {
    object: 'nil',
    pods: 'nil',
    resource: 'nil',
    containerResource: 'nil',
    external: 'nil',
  },
  [def('MetricStatus')]: {
    object: 'nil',
    pods: 'nil',
    resource: 'nil',
    containerResource: 'nil',
    external: 'nil',
  },
  [def('MetricTarget')]: { value: 'nil', averageValue: 'nil', averageUtilization: 'nil' },
  [def('MetricValueStatus')]: { value: 'nil', averageValue: 'nil', averageUtilization: 'nil' },
  [def('ObjectMetricSource')]: {},
  [def('ObjectMetricStatus')]: {},
  [def('PodsMetricSource')]: {},
  [def('PodsMetricStatus')]: {},
  [def('ResourceMetricSource')]: {},
  [def('ResourceMetricStatus')]: {},
};

export const autoscalingV2GoOmitEmptyModule: APIModule = { definitions: {}, goOmitEmpty: tables };
