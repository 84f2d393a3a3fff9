// core/v1 ComponentStatus(+List), deprecated in v1.19+ (k8s.io/api/core/v1 types.go). Read-only:
// the server builds it from health probes and never stores it.
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1, coreV1Kind } from '../../schema/api-module.js';
import { arrayOf, mapList, ref, str, struct } from '../../schema/builders.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';

export interface ComponentCondition {
  type: string;
  status: string;
  message?: string;
  error?: string;
}

export interface ComponentStatus extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'ComponentStatus';
  metadata?: ObjectMeta;
  conditions?: ComponentCondition[];
}

export interface ComponentStatusList extends KubeObject {
  metadata?: ListMeta;
  items: ComponentStatus[];
}

export const componentStatusKind = coreV1Kind('ComponentStatus');
export const componentStatusListKind = coreV1Kind('ComponentStatusList');

const CS = coreV1('ComponentStatus');
const CONDITION = coreV1('ComponentCondition');
const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const componentStatusModule: APIModule = {
  definitions: {
    [CS]: struct('Health of a cluster component. Deprecated: This API is deprecated in v1.19+', {
      apiVersion,
      conditions: mapList(ref(CONDITION), 'type', 'Conditions observed of the component.'),
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
    }),
    [CONDITION]: struct(
      'One condition of a component.',
      { error: str(), message: str(), status: str(), type: str() },
      { required: ['type', 'status'] },
    ),
    [coreV1('ComponentStatusList')]: struct(
      'A list of ComponentStatus objects. Deprecated: This API is deprecated in v1.19+',
      {
        apiVersion,
        items: arrayOf(ref(CS, undefined, { default: {} }), 'The ComponentStatus objects.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [componentStatusKind, componentStatusListKind],
  goTypes: { [CONDITION]: { type: 'v1.ComponentConditionType', status: 'v1.ConditionStatus' } },
  protobuf: {
    [CS]: { metadata: 1, conditions: 2 },
    [CONDITION]: { type: 1, status: 2, message: 3, error: 4 },
    [coreV1('ComponentStatusList')]: { metadata: 1, items: 2 },
  },
};
