// apps/v1 Deployment(+List), DeploymentSpec, DeploymentStrategy, RollingUpdateDeployment,
// DeploymentStatus and DeploymentCondition (k8s.io/api/apps/v1/types.go).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { groupKind } from '../../schema/api-module.js';
import { bool, int32, int64, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LABEL_SELECTOR, type LabelSelector } from '../../meta/v1/label-selector.js';
import { POD_TEMPLATE_SPEC, type PodTemplateSpec } from '../../core/v1/pod-template.js';
import { INT_OR_STRING, type IntOrString } from '../../util/int-or-string.js';
import { type AppsCondition, appsV1, appsV1Def, conditionsList, workloadParts } from './group.js';

export interface RollingUpdateDeployment {
  maxUnavailable?: IntOrString;
  maxSurge?: IntOrString;
}

export interface DeploymentStrategy {
  type?: string;
  rollingUpdate?: RollingUpdateDeployment;
}

export interface DeploymentSpec {
  replicas?: number;
  selector?: LabelSelector;
  template?: PodTemplateSpec;
  strategy?: DeploymentStrategy;
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  paused?: boolean;
  progressDeadlineSeconds?: number;
}

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  terminatingReplicas?: number;
  conditions?: AppsCondition[];
  collisionCount?: number;
}

export interface Deployment extends KubeObject {
  apiVersion?: 'apps/v1';
  kind?: 'Deployment';
  metadata?: ObjectMeta;
  spec?: DeploymentSpec;
  status?: DeploymentStatus;
}

export interface DeploymentList extends KubeObject {
  metadata?: ListMeta;
  items: Deployment[];
}

export const DEPLOYMENT = appsV1Def('Deployment');
const DEPLOYMENT_SPEC = appsV1Def('DeploymentSpec');
const DEPLOYMENT_STRATEGY = appsV1Def('DeploymentStrategy');
const ROLLING_UPDATE_DEPLOYMENT = appsV1Def('RollingUpdateDeployment');
const DEPLOYMENT_STATUS = appsV1Def('DeploymentStatus');

export const deploymentKind = groupKind(appsV1, 'Deployment', DEPLOYMENT);
export const deploymentListKind = groupKind(appsV1, 'DeploymentList', appsV1Def('DeploymentList'));

const parts = workloadParts({
  kindName: 'Deployment',
  description: 'Enables declarative updates for Pods and ReplicaSets.',
  specDoc: 'Desired behavior of the Deployment.',
  statusDoc: 'Most recently observed status of the Deployment.',
  conditionOf: 'deployment',
  conditionUpdateTime: true,
});

export const deploymentModule: APIModule = {
  definitions: {
    ...parts.definitions,
    [DEPLOYMENT_SPEC]: struct(
      'The desired behavior of a Deployment.',
      {
        minReadySeconds: int32('Seconds a new pod must be ready to count as available.'),
        paused: bool('The deployment is paused.'),
        progressDeadlineSeconds: int32(
          'Seconds to make progress before the deployment is considered failed.',
        ),
        replicas: int32('Number of desired pods; 1 when unset.'),
        revisionHistoryLimit: int32('Old ReplicaSets kept for rollback; 10 when unset.'),
        selector: ref(LABEL_SELECTOR, "Label selector for pods; it must match the template's labels."),
        strategy: ref(DEPLOYMENT_STRATEGY, 'How existing pods are replaced with new ones.', {
          default: {},
          'x-kubernetes-patch-strategy': 'retainKeys',
        }),
        template: ref(POD_TEMPLATE_SPEC, 'The pods that will be created.', { default: {} }),
      },
      { required: ['selector', 'template'] },
    ),
    [DEPLOYMENT_STRATEGY]: struct('How to replace existing pods with new ones.', {
      rollingUpdate: ref(ROLLING_UPDATE_DEPLOYMENT, 'Rolling update parameters, for type RollingUpdate.'),
      type: str('Recreate or RollingUpdate (the default).', { enum: ['Recreate', 'RollingUpdate'] }),
    }),
    [ROLLING_UPDATE_DEPLOYMENT]: struct('Parameters of a rolling update.', {
      maxSurge: ref(INT_OR_STRING, 'Pods that may be scheduled above the desired number; 25% when unset.'),
      maxUnavailable: ref(INT_OR_STRING, 'Pods that may be unavailable during the update; 25% when unset.'),
    }),
    [DEPLOYMENT_STATUS]: struct('The most recently observed status of a Deployment.', {
      availableReplicas: int32('Available pods targeted by this deployment.'),
      collisionCount: int32('Count of hash collisions for the Deployment.'),
      conditions: conditionsList(appsV1Def('DeploymentCondition'), "The deployment's conditions."),
      observedGeneration: int64('The generation observed by the deployment controller.'),
      readyReplicas: int32('Pods targeted by this Deployment with a Ready condition.'),
      replicas: int32('Non-terminating pods targeted by this deployment.'),
      terminatingReplicas: int32('Terminating pods targeted by this deployment.'),
      unavailableReplicas: int32('Unavailable pods targeted by this deployment.'),
      updatedReplicas: int32('Pods targeted by this deployment that have the desired template.'),
    }),
  },
  kinds: [deploymentKind, deploymentListKind],
  goTypes: { ...parts.goTypes, [DEPLOYMENT_STRATEGY]: { type: 'v1.DeploymentStrategyType' } },
  protobuf: {
    ...parts.protobuf,
    [DEPLOYMENT_SPEC]: {
      replicas: pointer(1),
      selector: pointer(2),
      template: 3,
      strategy: 4,
      minReadySeconds: 5,
      revisionHistoryLimit: pointer(6),
      paused: 7,
      progressDeadlineSeconds: pointer(9),
    },
    [DEPLOYMENT_STRATEGY]: { type: 1, rollingUpdate: pointer(2) },
    [ROLLING_UPDATE_DEPLOYMENT]: { maxUnavailable: pointer(1), maxSurge: pointer(2) },
    [DEPLOYMENT_STATUS]: {
      observedGeneration: 1,
      replicas: 2,
      updatedReplicas: 3,
      readyReplicas: 7,
      availableReplicas: 4,
      unavailableReplicas: 5,
      terminatingReplicas: pointer(9),
      conditions: 6,
      collisionCount: pointer(8),
    },
  },
};
