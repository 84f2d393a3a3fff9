// core/v1 Node(+List), NodeSpec, Taint, NodeStatus and what it references (k8s.io/api/core/v1
// types.go; field numbers from its protobuf struct tags).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1, coreV1Kind } from '../../schema/api-module.js';
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
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META, TIME } from '../../meta/v1/object-meta.js';
import { QUANTITY, type Quantity } from '../../util/int-or-string.js';

export interface Taint {
  key: string;
  value?: string;
  effect: string;
  timeAdded?: string;
}

export interface ConfigMapNodeConfigSource {
  namespace: string;
  name: string;
  uid?: string;
  resourceVersion?: string;
  kubeletConfigKey: string;
}

export interface NodeConfigSource {
  configMap?: ConfigMapNodeConfigSource;
}

export interface NodeSpec {
  podCIDR?: string;
  podCIDRs?: string[];
  providerID?: string;
  unschedulable?: boolean;
  taints?: Taint[];
  configSource?: NodeConfigSource;
  /** Deprecated; kept for old clients (Go's DoNotUseExternalID). */
  externalID?: string;
}

export interface NodeCondition {
  type: string;
  status: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface NodeSystemInfo {
  machineID: string;
  systemUUID: string;
  bootID: string;
  kernelVersion: string;
  osImage: string;
  containerRuntimeVersion: string;
  kubeletVersion: string;
  kubeProxyVersion: string;
  operatingSystem: string;
  architecture: string;
  swap?: { capacity?: number };
}

export interface NodeConfigStatus {
  assigned?: NodeConfigSource;
  active?: NodeConfigSource;
  lastKnownGood?: NodeConfigSource;
  error?: string;
}

export interface NodeRuntimeHandler {
  name?: string;
  features?: { recursiveReadOnlyMounts?: boolean; userNamespaces?: boolean };
}

export interface NodeStatus {
  capacity?: Record<string, Quantity>;
  allocatable?: Record<string, Quantity>;
  conditions?: NodeCondition[];
  addresses?: { type: string; address: string }[];
  daemonEndpoints?: { kubeletEndpoint?: { Port: number } };
  nodeInfo?: NodeSystemInfo;
  images?: { names?: string[]; sizeBytes?: number }[];
  phase?: string;
  volumesInUse?: string[];
  volumesAttached?: { name: string; devicePath: string }[];
  config?: NodeConfigStatus;
  runtimeHandlers?: NodeRuntimeHandler[];
  features?: { supplementalGroupsPolicy?: boolean };
}

export interface Node extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Node';
  metadata?: ObjectMeta;
  spec?: NodeSpec;
  status?: NodeStatus;
}

export interface NodeList extends KubeObject {
  metadata?: ListMeta;
  items: Node[];
}

export const nodeKind = coreV1Kind('Node');
export const nodeListKind = coreV1Kind('NodeList');

const SPEC = coreV1('NodeSpec');
const TAINT = coreV1('Taint');
const STATUS = coreV1('NodeStatus');
const CONDITION = coreV1('NodeCondition');
const ADDRESS = coreV1('NodeAddress');
const ENDPOINTS = coreV1('NodeDaemonEndpoints');
const ENDPOINT = coreV1('DaemonEndpoint');
const INFO = coreV1('NodeSystemInfo');
const IMAGE = coreV1('ContainerImage');
const CONFIG_SOURCE = coreV1('NodeConfigSource');
const CONFIG_MAP_SOURCE = coreV1('ConfigMapNodeConfigSource');
const CONFIG_STATUS = coreV1('NodeConfigStatus');
const ATTACHED = coreV1('AttachedVolume');
const RUNTIME_HANDLER = coreV1('NodeRuntimeHandler');
const RUNTIME_HANDLER_FEATURES = coreV1('NodeRuntimeHandlerFeatures');
const FEATURES = coreV1('NodeFeatures');
const SWAP = coreV1('NodeSwapStatus');
const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');
const resources = (description: string): ReturnType<typeof mapOf> => mapOf(ref(QUANTITY), description);
const infoFields = [
  'machineID',
  'systemUUID',
  'bootID',
  'kernelVersion',
  'osImage',
  'containerRuntimeVersion',
  'kubeletVersion',
  'kubeProxyVersion',
  'operatingSystem',
  'architecture',
] as const;

export const nodeModule: APIModule = {
  definitions: {
    [coreV1('Node')]: struct('A worker machine.', {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      spec: ref(SPEC, 'Desired behaviour of the node.', { default: {} }),
      status: ref(STATUS, 'Observed state of the node.', { default: {} }),
    }),
    [SPEC]: struct('Desired behaviour of a node.', {
      podCIDR: str('Pod IP range of the node.'),
      podCIDRs: arrayOf({ type: 'string' }, 'Pod IP ranges, one per family.', {
        'x-kubernetes-list-type': 'set',
        'x-kubernetes-patch-strategy': 'merge',
      }),
      configSource: ref(CONFIG_SOURCE, 'Deprecated: the dynamic kubelet config source.'),
      externalID: str('Deprecated. Not all kubelets set this field.'),
      providerID: str(),
      taints: atomicList(ref(TAINT), 'Taints of the node.'),
      unschedulable: bool('New pods are not scheduled here.'),
    }),
    [TAINT]: struct(
      'A taint: pods that do not tolerate it are kept off the node.',
      {
        effect: str(undefined, { enum: ['NoExecute', 'NoSchedule', 'PreferNoSchedule'] }),
        key: str(),
        timeAdded: ref(TIME),
        value: str(),
      },
      { required: ['key', 'effect'] },
    ),
    [STATUS]: struct('Observed state of a node.', {
      addresses: mapList(ref(ADDRESS), 'type', 'Addresses of the node.'),
      allocatable: resources('Resources available to pods.'),
      capacity: resources('Total resources of the node.'),
      conditions: mapList(ref(CONDITION), 'type', 'Current conditions of the node.'),
      config: ref(CONFIG_STATUS, 'Status of the config assigned to the node.'),
      daemonEndpoints: ref(ENDPOINTS, undefined, { default: {} }),
      features: ref(FEATURES, 'Features implemented by the CRI.'),
      images: atomicList(ref(IMAGE), 'Images on the node.'),
      nodeInfo: ref(INFO, undefined, { default: {} }),
      phase: str('Deprecated: the node lifecycle phase.', { enum: ['Pending', 'Running', 'Terminated'] }),
      runtimeHandlers: atomicList(ref(RUNTIME_HANDLER), 'The available runtime handlers.'),
      volumesAttached: atomicList(ref(ATTACHED), 'Volumes attached to the node.'),
      volumesInUse: atomicList({ type: 'string' }, 'Attachable volumes in use by the node.'),
    }),
    [CONFIG_SOURCE]: struct('A source of node configuration.', { configMap: ref(CONFIG_MAP_SOURCE) }),
    [CONFIG_MAP_SOURCE]: struct(
      'A ConfigMap as a config source for the node.',
      { kubeletConfigKey: str(), name: str(), namespace: str(), resourceVersion: str(), uid: str() },
      { required: ['namespace', 'name', 'kubeletConfigKey'] },
    ),
    [CONFIG_STATUS]: struct('Status of the config assigned by Node.Spec.ConfigSource.', {
      active: ref(CONFIG_SOURCE),
      assigned: ref(CONFIG_SOURCE),
      error: str(),
      lastKnownGood: ref(CONFIG_SOURCE),
    }),
    [ATTACHED]: struct(
      'A volume attached to the node.',
      { devicePath: str(), name: str() },
      { required: ['name', 'devicePath'] },
    ),
    [RUNTIME_HANDLER]: struct('A runtime handler of the node.', {
      features: ref(RUNTIME_HANDLER_FEATURES),
      name: str(),
    }),
    [RUNTIME_HANDLER_FEATURES]: struct('Features of a runtime handler.', {
      recursiveReadOnlyMounts: bool(),
      userNamespaces: bool(),
    }),
    [FEATURES]: struct('Features implemented by the CRI.', { supplementalGroupsPolicy: bool() }),
    [SWAP]: struct('Swap memory of the node.', { capacity: int64() }),
    [CONDITION]: struct(
      'One observation of a node state.',
      {
        lastHeartbeatTime: ref(TIME),
        lastTransitionTime: ref(TIME),
        message: str(),
        reason: str(),
        status: str(),
        type: str(),
      },
      { required: ['type', 'status'] },
    ),
    [ADDRESS]: struct(
      'An address of a node.',
      { address: str(), type: str() },
      { required: ['type', 'address'] },
    ),
    [ENDPOINTS]: struct('Ports of daemons on the node.', {
      kubeletEndpoint: ref(ENDPOINT, undefined, { default: {} }),
    }),
    [ENDPOINT]: struct('A daemon port.', { Port: int32() }, { required: ['Port'] }),
    [INFO]: struct(
      'Identity and versions of the node.',
      { ...Object.fromEntries(infoFields.map((f) => [f, str()])), swap: ref(SWAP) },
      { required: [...infoFields] },
    ),
    [IMAGE]: struct('An image on the node.', { names: atomicList({ type: 'string' }), sizeBytes: int64() }),
    [coreV1('NodeList')]: struct(
      'A list of Nodes.',
      {
        apiVersion,
        items: arrayOf(ref(coreV1('Node'), undefined, { default: {} }), 'The Nodes.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [nodeKind, nodeListKind],
  goTypes: {
    [TAINT]: { effect: 'v1.TaintEffect' },
    [CONDITION]: { type: 'v1.NodeConditionType', status: 'v1.ConditionStatus' },
    [STATUS]: { phase: 'v1.NodePhase' },
  },
  protobuf: {
    [coreV1('Node')]: { metadata: 1, spec: 2, status: 3 },
    [SPEC]: {
      podCIDR: 1,
      podCIDRs: 7,
      providerID: 3,
      unschedulable: 4,
      taints: 5,
      configSource: pointer(6),
      externalID: 2,
    },
    [CONFIG_SOURCE]: { configMap: pointer(2) },
    [CONFIG_MAP_SOURCE]: { namespace: 1, name: 2, uid: 3, resourceVersion: 4, kubeletConfigKey: 5 },
    [TAINT]: { key: 1, value: 2, effect: 3, timeAdded: pointer(4) },
    [STATUS]: {
      capacity: 1,
      allocatable: 2,
      phase: 3,
      conditions: 4,
      addresses: 5,
      daemonEndpoints: 6,
      nodeInfo: 7,
      images: 8,
      volumesInUse: 9,
      volumesAttached: 10,
      config: pointer(11),
      runtimeHandlers: 12,
      features: pointer(13),
    },
    [CONFIG_STATUS]: { assigned: pointer(1), active: pointer(2), lastKnownGood: pointer(3), error: 4 },
    [ATTACHED]: { name: 1, devicePath: 2 },
    [RUNTIME_HANDLER]: { name: 1, features: pointer(2) },
    [RUNTIME_HANDLER_FEATURES]: { recursiveReadOnlyMounts: pointer(1), userNamespaces: pointer(2) },
    [FEATURES]: { supplementalGroupsPolicy: pointer(1) },
    [SWAP]: { capacity: pointer(1) },
    [CONDITION]: { type: 1, status: 2, lastHeartbeatTime: 3, lastTransitionTime: 4, reason: 5, message: 6 },
    [ADDRESS]: { type: 1, address: 2 },
    [ENDPOINTS]: { kubeletEndpoint: 1 },
    [ENDPOINT]: { Port: 1 },
    [INFO]: { ...Object.fromEntries(infoFields.map((f, i) => [f, i + 1])), swap: pointer(11) },
    [IMAGE]: { names: 1, sizeBytes: 2 },
    [coreV1('NodeList')]: { metadata: 1, items: 2 },
  },
};
