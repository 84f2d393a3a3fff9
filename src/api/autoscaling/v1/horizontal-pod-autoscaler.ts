// autoscaling/v1 HorizontalPodAutoscaler(+List) (k8s.io/api/autoscaling/v1/types.go): the CPU-only
// view of the autoscaling/v2 objects; other metrics travel in annotations (see the registry's
// conversion).
import type { KubeObject, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { groupKind } from '../../schema/api-module.js';
import { arrayOf, int32, int64, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META, TIME } from '../../meta/v1/object-meta.js';
import { autoscalingV1, autoscalingV1Def } from './scale.js';

export interface CrossVersionObjectReferenceV1 {
  kind: string;
  name: string;
  apiVersion?: string;
}

export interface HorizontalPodAutoscalerSpecV1 {
  scaleTargetRef: CrossVersionObjectReferenceV1;
  minReplicas?: number;
  maxReplicas: number;
  targetCPUUtilizationPercentage?: number;
}

export interface HorizontalPodAutoscalerStatusV1 {
  observedGeneration?: number;
  lastScaleTime?: string;
  currentReplicas: number;
  desiredReplicas: number;
  currentCPUUtilizationPercentage?: number;
}

export interface HorizontalPodAutoscalerV1 extends KubeObject {
  apiVersion?: 'autoscaling/v1';
  kind?: 'HorizontalPodAutoscaler';
  metadata?: ObjectMeta;
  spec?: HorizontalPodAutoscalerSpecV1;
  status?: HorizontalPodAutoscalerStatusV1;
}

const HPA = autoscalingV1Def('HorizontalPodAutoscaler');
const HPA_LIST = autoscalingV1Def('HorizontalPodAutoscalerList');
const SPEC = autoscalingV1Def('HorizontalPodAutoscalerSpec');
const STATUS = autoscalingV1Def('HorizontalPodAutoscalerStatus');
const REF = autoscalingV1Def('CrossVersionObjectReference');

export const horizontalPodAutoscalerV1Kind = groupKind(autoscalingV1, 'HorizontalPodAutoscaler', HPA);
export const horizontalPodAutoscalerV1ListKind = groupKind(
  autoscalingV1,
  'HorizontalPodAutoscalerList',
  HPA_LIST,
);

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const horizontalPodAutoscalerV1Module: APIModule = {
  definitions: {
    [HPA]: struct('Scales a resource with a scale subresource on its pods’ CPU utilization.', {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      spec: ref(SPEC, 'The desired behaviour of the autoscaler.', { default: {} }),
      status: ref(STATUS, 'The current state of the autoscaler.', { default: {} }),
    }),
    [HPA_LIST]: struct(
      'A list of HorizontalPodAutoscalers.',
      {
        apiVersion,
        items: arrayOf(ref(HPA, undefined, { default: {} }), 'The HorizontalPodAutoscalers.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
    [SPEC]: struct(
      'What the autoscaler scales, within which bounds.',
      {
        maxReplicas: int32('The most replicas the autoscaler may set.', { default: 0 }),
        minReplicas: int32('The fewest replicas the autoscaler may set; 1 by default.'),
        scaleTargetRef: ref(REF, 'The resource to scale.', { default: {} }),
        targetCPUUtilizationPercentage: int32(
          'The target average CPU utilization, in percent of the requests.',
        ),
      },
      { required: ['scaleTargetRef', 'maxReplicas'] },
    ),
    [STATUS]: struct(
      'What the autoscaler last observed.',
      {
        currentCPUUtilizationPercentage: int32(
          'The current average CPU utilization, in percent of the requests.',
        ),
        currentReplicas: int32('The replicas of the target last seen.', { default: 0 }),
        desiredReplicas: int32('The replicas the autoscaler last asked for.', { default: 0 }),
        lastScaleTime: ref(TIME, 'When the autoscaler last scaled.'),
        observedGeneration: int64('The generation this status was computed for.'),
      },
      { required: ['currentReplicas', 'desiredReplicas'] },
    ),
    [REF]: struct(
      'Identifies a resource across versions.',
      {
        apiVersion: str('The API version of the referent.'),
        kind: str('The kind of the referent.', { default: '' }),
        name: str('The name of the referent.', { default: '' }),
      },
      { required: ['kind', 'name'] },
    ),
  },
  kinds: [horizontalPodAutoscalerV1Kind, horizontalPodAutoscalerV1ListKind],
  // k8s.io/api/autoscaling/v1 generated.proto.
  protobuf: {
    [HPA]: { metadata: 1, spec: 2, status: 3 },
    [HPA_LIST]: { metadata: 1, items: 2 },
    [SPEC]: {
      scaleTargetRef: 1,
      minReplicas: pointer(2),
      maxReplicas: 3,
      targetCPUUtilizationPercentage: pointer(4),
    },
    [STATUS]: {
      observedGeneration: pointer(1),
      lastScaleTime: pointer(2),
      currentReplicas: 3,
      desiredReplicas: 4,
      currentCPUUtilizationPercentage: pointer(5),
    },
    [REF]: { kind: 1, name: 2, apiVersion: 3 },
  },
};
