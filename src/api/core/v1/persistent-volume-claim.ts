// core/v1 PersistentVolumeClaim(+List) and what it references (k8s.io/api/core/v1 types.go).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1, coreV1Kind } from '../../schema/api-module.js';
import { pointer } from '../../schema/protobuf.js';
import { arrayOf, atomicList, mapList, mapOf, ref, str, struct } from '../../schema/builders.js';
import { LABEL_SELECTOR, type LabelSelector } from '../../meta/v1/label-selector.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META, TIME } from '../../meta/v1/object-meta.js';
import { QUANTITY, type Quantity } from '../../util/int-or-string.js';
import { persistentVolumeAccessModes, persistentVolumeModes } from './persistent-volume.js';

export interface TypedLocalObjectReference {
  apiGroup?: string;
  kind?: string;
  name?: string;
}

export interface TypedObjectReference extends TypedLocalObjectReference {
  namespace?: string;
}

export interface PersistentVolumeClaimSpec {
  accessModes?: string[];
  selector?: LabelSelector;
  resources?: { limits?: Record<string, Quantity>; requests?: Record<string, Quantity> };
  volumeName?: string;
  storageClassName?: string;
  volumeMode?: string;
  dataSource?: TypedLocalObjectReference;
  dataSourceRef?: TypedObjectReference;
  volumeAttributesClassName?: string;
}

export interface PersistentVolumeClaimCondition {
  type: string;
  status: string;
  lastProbeTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface PersistentVolumeClaimStatus {
  phase?: string;
  accessModes?: string[];
  capacity?: Record<string, Quantity>;
  conditions?: PersistentVolumeClaimCondition[];
  allocatedResources?: Record<string, Quantity>;
  allocatedResourceStatuses?: Record<string, string>;
  currentVolumeAttributesClassName?: string;
  modifyVolumeStatus?: { targetVolumeAttributesClassName?: string; status: string };
}

export interface PersistentVolumeClaim extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'PersistentVolumeClaim';
  metadata?: ObjectMeta;
  spec?: PersistentVolumeClaimSpec;
  status?: PersistentVolumeClaimStatus;
}

export interface PersistentVolumeClaimList extends KubeObject {
  metadata?: ListMeta;
  items: PersistentVolumeClaim[];
}

export const persistentVolumeClaimKind = coreV1Kind('PersistentVolumeClaim');
export const persistentVolumeClaimListKind = coreV1Kind('PersistentVolumeClaimList');

const PVC = coreV1('PersistentVolumeClaim');
const SPEC = coreV1('PersistentVolumeClaimSpec');
const STATUS = coreV1('PersistentVolumeClaimStatus');
const CONDITION = coreV1('PersistentVolumeClaimCondition');
const RESOURCES = coreV1('VolumeResourceRequirements');
const TYPED_LOCAL_REF = coreV1('TypedLocalObjectReference');
const TYPED_REF = coreV1('TypedObjectReference');
const MODIFY_STATUS = coreV1('ModifyVolumeStatus');
const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');
const quantities = (description: string): ReturnType<typeof mapOf> => mapOf(ref(QUANTITY), description);
const accessModes = (description: string): ReturnType<typeof atomicList> =>
  atomicList({ type: 'string', enum: [...persistentVolumeAccessModes] }, description);

export const persistentVolumeClaimModule: APIModule = {
  definitions: {
    [PVC]: struct("A user's request for and claim to a persistent volume.", {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      spec: ref(SPEC, 'What the claim asks for.', { default: {} }),
      status: ref(STATUS, 'Observed status of the claim.', { default: {} }),
    }),
    [SPEC]: struct('What a claim asks for.', {
      accessModes: accessModes('Access modes the volume should have.'),
      dataSource: ref(TYPED_LOCAL_REF, 'An existing object to populate the volume from.'),
      dataSourceRef: ref(TYPED_REF, 'An object to populate the volume from.'),
      resources: ref(RESOURCES, 'Minimum resources the volume should have.', { default: {} }),
      selector: ref(LABEL_SELECTOR, 'A label query over volumes to bind to.'),
      storageClassName: str('Name of the StorageClass the claim asks for.'),
      volumeAttributesClassName: str('Name of the VolumeAttributesClass the claim asks for.'),
      volumeMode: str('Block or Filesystem.', { default: 'Filesystem', enum: [...persistentVolumeModes] }),
      volumeName: str('The volume bound to this claim.'),
    }),
    [RESOURCES]: struct('Resource requirements of a volume.', {
      limits: quantities('Maximum resources allowed.'),
      requests: quantities('Minimum resources required.'),
    }),
    [TYPED_LOCAL_REF]: struct(
      'An object in the same namespace, by kind and name.',
      { apiGroup: str(), kind: str(), name: str() },
      { required: ['kind', 'name'], 'x-kubernetes-map-type': 'atomic' },
    ),
    [TYPED_REF]: struct(
      'An object by kind, name and namespace.',
      { apiGroup: str(), kind: str(), name: str(), namespace: str() },
      { required: ['kind', 'name'] },
    ),
    [STATUS]: struct('Observed status of a claim.', {
      accessModes: accessModes('Access modes the bound volume has.'),
      allocatedResourceStatuses: mapOf({ type: 'string' }, 'Status of resize operations.', {
        'x-kubernetes-map-type': 'granular',
      }),
      allocatedResources: quantities('Resources allocated to the claim.'),
      capacity: quantities('Actual resources of the bound volume.'),
      conditions: mapList(ref(CONDITION), 'type', 'Current conditions of the claim.'),
      currentVolumeAttributesClassName: str(),
      modifyVolumeStatus: ref(MODIFY_STATUS),
      phase: str('Pending, Bound or Lost.', { default: 'Pending', enum: ['Bound', 'Lost', 'Pending'] }),
    }),
    [CONDITION]: struct(
      'A condition of a claim.',
      {
        lastProbeTime: ref(TIME),
        lastTransitionTime: ref(TIME),
        message: str(),
        reason: str(),
        status: str(),
        type: str(),
      },
      { required: ['type', 'status'] },
    ),
    [MODIFY_STATUS]: struct(
      'Status of a ControllerModifyVolume operation.',
      { status: str(), targetVolumeAttributesClassName: str() },
      { required: ['status'] },
    ),
    [coreV1('PersistentVolumeClaimList')]: struct(
      'A list of PersistentVolumeClaims.',
      {
        apiVersion,
        items: arrayOf(ref(PVC, undefined, { default: {} }), 'The PersistentVolumeClaims.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [persistentVolumeClaimKind, persistentVolumeClaimListKind],
  goTypes: {
    [SPEC]: { accessModes: '[]v1.PersistentVolumeAccessMode', volumeMode: 'v1.PersistentVolumeMode' },
    [STATUS]: { phase: 'v1.PersistentVolumeClaimPhase', accessModes: '[]v1.PersistentVolumeAccessMode' },
  },
  protobuf: {
    [PVC]: { metadata: 1, spec: 2, status: 3 },
    [SPEC]: {
      accessModes: 1,
      selector: pointer(4),
      resources: 2,
      volumeName: 3,
      storageClassName: pointer(5),
      volumeMode: pointer(6),
      dataSource: pointer(7),
      dataSourceRef: pointer(8),
      volumeAttributesClassName: pointer(9),
    },
    [RESOURCES]: { limits: 1, requests: 2 },
    [TYPED_LOCAL_REF]: { apiGroup: pointer(1), kind: 2, name: 3 },
    [TYPED_REF]: { apiGroup: pointer(1), kind: 2, name: 3, namespace: pointer(4) },
    [STATUS]: {
      phase: 1,
      accessModes: 2,
      capacity: 3,
      conditions: 4,
      allocatedResources: 5,
      allocatedResourceStatuses: 7,
      currentVolumeAttributesClassName: pointer(8),
      modifyVolumeStatus: pointer(9),
    },
    [CONDITION]: { type: 1, status: 2, lastProbeTime: 3, lastTransitionTime: 4, reason: 5, message: 6 },
    [MODIFY_STATUS]: { targetVolumeAttributesClassName: 1, status: 2 },
    [coreV1('PersistentVolumeClaimList')]: { metadata: 1, items: 2 },
  },
};
