// Generated from k8s.io/api apps/v1 types.go as of kube 1.33: the members of each struct whose Go field
// is tagged omitempty and can be empty (go-omit-empty.ts says what each class drops). A
// definition listed without members has none; struct-typed members are never dropped, so not listed.
import type { APIModule } from '../../schema/api-module.js';
import type { GoOmitEmptyTables } from '../../schema/go-omit-empty.js';

const def = (name: string): string => `io.k8s.api.apps.v1.${name}`;

const tables: GoOmitEmptyTables = {
  [def('ControllerRevision')]: {},
  [def('ControllerRevisionList')]: {},
  [def('DaemonSet')]: {},
  [def('DaemonSetCondition')]: { reason: 'zero', message: 'zero' },
  [def('DaemonSetList')]: {},
  [def('DaemonSetSpec')]: { minReadySeconds: 'zero', revisionHistoryLimit: 'nil' },
  [def('DaemonSetStatus')]: {
    observedGeneration: 'zero',
    updatedNumberScheduled: 'zero',
    numberAvailable: 'zero',
    numberUnavailable: 'zero',
    collisionCount: 'nil',
    conditions: 'empty',
  },
  [def('DaemonSetUpdateStrategy')]: { type: 'zero', rollingUpdate: 'nil' },
  [def('Deployment')]: {},
  [def('DeploymentCondition')]: { reason: 'zero', message: 'zero' },
  [def('DeploymentList')]: {},
  [def('DeploymentSpec')]: {
    replicas: 'nil',
    minReadySeconds: 'zero',
    revisionHistoryLimit: 'nil',
    paused: 'zero',
    progressDeadlineSeconds: 'nil',
  },
  [def('DeploymentStatus')]: {
    observedGeneration: 'zero',
    replicas: 'zero',
    updatedReplicas: 'zero',
    readyReplicas: 'zero',
    availableReplicas: 'zero',
    unavailableReplicas: 'zero',
    terminatingReplicas: 'nil',
    conditions: 'empty',
    collisionCount: 'nil',
  },
  [def('DeploymentStrategy')]: { type: 'zero', rollingUpdate: 'nil' },
  [def('ReplicaSet')]: {},
  [def('ReplicaSetCondition')]: { reason: 'zero', message: 'zero' },
  [def('ReplicaSetList')]: {},
  [def('ReplicaSetSpec')]: { replicas: 'nil', minReadySeconds: 'zero' },
  [def('ReplicaSetStatus')]: {
    fullyLabeledReplicas: 'zero',
    readyReplicas: 'zero',
    availableReplicas: 'zero',
    terminatingReplicas: 'nil',
    observedGeneration: 'zero',
    conditions: 'empty',
  },
  [def('RollingUpdateDaemonSet')]: { maxUnavailable: 'nil', maxSurge: 'nil' },
  [def('RollingUpdateDeployment')]: { maxUnavailable: 'nil', maxSurge: 'nil' },
  [def('RollingUpdateStatefulSetStrategy')]: { partition: 'nil', maxUnavailable: 'nil' },
  [def('StatefulSet')]: {},
  [def('StatefulSetCondition')]: { reason: 'zero', message: 'zero' },
  [def('StatefulSetList')]: {},
  [def('StatefulSetOrdinals')]: {},
  [def('StatefulSetPersistentVolumeClaimRetentionPolicy')]: { whenDeleted: 'zero', whenScaled: 'zero' },
  [def('StatefulSetSpec')]: {
    replicas: 'nil',
    volumeClaimTemplates: 'empty',
    podManagementPolicy: 'zero',
    revisionHistoryLimit: 'nil',
    minReadySeconds: 'zero',
    persistentVolumeClaimRetentionPolicy: 'nil',
    ordinals: 'nil',
  },
  [def('StatefulSetStatus')]: {
    observedGeneration: 'zero',
    readyReplicas: 'zero',
    currentReplicas: 'zero',
    updatedReplicas: 'zero',
    currentRevision: 'zero',
    updateRevision: 'zero',
    collisionCount: 'nil',
    conditions: 'empty',
  },
  [def('StatefulSetUpdateStrategy')]: { type: 'zero', rollingUpdate: 'nil' },
};

export const appsV1GoOmitEmptyModule: APIModule = { definitions: {}, goOmitEmpty: tables };
