// storage.k8s.io/v1 CSIStorageCapacity(+List) (k8s.io/api/storage/v1/types.go).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { groupKind } from '../../schema/api-module.js';
import { mapList, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LABEL_SELECTOR, type LabelSelector } from '../../meta/v1/label-selector.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';
import { QUANTITY, type Quantity } from '../../util/int-or-string.js';
import { storageV1, storageV1Def } from './storage-class.js';

export interface CSIStorageCapacity extends KubeObject {
  apiVersion?: 'storage.k8s.io/v1';
  kind?: 'CSIStorageCapacity';
  metadata?: ObjectMeta;
  nodeTopology?: LabelSelector;
  storageClassName: string;
  capacity?: Quantity;
  maximumVolumeSize?: Quantity;
}

export interface CSIStorageCapacityList extends KubeObject {
  metadata?: ListMeta;
  items: CSIStorageCapacity[];
}

const CAPACITY = storageV1Def('CSIStorageCapacity');
const CAPACITY_LIST = storageV1Def('CSIStorageCapacityList');

export const csiStorageCapacityKind = groupKind(storageV1, 'CSIStorageCapacity', CAPACITY);
export const csiStorageCapacityListKind = groupKind(storageV1, 'CSIStorageCapacityList', CAPACITY_LIST);

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const csiStorageCapacityModule: APIModule = {
  definitions: {
    [CAPACITY]: struct(
      'The storage capacity of one CSI driver for one storage class in one topology segment.',
      {
        apiVersion,
        capacity: ref(QUANTITY, 'The capacity the driver reported for the topology and class.'),
        kind,
        maximumVolumeSize: ref(QUANTITY, 'The largest volume a CreateVolume call may ask for.'),
        metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
        nodeTopology: ref(LABEL_SELECTOR, 'The nodes that can access the storage.'),
        storageClassName: str('The StorageClass the capacity applies to.', { default: '' }),
      },
      { required: ['storageClassName'] },
    ),
    [CAPACITY_LIST]: struct(
      'A list of CSIStorageCapacity objects.',
      {
        apiVersion,
        items: mapList(ref(CAPACITY, undefined, { default: {} }), 'name', 'The CSIStorageCapacity objects.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [csiStorageCapacityKind, csiStorageCapacityListKind],
  // k8s.io/api/storage/v1 generated.proto.
  protobuf: {
    [CAPACITY]: {
      metadata: 1,
      nodeTopology: pointer(2),
      storageClassName: 3,
      capacity: pointer(4),
      maximumVolumeSize: pointer(5),
    },
    [CAPACITY_LIST]: { metadata: 1, items: 2 },
  },
};
