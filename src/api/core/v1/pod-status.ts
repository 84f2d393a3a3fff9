// core/v1 PodStatus and what it references: conditions, IPs, container statuses and states.
import type { APIModule } from '../../schema/api-module.js';
import { coreV1 } from '../../schema/api-module.js';
import { pointer } from '../../schema/protobuf.js';
import {
  arrayOf,
  atomicList,
  bool,
  int32,
  int64,
  mapList,
  mapOf,
  ref,
  str,
  struct,
} from '../../schema/builders.js';
import { TIME } from '../../meta/v1/object-meta.js';
import { QUANTITY, type Quantity } from '../../util/int-or-string.js';
import type { ResourceRequirements } from './container.js';
import type { ContainerUser, VolumeMountStatus } from './container-parts.js';
import type { PodResourceClaimStatus, ResourceStatus } from './resource-claims.js';

export const podPhases = ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'] as const;
export type PodPhase = (typeof podPhases)[number];
export const qosClasses = ['Guaranteed', 'Burstable', 'BestEffort'] as const;
export type PodQOSClass = (typeof qosClasses)[number];

export interface PodCondition {
  type: string;
  status: string;
  lastProbeTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
  observedGeneration?: number;
}

export interface ContainerState {
  waiting?: { reason?: string; message?: string };
  running?: { startedAt?: string };
  terminated?: {
    exitCode: number;
    signal?: number;
    reason?: string;
    message?: string;
    startedAt?: string;
    finishedAt?: string;
    containerID?: string;
  };
}

export interface ContainerStatus {
  name: string;
  state?: ContainerState;
  lastState?: ContainerState;
  ready: boolean;
  restartCount: number;
  image: string;
  imageID: string;
  containerID?: string;
  started?: boolean;
  allocatedResources?: Record<string, Quantity>;
  resources?: ResourceRequirements;
  volumeMounts?: VolumeMountStatus[];
  user?: ContainerUser;
  allocatedResourcesStatus?: ResourceStatus[];
  stopSignal?: string;
}

export interface PodStatus {
  phase?: PodPhase;
  conditions?: PodCondition[];
  message?: string;
  reason?: string;
  nominatedNodeName?: string;
  hostIP?: string;
  hostIPs?: { ip: string }[];
  podIP?: string;
  podIPs?: { ip: string }[];
  startTime?: string;
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
  qosClass?: PodQOSClass;
  ephemeralContainerStatuses?: ContainerStatus[];
  resize?: string;
  resourceClaimStatuses?: PodResourceClaimStatus[];
  observedGeneration?: number;
}

export const POD_STATUS = coreV1('PodStatus');
const CONDITION = coreV1('PodCondition');
const POD_IP = coreV1('PodIP');
const HOST_IP = coreV1('HostIP');
const STATUS = coreV1('ContainerStatus');
const STATE = coreV1('ContainerState');
const WAITING = coreV1('ContainerStateWaiting');
const RUNNING = coreV1('ContainerStateRunning');
const TERMINATED = coreV1('ContainerStateTerminated');

const statuses = (description: string): ReturnType<typeof atomicList> => atomicList(ref(STATUS), description);

export const podStatusModule: APIModule = {
  definitions: {
    [POD_STATUS]: struct('Observed state of a pod.', {
      conditions: mapList(ref(CONDITION), 'type', 'Current service state of the pod.'),
      containerStatuses: statuses('One status per container.'),
      ephemeralContainerStatuses: statuses('One status per ephemeral container.'),
      hostIP: str('IP of the node the pod runs on.'),
      hostIPs: mapList(ref(HOST_IP), 'ip', 'IPs of the node.'),
      initContainerStatuses: statuses('One status per init container.'),
      message: str(),
      nominatedNodeName: str('Node the scheduler preempted for this pod.'),
      observedGeneration: int64('The pod generation this status reflects.'),
      phase: str('Pending, Running, Succeeded, Failed or Unknown.', { enum: [...podPhases] }),
      podIP: str(),
      podIPs: mapList(ref(POD_IP), 'ip', 'IPs of the pod.'),
      qosClass: str('Guaranteed, Burstable or BestEffort.', { enum: [...qosClasses] }),
      reason: str(),
      resize: str('Deprecated: the state of a pod resize.'),
      resourceClaimStatuses: arrayOf(ref(coreV1('PodResourceClaimStatus')), 'Claims generated for the pod.', {
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        'x-kubernetes-patch-strategy': 'merge,retainKeys',
        'x-kubernetes-patch-merge-key': 'name',
      }),
      startTime: ref(TIME),
    }),
    [CONDITION]: struct(
      'One observation of a pod state.',
      {
        lastProbeTime: ref(TIME),
        lastTransitionTime: ref(TIME),
        message: str(),
        observedGeneration: int64('The pod generation the condition was set for.'),
        reason: str(),
        status: str(),
        type: str(),
      },
      { required: ['type', 'status'] },
    ),
    [POD_IP]: struct('An IP of a pod.', { ip: str() }, { required: ['ip'] }),
    [HOST_IP]: struct('An IP of a host.', { ip: str() }, { required: ['ip'] }),
    [STATUS]: struct(
      'State of one container.',
      {
        allocatedResources: mapOf(ref(QUANTITY), 'Resources the node allocated to the container.'),
        allocatedResourcesStatus: mapList(
          ref(coreV1('ResourceStatus')),
          'name',
          'Health of allocated resources.',
        ),
        containerID: str(),
        image: str(),
        imageID: str(),
        lastState: ref(STATE, undefined, { default: {} }),
        name: str(),
        ready: bool(),
        resources: ref(coreV1('ResourceRequirements'), 'Resources the runtime applied.'),
        restartCount: int32(),
        started: bool(),
        state: ref(STATE, undefined, { default: {} }),
        stopSignal: str('The signal that stops the container.'),
        user: ref(coreV1('ContainerUser'), 'The identity the first process runs as.'),
        volumeMounts: mapList(ref(coreV1('VolumeMountStatus')), 'mountPath', 'State of the mounts.'),
      },
      { required: ['name', 'ready', 'restartCount', 'image', 'imageID'] },
    ),
    [STATE]: struct('One of waiting, running, terminated.', {
      running: ref(RUNNING),
      terminated: ref(TERMINATED),
      waiting: ref(WAITING),
    }),
    [WAITING]: struct('A container not yet running.', { message: str(), reason: str() }),
    [RUNNING]: struct('A running container.', { startedAt: ref(TIME) }),
    [TERMINATED]: struct(
      'A terminated container.',
      {
        containerID: str(),
        exitCode: int32(),
        finishedAt: ref(TIME),
        message: str(),
        reason: str(),
        signal: int32(),
        startedAt: ref(TIME),
      },
      { required: ['exitCode'] },
    ),
  },
  goTypes: {
    [POD_STATUS]: { phase: 'v1.PodPhase', qosClass: 'v1.PodQOSClass' },
    [CONDITION]: { type: 'v1.PodConditionType', status: 'v1.ConditionStatus' },
  },
  protobuf: {
    [POD_STATUS]: {
      observedGeneration: 17,
      phase: 1,
      conditions: 2,
      message: 3,
      reason: 4,
      nominatedNodeName: 11,
      hostIP: 5,
      hostIPs: 16,
      podIP: 6,
      podIPs: 12,
      startTime: pointer(7),
      initContainerStatuses: 10,
      containerStatuses: 8,
      qosClass: 9,
      ephemeralContainerStatuses: 13,
      resize: 14,
      resourceClaimStatuses: 15,
    },
    [CONDITION]: {
      type: 1,
      observedGeneration: 7,
      status: 2,
      lastProbeTime: 3,
      lastTransitionTime: 4,
      reason: 5,
      message: 6,
    },
    [POD_IP]: { ip: 1 },
    [HOST_IP]: { ip: 1 },
    [STATUS]: {
      name: 1,
      state: 2,
      lastState: 3,
      ready: 4,
      restartCount: 5,
      image: 6,
      imageID: 7,
      containerID: 8,
      started: pointer(9),
      allocatedResources: 10,
      resources: pointer(11),
      volumeMounts: 12,
      user: pointer(13),
      allocatedResourcesStatus: 14,
      stopSignal: pointer(15),
    },
    [STATE]: { waiting: pointer(1), running: pointer(2), terminated: pointer(3) },
    [WAITING]: { reason: 1, message: 2 },
    [RUNNING]: { startedAt: 1 },
    [TERMINATED]: {
      exitCode: 1,
      signal: 2,
      reason: 3,
      message: 4,
      startedAt: 5,
      finishedAt: 6,
      containerID: 7,
    },
  },
};
