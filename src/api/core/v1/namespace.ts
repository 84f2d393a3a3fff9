// core/v1 Namespace(+List), NamespaceSpec, NamespaceStatus, NamespaceCondition.
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1, coreV1Kind } from '../../schema/api-module.js';
import { arrayOf, atomicList, mapList, ref, str, struct } from '../../schema/builders.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META, TIME } from '../../meta/v1/object-meta.js';

export const namespacePhases = ['Active', 'Terminating'] as const;
export type NamespacePhase = (typeof namespacePhases)[number];

export interface NamespaceCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface NamespaceSpec {
  finalizers?: string[];
}

export interface NamespaceStatus {
  phase?: NamespacePhase;
  conditions?: NamespaceCondition[];
}

export interface Namespace extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Namespace';
  metadata?: ObjectMeta;
  spec?: NamespaceSpec;
  status?: NamespaceStatus;
}

export interface NamespaceList extends KubeObject {
  metadata?: ListMeta;
  items: Namespace[];
}

export const namespaceKind = coreV1Kind('Namespace');
export const namespaceListKind = coreV1Kind('NamespaceList');

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');
const NAMESPACE_SPEC = coreV1('NamespaceSpec');
const NAMESPACE_STATUS = coreV1('NamespaceStatus');
const NAMESPACE_CONDITION = coreV1('NamespaceCondition');

export const namespaceModule: APIModule = {
  definitions: {
    [coreV1('Namespace')]: struct('A scope for names, and a unit of policy and quota.', {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      spec: ref(NAMESPACE_SPEC, 'Desired state of the namespace.', { default: {} }),
      // A non-pointer struct in Go: its defaults (phase Active) apply even when it is absent.
      status: ref(NAMESPACE_STATUS, 'Observed state of the namespace.', { default: {} }),
    }),
    [NAMESPACE_SPEC]: struct('Desired state of a namespace.', {
      finalizers: atomicList(
        { type: 'string' },
        'Keys that must be cleared before the namespace is removed.',
      ),
    }),
    [NAMESPACE_STATUS]: struct('Observed state of a namespace.', {
      conditions: mapList(ref(NAMESPACE_CONDITION), 'type', 'Latest observations of the namespace state.'),
      phase: str('Active, or Terminating while its content is being removed.', {
        enum: [...namespacePhases],
        default: 'Active',
      }),
    }),
    [NAMESPACE_CONDITION]: struct(
      'One observation of a namespace state.',
      {
        lastTransitionTime: ref(TIME, 'When the status last changed.'),
        message: str('Human-readable detail.'),
        reason: str('Machine-readable reason for the last transition.'),
        status: str('True, False or Unknown.'),
        type: str('Type of the condition.'),
      },
      { required: ['type', 'status'] },
    ),
    [coreV1('NamespaceList')]: struct(
      'A list of Namespaces.',
      {
        apiVersion,
        items: arrayOf(ref(coreV1('Namespace'), undefined, { default: {} }), 'The Namespaces.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [namespaceKind, namespaceListKind],
  goTypes: {
    [NAMESPACE_SPEC]: { finalizers: '[]v1.FinalizerName' },
    [NAMESPACE_STATUS]: { phase: 'v1.NamespacePhase' },
    [NAMESPACE_CONDITION]: { type: 'v1.NamespaceConditionType', status: 'v1.ConditionStatus' },
  },
  protobuf: {
    [coreV1('Namespace')]: { metadata: 1, spec: 2, status: 3 },
    [NAMESPACE_SPEC]: { finalizers: 1 },
    [NAMESPACE_STATUS]: { phase: 1, conditions: 2 },
    [NAMESPACE_CONDITION]: { type: 1, status: 2, lastTransitionTime: 4, reason: 5, message: 6 },
    [coreV1('NamespaceList')]: { metadata: 1, items: 2 },
  },
};
