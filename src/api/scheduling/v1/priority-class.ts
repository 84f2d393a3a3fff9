// scheduling.k8s.io/v1 PriorityClass(+List) (k8s.io/api/scheduling/v1/types.go).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { apiDefinitions, groupKind } from '../../schema/api-module.js';
import { arrayOf, bool, int32, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';

export const schedulingV1 = { group: 'scheduling.k8s.io', version: 'v1' } as const;
export const schedulingV1Def = apiDefinitions('scheduling', 'v1');

export const preemptionPolicies = ['Never', 'PreemptLowerPriority'] as const;
export type PreemptionPolicy = (typeof preemptionPolicies)[number];

export interface PriorityClass extends KubeObject {
  apiVersion?: 'scheduling.k8s.io/v1';
  kind?: 'PriorityClass';
  metadata?: ObjectMeta;
  value: number;
  globalDefault?: boolean;
  description?: string;
  preemptionPolicy?: string;
}

export interface PriorityClassList extends KubeObject {
  metadata?: ListMeta;
  items: PriorityClass[];
}

const PRIORITY_CLASS = schedulingV1Def('PriorityClass');
const PRIORITY_CLASS_LIST = schedulingV1Def('PriorityClassList');

export const priorityClassKind = groupKind(schedulingV1, 'PriorityClass', PRIORITY_CLASS);
export const priorityClassListKind = groupKind(schedulingV1, 'PriorityClassList', PRIORITY_CLASS_LIST);

/** SetDefaults_PriorityClass. */
export const defaultPreemptionPolicy: PreemptionPolicy = 'PreemptLowerPriority';

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const priorityClassModule: APIModule = {
  definitions: {
    [PRIORITY_CLASS]: struct(
      'Maps a priority class name to the integer priority pods of that class get.',
      {
        apiVersion,
        description: str('When this priority class should be used.'),
        globalDefault: bool('Whether pods without a priority class get this one.'),
        kind,
        metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
        preemptionPolicy: str('Whether pods of this class may preempt lower priority pods.', {
          enum: [...preemptionPolicies],
          default: defaultPreemptionPolicy,
        }),
        value: int32('The integer priority of pods of this class.', { default: 0 }),
      },
      { required: ['value'] },
    ),
    [PRIORITY_CLASS_LIST]: struct(
      'A list of PriorityClasses.',
      {
        apiVersion,
        items: arrayOf(ref(PRIORITY_CLASS, undefined, { default: {} }), 'The PriorityClasses.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [priorityClassKind, priorityClassListKind],
  goTypes: { [PRIORITY_CLASS]: { preemptionPolicy: 'v1.PreemptionPolicy' } },
  // k8s.io/api/scheduling/v1 generated.proto.
  protobuf: {
    [PRIORITY_CLASS]: {
      metadata: 1,
      value: 2,
      globalDefault: 3,
      description: 4,
      preemptionPolicy: pointer(5),
    },
    [PRIORITY_CLASS_LIST]: { metadata: 1, items: 2 },
  },
};
