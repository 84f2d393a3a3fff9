// core/v1 ReplicationController(+List): a desired number of pods from one template, selected by
// an equality label selector.
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1, coreV1Kind } from '../../schema/api-module.js';
import { arrayOf, int32, int64, mapList, ref, str, stringMap, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META, TIME } from '../../meta/v1/object-meta.js';
import { POD_TEMPLATE_SPEC, type PodTemplateSpec } from './pod-template.js';

export interface ReplicationControllerSpec {
  replicas?: number;
  minReadySeconds?: number;
  selector?: Record<string, string>;
  template?: PodTemplateSpec;
}

export interface ReplicationControllerCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface ReplicationControllerStatus {
  replicas: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  conditions?: ReplicationControllerCondition[];
}

export interface ReplicationController extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'ReplicationController';
  metadata?: ObjectMeta;
  spec?: ReplicationControllerSpec;
  status?: ReplicationControllerStatus;
}

export interface ReplicationControllerList extends KubeObject {
  metadata?: ListMeta;
  items: ReplicationController[];
}

export const replicationControllerKind = coreV1Kind('ReplicationController');
export const replicationControllerListKind = coreV1Kind('ReplicationControllerList');

const RC = coreV1('ReplicationController');
const RC_SPEC = coreV1('ReplicationControllerSpec');
const RC_STATUS = coreV1('ReplicationControllerStatus');
const RC_CONDITION = coreV1('ReplicationControllerCondition');
const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const replicationControllerModule: APIModule = {
  definitions: {
    [RC]: struct('Keeps a number of copies of a pod running.', {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      spec: ref(RC_SPEC, 'Desired behaviour of the replication controller.', { default: {} }),
      status: ref(RC_STATUS, 'Most recently observed state of the replication controller.', { default: {} }),
    }),
    [RC_SPEC]: struct('The desired state of a replication controller.', {
      minReadySeconds: int32('Seconds a new pod must be ready to count as available.'),
      replicas: int32('The number of desired replicas; 1 when unset.'),
      selector: {
        ...stringMap('Labels the pods must have; the template labels when empty.'),
        'x-kubernetes-map-type': 'atomic',
      },
      template: ref(POD_TEMPLATE_SPEC, 'The pods created when too few are found.'),
    }),
    [RC_STATUS]: struct(
      'The observed state of a replication controller.',
      {
        availableReplicas: int32('Pods ready for at least minReadySeconds.'),
        conditions: mapList(ref(RC_CONDITION), 'type', 'The latest observations of the state.'),
        fullyLabeledReplicas: int32('Pods with every label of the template.'),
        observedGeneration: int64('The generation the status was computed for.'),
        readyReplicas: int32('Pods with a Ready condition.'),
        replicas: int32('The most recently observed number of replicas.'),
      },
      { required: ['replicas'] },
    ),
    [RC_CONDITION]: struct(
      'One observation of a replication controller.',
      {
        lastTransitionTime: ref(TIME, 'When the condition last changed status.'),
        message: str('Details of the transition.'),
        reason: str("The reason for the condition's last transition."),
        status: str('True, False or Unknown.'),
        type: str('The kind of condition.'),
      },
      { required: ['type', 'status'] },
    ),
    [coreV1('ReplicationControllerList')]: struct(
      'A list of ReplicationControllers.',
      {
        apiVersion,
        items: arrayOf(ref(RC, undefined, { default: {} }), 'The ReplicationControllers.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [replicationControllerKind, replicationControllerListKind],
  goTypes: {
    [RC_CONDITION]: { type: 'v1.ReplicationControllerConditionType', status: 'v1.ConditionStatus' },
  },
  protobuf: {
    [RC]: { metadata: 1, spec: 2, status: 3 },
    [RC_SPEC]: { replicas: pointer(1), minReadySeconds: 4, selector: 2, template: pointer(3) },
    [RC_STATUS]: {
      replicas: 1,
      fullyLabeledReplicas: 2,
      readyReplicas: 4,
      availableReplicas: 5,
      observedGeneration: 3,
      conditions: 6,
    },
    [RC_CONDITION]: { type: 1, status: 2, lastTransitionTime: 3, reason: 4, message: 5 },
    [coreV1('ReplicationControllerList')]: { metadata: 1, items: 2 },
  },
};
