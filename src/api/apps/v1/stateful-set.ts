// apps/v1 StatefulSet(+List), its spec, update strategy, PVC retention policy, ordinals, status
// and condition.
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1, groupKind } from '../../schema/api-module.js';
import { atomicList, int32, int64, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LABEL_SELECTOR, type LabelSelector } from '../../meta/v1/label-selector.js';
import type { PersistentVolumeClaim } from '../../core/v1/persistent-volume-claim.js';
import { POD_TEMPLATE_SPEC, type PodTemplateSpec } from '../../core/v1/pod-template.js';
import { INT_OR_STRING, type IntOrString } from '../../util/int-or-string.js';
import { type AppsCondition, appsV1, appsV1Def, conditionsList, workloadParts } from './group.js';

export interface RollingUpdateStatefulSetStrategy {
  partition?: number;
  maxUnavailable?: IntOrString;
}

export interface StatefulSetUpdateStrategy {
  type?: string;
  rollingUpdate?: RollingUpdateStatefulSetStrategy;
}

export interface StatefulSetPersistentVolumeClaimRetentionPolicy {
  whenDeleted?: string;
  whenScaled?: string;
}

export interface StatefulSetSpec {
  replicas?: number;
  selector?: LabelSelector;
  template?: PodTemplateSpec;
  volumeClaimTemplates?: PersistentVolumeClaim[];
  serviceName?: string;
  podManagementPolicy?: string;
  updateStrategy?: StatefulSetUpdateStrategy;
  revisionHistoryLimit?: number;
  minReadySeconds?: number;
  persistentVolumeClaimRetentionPolicy?: StatefulSetPersistentVolumeClaimRetentionPolicy;
  ordinals?: { start?: number };
}

export interface StatefulSetStatus {
  observedGeneration?: number;
  replicas?: number;
  readyReplicas?: number;
  currentReplicas?: number;
  updatedReplicas?: number;
  currentRevision?: string;
  updateRevision?: string;
  collisionCount?: number;
  conditions?: AppsCondition[];
  availableReplicas?: number;
}

export interface StatefulSet extends KubeObject {
  apiVersion?: 'apps/v1';
  kind?: 'StatefulSet';
  metadata?: ObjectMeta;
  spec?: StatefulSetSpec;
  status?: StatefulSetStatus;
}

export interface StatefulSetList extends KubeObject {
  metadata?: ListMeta;
  items: StatefulSet[];
}

export const STATEFUL_SET = appsV1Def('StatefulSet');
const SPEC = appsV1Def('StatefulSetSpec');
const UPDATE_STRATEGY = appsV1Def('StatefulSetUpdateStrategy');
const ROLLING_UPDATE = appsV1Def('RollingUpdateStatefulSetStrategy');
const RETENTION = appsV1Def('StatefulSetPersistentVolumeClaimRetentionPolicy');
const ORDINALS = appsV1Def('StatefulSetOrdinals');
const STATUS = appsV1Def('StatefulSetStatus');

export const statefulSetKind = groupKind(appsV1, 'StatefulSet', STATEFUL_SET);
export const statefulSetListKind = groupKind(appsV1, 'StatefulSetList', appsV1Def('StatefulSetList'));

const parts = workloadParts({
  kindName: 'StatefulSet',
  description: 'A set of pods with consistent identities.',
  specDoc: 'The desired identities of pods in this set.',
  statusDoc: 'The current status of the pods in this set.',
  conditionOf: 'statefulset',
});

export const statefulSetModule: APIModule = {
  definitions: {
    ...parts.definitions,
    [SPEC]: struct(
      'The specification of a StatefulSet.',
      {
        minReadySeconds: int32('Seconds a new pod must be ready to count as available.'),
        ordinals: ref(ORDINALS, 'How replica indices are numbered.'),
        persistentVolumeClaimRetentionPolicy: ref(
          RETENTION,
          'What happens to claims made from volumeClaimTemplates.',
        ),
        podManagementPolicy: str('OrderedReady (the default) or Parallel.', {
          enum: ['OrderedReady', 'Parallel'],
        }),
        replicas: int32('Desired number of replicas; 1 when unset.'),
        revisionHistoryLimit: int32('Revisions kept in the history; 10 when unset.'),
        selector: ref(LABEL_SELECTOR, "Label selector for pods; it must match the template's labels."),
        serviceName: str('The service that governs this StatefulSet.'),
        template: ref(POD_TEMPLATE_SPEC, 'The pods created for this set.', { default: {} }),
        updateStrategy: ref(UPDATE_STRATEGY, 'How pods are updated when the template changes.', {
          default: {},
        }),
        volumeClaimTemplates: atomicList(
          ref(coreV1('PersistentVolumeClaim'), undefined, { default: {} }),
          'Claims that pods are allowed to reference.',
        ),
      },
      { required: ['selector', 'template'] },
    ),
    [UPDATE_STRATEGY]: struct('How the StatefulSet controller updates pods.', {
      rollingUpdate: ref(ROLLING_UPDATE, 'Parameters for type RollingUpdate.'),
      type: str('RollingUpdate (the default) or OnDelete.', { enum: ['OnDelete', 'RollingUpdate'] }),
    }),
    [ROLLING_UPDATE]: struct('Parameters of a StatefulSet rolling update.', {
      maxUnavailable: ref(INT_OR_STRING, 'Pods that may be unavailable during the update.'),
      partition: int32('Ordinal at which the set is partitioned for updates; 0 when unset.'),
    }),
    [RETENTION]: struct('The policy for claims made from the volumeClaimTemplates.', {
      whenDeleted: str('Retain (the default) or Delete, when the StatefulSet is deleted.'),
      whenScaled: str('Retain (the default) or Delete, when the StatefulSet is scaled down.'),
    }),
    [ORDINALS]: struct('How replica indices are assigned.', {
      start: int32('The index of the first replica.', { default: 0 }),
    }),
    [STATUS]: struct(
      'The current state of a StatefulSet.',
      {
        availableReplicas: int32('Available pods targeted by this statefulset.', { default: 0 }),
        collisionCount: int32('Count of hash collisions for the StatefulSet.'),
        conditions: conditionsList(appsV1Def('StatefulSetCondition'), "The statefulset's conditions."),
        currentReplicas: int32('Pods created from the currentRevision.'),
        currentRevision: str('The revision used for pods [0, currentReplicas).'),
        observedGeneration: int64('The generation most recently observed.'),
        readyReplicas: int32('Pods with a Ready condition.'),
        replicas: int32('Pods created by the StatefulSet controller.', { default: 0 }),
        updateRevision: str('The revision used for pods [replicas-updatedReplicas, replicas).'),
        updatedReplicas: int32('Pods created from the updateRevision.'),
      },
      { required: ['replicas', 'availableReplicas'] },
    ),
  },
  kinds: [statefulSetKind, statefulSetListKind],
  goTypes: {
    ...parts.goTypes,
    [SPEC]: { podManagementPolicy: 'v1.PodManagementPolicyType' },
    [UPDATE_STRATEGY]: { type: 'v1.StatefulSetUpdateStrategyType' },
    [RETENTION]: {
      whenDeleted: 'v1.PersistentVolumeClaimRetentionPolicyType',
      whenScaled: 'v1.PersistentVolumeClaimRetentionPolicyType',
    },
  },
  protobuf: {
    ...parts.protobuf,
    [SPEC]: {
      replicas: pointer(1),
      selector: pointer(2),
      template: 3,
      volumeClaimTemplates: 4,
      serviceName: 5,
      podManagementPolicy: 6,
      updateStrategy: 7,
      revisionHistoryLimit: pointer(8),
      minReadySeconds: 9,
      persistentVolumeClaimRetentionPolicy: pointer(10),
      ordinals: pointer(11),
    },
    [UPDATE_STRATEGY]: { type: 1, rollingUpdate: pointer(2) },
    [ROLLING_UPDATE]: { partition: pointer(1), maxUnavailable: pointer(2) },
    [RETENTION]: { whenDeleted: 1, whenScaled: 2 },
    [ORDINALS]: { start: 1 },
    [STATUS]: {
      observedGeneration: 1,
      replicas: 2,
      readyReplicas: 3,
      currentReplicas: 4,
      updatedReplicas: 5,
      currentRevision: 6,
      updateRevision: 7,
      collisionCount: pointer(9),
      conditions: 10,
      availableReplicas: 11,
    },
  },
};
