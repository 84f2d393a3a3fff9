// apps/v1 ReplicaSet(+List), ReplicaSetSpec, ReplicaSetStatus and ReplicaSetCondition.
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { groupKind } from '../../schema/api-module.js';
import { int32, int64, ref, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LABEL_SELECTOR, type LabelSelector } from '../../meta/v1/label-selector.js';
import { POD_TEMPLATE_SPEC, type PodTemplateSpec } from '../../core/v1/pod-template.js';
import { appsV1, appsV1Def, conditionsList, workloadParts, type AppsCondition } from './group.js';

export interface ReplicaSetSpec {
  replicas?: number;
  minReadySeconds?: number;
  selector?: LabelSelector;
  template?: PodTemplateSpec;
}

export interface ReplicaSetStatus {
  replicas?: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  terminatingReplicas?: number;
  observedGeneration?: number;
  conditions?: AppsCondition[];
}

export interface ReplicaSet extends KubeObject {
  apiVersion?: 'apps/v1';
  kind?: 'ReplicaSet';
  metadata?: ObjectMeta;
  spec?: ReplicaSetSpec;
  status?: ReplicaSetStatus;
}

export interface ReplicaSetList extends KubeObject {
  metadata?: ListMeta;
  items: ReplicaSet[];
}

export const REPLICA_SET = appsV1Def('ReplicaSet');
const REPLICA_SET_SPEC = appsV1Def('ReplicaSetSpec');
const REPLICA_SET_STATUS = appsV1Def('ReplicaSetStatus');

export const replicaSetKind = groupKind(appsV1, 'ReplicaSet', REPLICA_SET);
export const replicaSetListKind = groupKind(appsV1, 'ReplicaSetList', appsV1Def('ReplicaSetList'));

const parts = workloadParts({
  kindName: 'ReplicaSet',
  description: 'Ensures that a specified number of pod replicas are running at any given time.',
  specDoc: 'Desired behavior of the ReplicaSet.',
  statusDoc: 'Most recently observed status of the ReplicaSet.',
  conditionOf: 'replica set',
});

export const replicaSetModule: APIModule = {
  definitions: {
    ...parts.definitions,
    [REPLICA_SET_SPEC]: struct(
      'The desired behavior of a ReplicaSet.',
      {
        minReadySeconds: int32('Seconds a new pod must be ready to count as available.'),
        replicas: int32('Number of desired pods; 1 when unset.'),
        selector: ref(LABEL_SELECTOR, "Label selector for pods; it must match the template's labels."),
        template: ref(POD_TEMPLATE_SPEC, 'The pods created when too few replicas are found.', {
          default: {},
        }),
      },
      { required: ['selector'] },
    ),
    [REPLICA_SET_STATUS]: struct(
      'The most recently observed status of a ReplicaSet.',
      {
        availableReplicas: int32('Available pods of this replica set.'),
        conditions: conditionsList(appsV1Def('ReplicaSetCondition'), "The replica set's conditions."),
        fullyLabeledReplicas: int32("Pods whose labels match the template's labels."),
        observedGeneration: int64('The generation most recently observed.'),
        readyReplicas: int32('Pods of this replica set with a Ready condition.'),
        replicas: int32('The most recently observed number of non-terminating pods.', { default: 0 }),
        terminatingReplicas: int32('Terminating pods of this replica set.'),
      },
      { required: ['replicas'] },
    ),
  },
  kinds: [replicaSetKind, replicaSetListKind],
  goTypes: parts.goTypes,
  protobuf: {
    ...parts.protobuf,
    [REPLICA_SET_SPEC]: { replicas: pointer(1), minReadySeconds: 4, selector: pointer(2), template: 3 },
    [REPLICA_SET_STATUS]: {
      replicas: 1,
      fullyLabeledReplicas: 2,
      readyReplicas: 4,
      availableReplicas: 5,
      terminatingReplicas: pointer(7),
      observedGeneration: 3,
      conditions: 6,
    },
  },
};
