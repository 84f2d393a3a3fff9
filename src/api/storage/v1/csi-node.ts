// storage.k8s.io/v1 CSINode(+List) (k8s.io/api/storage/v1/types.go).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { groupKind } from '../../schema/api-module.js';
import { arrayOf, atomicList, int32, mapList, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';
import { storageV1, storageV1Def } from './storage-class.js';

export interface CSINodeDriver {
  name: string;
  nodeID: string;
  topologyKeys?: string[];
  allocatable?: { count?: number };
}

export interface CSINode extends KubeObject {
  apiVersion?: 'storage.k8s.io/v1';
  kind?: 'CSINode';
  metadata?: ObjectMeta;
  spec: { drivers: CSINodeDriver[] };
}

export interface CSINodeList extends KubeObject {
  metadata?: ListMeta;
  items: CSINode[];
}

const CSI_NODE = storageV1Def('CSINode');
const CSI_NODE_LIST = storageV1Def('CSINodeList');
const SPEC = storageV1Def('CSINodeSpec');
const DRIVER = storageV1Def('CSINodeDriver');
const RESOURCES = storageV1Def('VolumeNodeResources');

export const csiNodeKind = groupKind(storageV1, 'CSINode', CSI_NODE);
export const csiNodeListKind = groupKind(storageV1, 'CSINodeList', CSI_NODE_LIST);

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const csiNodeModule: APIModule = {
  definitions: {
    [RESOURCES]: struct('Volume limits of a node.', {
      count: int32('How many volumes of the driver the node may have.'),
    }),
    [DRIVER]: struct(
      'A CSI driver installed on a node.',
      {
        allocatable: ref(RESOURCES, 'The volume resources available for scheduling.'),
        name: str('The name of the driver.', { default: '' }),
        nodeID: str('The node as the driver names it.', { default: '' }),
        topologyKeys: atomicList(str(undefined, { default: '' }), 'The topology keys the driver supports.'),
      },
      { required: ['name', 'nodeID'] },
    ),
    [SPEC]: struct(
      'The CSI drivers of a node.',
      { drivers: mapList(ref(DRIVER, undefined, { default: {} }), 'name', 'The drivers.') },
      { required: ['drivers'] },
    ),
    [CSI_NODE]: struct(
      'The CSI drivers installed on a node.',
      {
        apiVersion,
        kind,
        metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
        spec: ref(SPEC, 'The drivers.', { default: {} }),
      },
      { required: ['spec'] },
    ),
    [CSI_NODE_LIST]: struct(
      'A list of CSINodes.',
      {
        apiVersion,
        items: arrayOf(ref(CSI_NODE, undefined, { default: {} }), 'The CSINodes.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [csiNodeKind, csiNodeListKind],
  // k8s.io/api/storage/v1 generated.proto.
  protobuf: {
    [CSI_NODE]: { metadata: 1, spec: 2 },
    [CSI_NODE_LIST]: { metadata: 1, items: 2 },
    [SPEC]: { drivers: 1 },
    [DRIVER]: { name: 1, nodeID: { field: 2, goName: 'NodeID' }, topologyKeys: 3, allocatable: pointer(4) },
    [RESOURCES]: { count: pointer(1) },
  },
};
