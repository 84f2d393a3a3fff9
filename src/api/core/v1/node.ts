// core/v1 Node(+List), NodeSpec, Taint, NodeStatus and what it references.
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1, coreV1Kind } from '../../schema/api-module.js';
import { pointer } from '../../schema/protobuf.js';
import { arrayOf, atomicList, bool, int32, int64, mapList, mapOf, ref, str, struct } from '../../schema/builders.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META, TIME } from '../../meta/v1/object-meta.js';
import { QUANTITY, type Quantity } from '../../util/int-or-string.js';

export interface Taint {
  key: string;
  value?: string;
  effect: string;
  timeAdded?: string;
}

export interface NodeSpec {
  podCIDR?: string;
  podCIDRs?: string[];
  providerID?: string;
  unschedulable?: boolean;
  taints?: Taint[];
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
}

export interface NodeStatus {
  capacity?: Record<string, Quantity>;
  allocatable?: Record<string, Quantity>;
  conditions?: NodeCondition[];
  addresses?: { type: string; address: string }[];
  daemonEndpoints?: { kubeletEndpoint?: { Port: number } };
  nodeInfo?: NodeSystemInfo;
  images?: { names?: string[]; sizeBytes?: number }[];
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
      daemonEndpoints: ref(ENDPOINTS, undefined, { default: {} }),
      images: atomicList(ref(IMAGE), 'Images on the node.'),
      nodeInfo: ref(INFO, undefined, { default: {} }),
    }),
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
    [ADDRESS]: struct('An address of a node.', { address: str(), type: str() }, { required: ['type', 'address'] }),
    [ENDPOINTS]: struct('Ports of daemons on the node.', { kubeletEndpoint: ref(ENDPOINT, undefined, { default: {} }) }),
    [ENDPOINT]: struct('A daemon port.', { Port: int32() }, { required: ['Port'] }),
    [INFO]: struct(
      'Identity and versions of the node.',
      Object.fromEntries(infoFields.map((f) => [f, str()])),
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
  },
  protobuf: {
    [coreV1('Node')]: { metadata: 1, spec: 2, status: 3 },
    [SPEC]: { podCIDR: 1, providerID: 3, unschedulable: 4, taints: 5, podCIDRs: 7 },
    [TAINT]: { key: 1, value: 2, effect: 3, timeAdded: pointer(4) },
    [STATUS]: {
      capacity: 1,
      allocatable: 2,
      conditions: 4,
      addresses: 5,
      daemonEndpoints: 6,
      nodeInfo: 7,
      images: 8,
    },
    [CONDITION]: { type: 1, status: 2, lastHeartbeatTime: 3, lastTransitionTime: 4, reason: 5, message: 6 },
    [ADDRESS]: { type: 1, address: 2 },
    [ENDPOINTS]: { kubeletEndpoint: 1 },
    [ENDPOINT]: { Port: 1 },
    [INFO]: Object.fromEntries(infoFields.map((f, i) => [f, i + 1])),
    [IMAGE]: { names: 1, sizeBytes: 2 },
    [coreV1('NodeList')]: { metadata: 1, items: 2 },
  },
};
