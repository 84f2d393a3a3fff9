// storage.k8s.io/v1 CSIDriver(+List) (k8s.io/api/storage/v1/types.go).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { groupKind } from '../../schema/api-module.js';
import { arrayOf, atomicList, bool, int64, ref, str, stringSet, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';
import { storageV1, storageV1Def } from './storage-class.js';

export const fsGroupPolicies = ['ReadWriteOnceWithFSType', 'File', 'None'] as const;
export const volumeLifecycleModes = ['Persistent', 'Ephemeral'] as const;

export interface CSIDriverSpec {
  attachRequired?: boolean;
  podInfoOnMount?: boolean;
  volumeLifecycleModes?: string[];
  storageCapacity?: boolean;
  fsGroupPolicy?: string;
  tokenRequests?: { audience: string; expirationSeconds?: number }[];
  requiresRepublish?: boolean;
  seLinuxMount?: boolean;
  nodeAllocatableUpdatePeriodSeconds?: number;
}

export interface CSIDriver extends KubeObject {
  apiVersion?: 'storage.k8s.io/v1';
  kind?: 'CSIDriver';
  metadata?: ObjectMeta;
  spec: CSIDriverSpec;
}

export interface CSIDriverList extends KubeObject {
  metadata?: ListMeta;
  items: CSIDriver[];
}

const CSI_DRIVER = storageV1Def('CSIDriver');
const CSI_DRIVER_LIST = storageV1Def('CSIDriverList');
const SPEC = storageV1Def('CSIDriverSpec');
const TOKEN_REQUEST = storageV1Def('TokenRequest');

export const csiDriverKind = groupKind(storageV1, 'CSIDriver', CSI_DRIVER);
export const csiDriverListKind = groupKind(storageV1, 'CSIDriverList', CSI_DRIVER_LIST);

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const csiDriverModule: APIModule = {
  definitions: {
    [TOKEN_REQUEST]: struct(
      'A service account token the driver needs.',
      {
        audience: str('The audience of the token.', { default: '' }),
        expirationSeconds: int64('How long the token is valid.'),
      },
      { required: ['audience'] },
    ),
    [SPEC]: struct('What the driver needs from Kubernetes.', {
      attachRequired: bool('Whether volumes must be attached before they are mounted; true when unset.'),
      fsGroupPolicy: str('Whether ownership of volumes may be changed to the fsGroup.', {
        default: 'ReadWriteOnceWithFSType',
      }),
      nodeAllocatableUpdatePeriodSeconds: int64('How often the allocatable volume count is refreshed.'),
      podInfoOnMount: bool('Whether pod information is passed on mount.'),
      requiresRepublish: bool('Whether volumes are published again periodically.'),
      seLinuxMount: bool('Whether the driver supports the SELinux context mount option.'),
      storageCapacity: bool('Whether scheduling considers the capacity the driver reports.'),
      tokenRequests: atomicList(ref(TOKEN_REQUEST, undefined, { default: {} }), 'Tokens the driver needs.'),
      volumeLifecycleModes: stringSet('Persistent and/or Ephemeral.'),
    }),
    [CSI_DRIVER]: struct(
      'A CSI volume driver deployed on the cluster.',
      {
        apiVersion,
        kind,
        metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
        spec: ref(SPEC, 'The driver.', { default: {} }),
      },
      { required: ['spec'] },
    ),
    [CSI_DRIVER_LIST]: struct(
      'A list of CSIDrivers.',
      {
        apiVersion,
        items: arrayOf(ref(CSI_DRIVER, undefined, { default: {} }), 'The CSIDrivers.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [csiDriverKind, csiDriverListKind],
  // k8s.io/api/storage/v1 generated.proto.
  protobuf: {
    [CSI_DRIVER]: { metadata: 1, spec: 2 },
    [CSI_DRIVER_LIST]: { metadata: 1, items: 2 },
    [SPEC]: {
      attachRequired: pointer(1),
      podInfoOnMount: pointer(2),
      volumeLifecycleModes: 3,
      storageCapacity: pointer(4),
      fsGroupPolicy: pointer(5),
      tokenRequests: 6,
      requiresRepublish: pointer(7),
      seLinuxMount: pointer(8),
      nodeAllocatableUpdatePeriodSeconds: pointer(9),
    },
    [TOKEN_REQUEST]: { audience: 1, expirationSeconds: pointer(2) },
  },
};
