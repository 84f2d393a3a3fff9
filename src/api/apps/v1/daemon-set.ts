// apps/v1 DaemonSet(+List), DaemonSetSpec, DaemonSetUpdateStrategy, RollingUpdateDaemonSet,
// DaemonSetStatus and DaemonSetCondition.
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { groupKind } from '../../schema/api-module.js';
import { int32, int64, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LABEL_SELECTOR, type LabelSelector } from '../../meta/v1/label-selector.js';
import { POD_TEMPLATE_SPEC, type PodTemplateSpec } from '../../core/v1/pod-template.js';
import { INT_OR_STRING, type IntOrString } from '../../util/int-or-string.js';
import { type AppsCondition, appsV1, appsV1Def, conditionsList, workloadParts } from './group.js';

export interface RollingUpdateDaemonSet {
  maxUnavailable?: IntOrString;
  maxSurge?: IntOrString;
}

export interface DaemonSetUpdateStrategy {
  type?: string;
  rollingUpdate?: RollingUpdateDaemonSet;
}

export interface DaemonSetSpec {
  selector?: LabelSelector;
  template?: PodTemplateSpec;
  updateStrategy?: DaemonSetUpdateStrategy;
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
}

export interface DaemonSetStatus {
  currentNumberScheduled: number;
  numberMisscheduled: number;
  desiredNumberScheduled: number;
  numberReady: number;
  observedGeneration?: number;
  updatedNumberScheduled?: number;
  numberAvailable?: number;
  numberUnavailable?: number;
  collisionCount?: number;
  conditions?: AppsCondition[];
}

export interface DaemonSet extends KubeObject {
  apiVersion?: 'apps/v1';
  kind?: 'DaemonSet';
  metadata?: ObjectMeta;
  spec?: DaemonSetSpec;
  status?: DaemonSetStatus;
}

export interface DaemonSetList extends KubeObject {
  metadata?: ListMeta;
  items: DaemonSet[];
}

export const DAEMON_SET = appsV1Def('DaemonSet');
const SPEC = appsV1Def('DaemonSetSpec');
const UPDATE_STRATEGY = appsV1Def('DaemonSetUpdateStrategy');
const ROLLING_UPDATE = appsV1Def('RollingUpdateDaemonSet');
const STATUS = appsV1Def('DaemonSetStatus');

export const daemonSetKind = groupKind(appsV1, 'DaemonSet', DAEMON_SET);
export const daemonSetListKind = groupKind(appsV1, 'DaemonSetList', appsV1Def('DaemonSetList'));

const count = (description: string): ReturnType<typeof int32> => int32(description, { default: 0 });

const parts = workloadParts({
  kindName: 'DaemonSet',
  description: 'The configuration of a daemon set.',
  specDoc: 'The desired behavior of this daemon set.',
  statusDoc: 'The current status of this daemon set.',
  conditionOf: 'DaemonSet',
});

export const daemonSetModule: APIModule = {
  definitions: {
    ...parts.definitions,
    [SPEC]: struct(
      'The specification of a daemon set.',
      {
        minReadySeconds: int32('Seconds a new pod must be ready to count as available.'),
        revisionHistoryLimit: int32('Old revisions kept for rollback; 10 when unset.'),
        selector: ref(LABEL_SELECTOR, "Label selector for pods; it must match the template's labels."),
        template: ref(POD_TEMPLATE_SPEC, 'The pod run on every selected node.', { default: {} }),
        updateStrategy: ref(UPDATE_STRATEGY, 'How existing pods are replaced.', { default: {} }),
      },
      { required: ['selector', 'template'] },
    ),
    [UPDATE_STRATEGY]: struct('How a daemon set replaces its pods.', {
      rollingUpdate: ref(ROLLING_UPDATE, 'Parameters for type RollingUpdate.'),
      type: str('RollingUpdate (the default) or OnDelete.', { enum: ['OnDelete', 'RollingUpdate'] }),
    }),
    [ROLLING_UPDATE]: struct('Parameters of a daemon set rolling update.', {
      maxSurge: ref(INT_OR_STRING, 'Nodes that may run an updated pod beside the old one; 0 when unset.'),
      maxUnavailable: ref(INT_OR_STRING, 'Pods that may be unavailable during the update; 1 when unset.'),
    }),
    [STATUS]: struct(
      'The current status of a daemon set.',
      {
        collisionCount: int32('Count of hash collisions for the DaemonSet.'),
        conditions: conditionsList(appsV1Def('DaemonSetCondition'), "The daemon set's conditions."),
        currentNumberScheduled: count('Nodes running at least one daemon pod that should run it.'),
        desiredNumberScheduled: count('Nodes that should run the daemon pod.'),
        numberAvailable: int32('Nodes running an available daemon pod.'),
        numberMisscheduled: count('Nodes running the daemon pod that should not.'),
        numberReady: count('Nodes running a ready daemon pod.'),
        numberUnavailable: int32('Nodes that should run the daemon pod and have none available.'),
        observedGeneration: int64('The generation most recently observed.'),
        updatedNumberScheduled: int32('Nodes running the updated daemon pod.'),
      },
      { required: ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady'] },
    ),
  },
  kinds: [daemonSetKind, daemonSetListKind],
  goTypes: { ...parts.goTypes, [UPDATE_STRATEGY]: { type: 'v1.DaemonSetUpdateStrategyType' } },
  protobuf: {
    ...parts.protobuf,
    [SPEC]: {
      selector: pointer(1),
      template: 2,
      updateStrategy: 3,
      minReadySeconds: 4,
      revisionHistoryLimit: pointer(6),
    },
    [UPDATE_STRATEGY]: { type: 1, rollingUpdate: pointer(2) },
    [ROLLING_UPDATE]: { maxUnavailable: pointer(1), maxSurge: pointer(2) },
    [STATUS]: {
      currentNumberScheduled: 1,
      numberMisscheduled: 2,
      desiredNumberScheduled: 3,
      numberReady: 4,
      observedGeneration: 5,
      updatedNumberScheduled: 6,
      numberAvailable: 7,
      numberUnavailable: 8,
      collisionCount: pointer(9),
      conditions: 10,
    },
  },
};
