// autoscaling/v1 Scale: what the `scale` subresource of a replicated resource reads and writes
// (replicationcontrollers here; deployments, replicasets and statefulsets use the same kind).
import type { KubeObject, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { apiDefinitions, groupKind } from '../../schema/api-module.js';
import { int32, ref, str, struct } from '../../schema/builders.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';

export const autoscalingV1 = { group: 'autoscaling', version: 'v1' } as const;
export const autoscalingV1Def = apiDefinitions('autoscaling', 'v1');

export interface ScaleSpec {
  replicas?: number;
}

export interface ScaleStatus {
  replicas: number;
  /** The label selector of the scaled pods in its string form (`app=web,tier=front`). */
  selector?: string;
}

export interface Scale extends KubeObject {
  apiVersion?: 'autoscaling/v1';
  kind?: 'Scale';
  metadata?: ObjectMeta;
  spec?: ScaleSpec;
  status?: ScaleStatus;
}

export const SCALE = autoscalingV1Def('Scale');
const SCALE_SPEC = autoscalingV1Def('ScaleSpec');
const SCALE_STATUS = autoscalingV1Def('ScaleStatus');

export const scaleKind = groupKind(autoscalingV1, 'Scale', SCALE);

export const autoscalingV1ScaleModule: APIModule = {
  definitions: {
    [SCALE]: struct('A scaling request for a resource.', {
      apiVersion: str('Versioned schema of this representation.'),
      kind: str('REST resource this object represents.'),
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      spec: ref(SCALE_SPEC, 'The desired state of the scaled object.', { default: {} }),
      status: ref(SCALE_STATUS, 'The current state of the scaled object; read-only.', { default: {} }),
    }),
    [SCALE_SPEC]: struct('The desired number of instances of the scaled object.', {
      replicas: int32('The desired number of instances.'),
    }),
    [SCALE_STATUS]: struct(
      'The current number of instances of the scaled object.',
      {
        replicas: int32('The actual number of observed instances.'),
        selector: str('The label query over the pods that should match the replicas count, as a string.'),
      },
      { required: ['replicas'] },
    ),
  },
  kinds: [scaleKind],
  protobuf: {
    [SCALE]: { metadata: 1, spec: 2, status: 3 },
    [SCALE_SPEC]: { replicas: 1 },
    [SCALE_STATUS]: { replicas: 1, selector: 2 },
  },
};
