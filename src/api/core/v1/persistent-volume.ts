// core/v1 PersistentVolume(+List) with the hostPath, nfs, local and csi sources (the others are
// volume-sources.ts's), and the node
// selector its nodeAffinity uses (k8s.io/api/core/v1 types.go). Go embeds PersistentVolumeSource in
// PersistentVolumeSpec: JSON flattens it, protobuf nests it as field 2 (an `inline` table entry).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1, coreV1Kind } from '../../schema/api-module.js';
import { pointer } from '../../schema/protobuf.js';
import { arrayOf, atomicList, bool, mapOf, ref, str, stringMap, struct } from '../../schema/builders.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META, TIME } from '../../meta/v1/object-meta.js';
import { QUANTITY, type Quantity } from '../../util/int-or-string.js';
import { OBJECT_REFERENCE, type ObjectReference } from './object-reference.js';
import type * as sources from './volume-sources.js';

/** core.BetaStorageClassAnnotation: the class a volume or claim named before spec.storageClassName. */
export const betaStorageClassAnnotation = 'volume.beta.kubernetes.io/storage-class';

/**
 * GetPersistentVolumeClass and GetPersistentVolumeClaimClass: the beta annotation first, then
 * spec.storageClassName, else "".
 */
export function storageClassOf(meta: ObjectMeta | undefined, className: string | undefined): string {
  return meta?.annotations?.[betaStorageClassAnnotation] ?? className ?? '';
}

export const persistentVolumeAccessModes = [
  'ReadOnlyMany',
  'ReadWriteMany',
  'ReadWriteOnce',
  'ReadWriteOncePod',
] as const;
export const persistentVolumeReclaimPolicies = ['Delete', 'Recycle', 'Retain'] as const;
export const persistentVolumeModes = ['Block', 'Filesystem'] as const;

export interface NodeSelectorRequirement {
  key?: string;
  operator?: string;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface NodeSelector {
  nodeSelectorTerms?: NodeSelectorTerm[];
}

export interface SecretReference {
  name?: string;
  namespace?: string;
}

// Go's zero values: a field the JSON leaves out decodes to "" (optional here, checked by validation).
export interface CSIPersistentVolumeSource {
  driver?: string;
  volumeHandle?: string;
  readOnly?: boolean;
  fsType?: string;
  volumeAttributes?: Record<string, string>;
  controllerPublishSecretRef?: SecretReference;
  nodeStageSecretRef?: SecretReference;
  nodePublishSecretRef?: SecretReference;
  controllerExpandSecretRef?: SecretReference;
  nodeExpandSecretRef?: SecretReference;
}

export interface NFSVolumeSource {
  server?: string;
  path?: string;
  readOnly?: boolean;
}

export interface PersistentVolumeSource {
  hostPath?: { path?: string; type?: string };
  nfs?: NFSVolumeSource;
  local?: { path?: string; fsType?: string };
  csi?: CSIPersistentVolumeSource;
  gcePersistentDisk?: sources.GCEPersistentDiskVolumeSource;
  awsElasticBlockStore?: sources.AWSElasticBlockStoreVolumeSource;
  glusterfs?: sources.GlusterfsPersistentVolumeSource;
  rbd?: sources.RBDPersistentVolumeSource;
  iscsi?: sources.ISCSIPersistentVolumeSource;
  cinder?: sources.CinderPersistentVolumeSource;
  cephfs?: sources.CephFSPersistentVolumeSource;
  fc?: sources.FCVolumeSource;
  flocker?: sources.FlockerVolumeSource;
  flexVolume?: sources.FlexPersistentVolumeSource;
  azureFile?: sources.AzureFilePersistentVolumeSource;
  vsphereVolume?: sources.VsphereVirtualDiskVolumeSource;
  quobyte?: sources.QuobyteVolumeSource;
  azureDisk?: sources.AzureDiskVolumeSource;
  photonPersistentDisk?: sources.PhotonPersistentDiskVolumeSource;
  portworxVolume?: sources.PortworxVolumeSource;
  scaleIO?: sources.ScaleIOPersistentVolumeSource;
  storageos?: sources.StorageOSPersistentVolumeSource;
}

export interface PersistentVolumeSpec extends PersistentVolumeSource {
  capacity?: Record<string, Quantity>;
  accessModes?: string[];
  claimRef?: ObjectReference;
  persistentVolumeReclaimPolicy?: string;
  storageClassName?: string;
  mountOptions?: string[];
  volumeMode?: string;
  nodeAffinity?: { required?: NodeSelector };
  volumeAttributesClassName?: string;
}

export interface PersistentVolumeStatus {
  phase?: string;
  message?: string;
  reason?: string;
  lastPhaseTransitionTime?: string;
}

export interface PersistentVolume extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'PersistentVolume';
  metadata?: ObjectMeta;
  spec?: PersistentVolumeSpec;
  status?: PersistentVolumeStatus;
}

export interface PersistentVolumeList extends KubeObject {
  metadata?: ListMeta;
  items: PersistentVolume[];
}

export const persistentVolumeKind = coreV1Kind('PersistentVolume');
export const persistentVolumeListKind = coreV1Kind('PersistentVolumeList');

export const NODE_SELECTOR = coreV1('NodeSelector');
export const NODE_SELECTOR_TERM = coreV1('NodeSelectorTerm');
export const NODE_SELECTOR_REQUIREMENT = coreV1('NodeSelectorRequirement');
export const SECRET_REFERENCE = coreV1('SecretReference');
const PV = coreV1('PersistentVolume');
const SPEC = coreV1('PersistentVolumeSpec');
const STATUS = coreV1('PersistentVolumeStatus');
const NFS = coreV1('NFSVolumeSource');
const LOCAL = coreV1('LocalVolumeSource');
const CSI = coreV1('CSIPersistentVolumeSource');
const AFFINITY = coreV1('VolumeNodeAffinity');
const HOST_PATH = coreV1('HostPathVolumeSource');
/** Go's embedded PersistentVolumeSource: only the spec's protobuf table names it. */
const SOURCE = coreV1('PersistentVolumeSource');
const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');
const secretRef = (description: string): ReturnType<typeof ref> => ref(SECRET_REFERENCE, description);

const sourceProperties = {
  awsElasticBlockStore: ref(coreV1('AWSElasticBlockStoreVolumeSource')),
  azureDisk: ref(coreV1('AzureDiskVolumeSource')),
  azureFile: ref(coreV1('AzureFilePersistentVolumeSource')),
  cephfs: ref(coreV1('CephFSPersistentVolumeSource')),
  cinder: ref(coreV1('CinderPersistentVolumeSource')),
  csi: ref(CSI, 'A volume served by an external CSI driver.'),
  fc: ref(coreV1('FCVolumeSource')),
  flexVolume: ref(coreV1('FlexPersistentVolumeSource')),
  flocker: ref(coreV1('FlockerVolumeSource')),
  gcePersistentDisk: ref(coreV1('GCEPersistentDiskVolumeSource')),
  glusterfs: ref(coreV1('GlusterfsPersistentVolumeSource')),
  hostPath: ref(HOST_PATH, 'A directory of the host (single-node testing only).'),
  iscsi: ref(coreV1('ISCSIPersistentVolumeSource')),
  local: ref(LOCAL, 'Local storage of a node.'),
  nfs: ref(NFS, 'An NFS mount.'),
  photonPersistentDisk: ref(coreV1('PhotonPersistentDiskVolumeSource')),
  portworxVolume: ref(coreV1('PortworxVolumeSource')),
  quobyte: ref(coreV1('QuobyteVolumeSource')),
  rbd: ref(coreV1('RBDPersistentVolumeSource')),
  scaleIO: ref(coreV1('ScaleIOPersistentVolumeSource')),
  storageos: ref(coreV1('StorageOSPersistentVolumeSource')),
  vsphereVolume: ref(coreV1('VsphereVirtualDiskVolumeSource')),
};

export const persistentVolumeModule: APIModule = {
  definitions: {
    [PV]: struct('A piece of storage in the cluster, provisioned by an administrator or a class.', {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      spec: ref(SPEC, 'What the volume is.', { default: {} }),
      status: ref(STATUS, 'Observed status of the volume.', { default: {} }),
    }),
    [SPEC]: struct('What a persistent volume is.', {
      accessModes: atomicList(
        { type: 'string', enum: [...persistentVolumeAccessModes] },
        'Ways the volume can be mounted.',
      ),
      capacity: mapOf(ref(QUANTITY), "The volume's resources and capacity."),
      claimRef: ref(OBJECT_REFERENCE, 'The claim bound to this volume.', {
        'x-kubernetes-map-type': 'granular',
      }),
      ...sourceProperties,
      mountOptions: atomicList({ type: 'string' }, 'Mount options.'),
      nodeAffinity: ref(AFFINITY, 'Nodes this volume can be reached from.'),
      // Retain and Filesystem when unset, by SetDefaults_PersistentVolume (the PV strategy), not as
      // schema defaults: a VolumeAttachment's inlineVolumeSpec is this definition and gets neither.
      persistentVolumeReclaimPolicy: str('What happens to the volume when released from its claim.', {
        enum: [...persistentVolumeReclaimPolicies],
      }),
      storageClassName: str('Name of the StorageClass the volume belongs to.'),
      volumeAttributesClassName: str('Name of the VolumeAttributesClass the volume belongs to.'),
      volumeMode: str('Block or Filesystem.', { enum: [...persistentVolumeModes] }),
    }),
    [SOURCE]: struct('What backs a persistent volume; exactly one source.', sourceProperties),
    [STATUS]: struct('Observed status of a persistent volume.', {
      lastPhaseTransitionTime: ref(TIME, 'When the volume last changed phase.'),
      message: str(),
      phase: str('Pending, Available, Bound, Released or Failed.', {
        default: 'Pending',
        enum: ['Available', 'Bound', 'Failed', 'Pending', 'Released'],
      }),
      reason: str(),
    }),
    [NFS]: struct(
      'An NFS mount.',
      { path: str(), readOnly: bool(), server: str() },
      { required: ['server', 'path'] },
    ),
    [LOCAL]: struct('Local storage of a node.', { fsType: str(), path: str() }, { required: ['path'] }),
    [CSI]: struct(
      'A volume served by an external CSI driver.',
      {
        controllerExpandSecretRef: secretRef('Secret for ControllerExpandVolume.'),
        controllerPublishSecretRef: secretRef('Secret for ControllerPublishVolume.'),
        driver: str('Name of the driver.'),
        fsType: str(),
        nodeExpandSecretRef: secretRef('Secret for NodeExpandVolume.'),
        nodePublishSecretRef: secretRef('Secret for NodePublishVolume.'),
        nodeStageSecretRef: secretRef('Secret for NodeStageVolume.'),
        readOnly: bool(),
        volumeAttributes: stringMap('Driver-specific attributes.'),
        volumeHandle: str('The volume as the driver names it.'),
      },
      { required: ['driver', 'volumeHandle'] },
    ),
    [SECRET_REFERENCE]: struct(
      'A Secret by name and namespace.',
      { name: str(), namespace: str() },
      { 'x-kubernetes-map-type': 'atomic' },
    ),
    [AFFINITY]: struct('Nodes a volume can be reached from.', { required: ref(NODE_SELECTOR) }),
    [NODE_SELECTOR]: struct(
      'The union of its terms.',
      { nodeSelectorTerms: atomicList(ref(NODE_SELECTOR_TERM), 'Terms, ORed.') },
      { required: ['nodeSelectorTerms'], 'x-kubernetes-map-type': 'atomic' },
    ),
    [NODE_SELECTOR_TERM]: struct(
      'Requirements, ANDed.',
      {
        matchExpressions: atomicList(ref(NODE_SELECTOR_REQUIREMENT), 'Requirements on node labels.'),
        matchFields: atomicList(ref(NODE_SELECTOR_REQUIREMENT), 'Requirements on node fields.'),
      },
      { 'x-kubernetes-map-type': 'atomic' },
    ),
    [NODE_SELECTOR_REQUIREMENT]: struct(
      'A key, an operator and values.',
      {
        key: str(),
        operator: str(undefined, { enum: ['DoesNotExist', 'Exists', 'Gt', 'In', 'Lt', 'NotIn'] }),
        values: atomicList({ type: 'string' }),
      },
      { required: ['key', 'operator'] },
    ),
    [coreV1('PersistentVolumeList')]: struct(
      'A list of PersistentVolumes.',
      {
        apiVersion,
        items: arrayOf(ref(PV, undefined, { default: {} }), 'The PersistentVolumes.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [persistentVolumeKind, persistentVolumeListKind],
  goTypes: {
    [SPEC]: {
      accessModes: '[]v1.PersistentVolumeAccessMode',
      persistentVolumeReclaimPolicy: 'v1.PersistentVolumeReclaimPolicy',
      volumeMode: 'v1.PersistentVolumeMode',
    },
    [STATUS]: { phase: 'v1.PersistentVolumePhase' },
    [NODE_SELECTOR_REQUIREMENT]: { operator: 'v1.NodeSelectorOperator' },
  },
  protobuf: {
    [PV]: { metadata: 1, spec: 2, status: 3 },
    [SPEC]: {
      capacity: 1,
      PersistentVolumeSource: { field: 2, inline: SOURCE },
      accessModes: 3,
      claimRef: pointer(4),
      persistentVolumeReclaimPolicy: 5,
      storageClassName: 6,
      mountOptions: 7,
      volumeMode: pointer(8),
      nodeAffinity: pointer(9),
      volumeAttributesClassName: pointer(10),
    },
    [SOURCE]: {
      gcePersistentDisk: pointer(1),
      awsElasticBlockStore: pointer(2),
      hostPath: pointer(3),
      glusterfs: pointer(4),
      nfs: pointer(5),
      rbd: pointer(6),
      iscsi: pointer(7),
      cinder: pointer(8),
      cephfs: pointer(9),
      fc: pointer(10),
      flocker: pointer(11),
      flexVolume: pointer(12),
      azureFile: pointer(13),
      vsphereVolume: pointer(14),
      quobyte: pointer(15),
      azureDisk: pointer(16),
      photonPersistentDisk: pointer(17),
      portworxVolume: pointer(18),
      scaleIO: pointer(19),
      local: pointer(20),
      storageos: pointer(21),
      csi: pointer(22),
    },
    [STATUS]: { phase: 1, message: 2, reason: 3, lastPhaseTransitionTime: pointer(4) },
    [NFS]: { server: 1, path: 2, readOnly: 3 },
    [LOCAL]: { path: 1, fsType: pointer(2) },
    [CSI]: {
      driver: 1,
      volumeHandle: 2,
      readOnly: 3,
      fsType: 4,
      volumeAttributes: 5,
      controllerPublishSecretRef: pointer(6),
      nodeStageSecretRef: pointer(7),
      nodePublishSecretRef: pointer(8),
      controllerExpandSecretRef: pointer(9),
      nodeExpandSecretRef: pointer(10),
    },
    [SECRET_REFERENCE]: { name: 1, namespace: 2 },
    [AFFINITY]: { required: pointer(1) },
    [NODE_SELECTOR]: { nodeSelectorTerms: 1 },
    [NODE_SELECTOR_TERM]: { matchExpressions: 1, matchFields: 2 },
    [NODE_SELECTOR_REQUIREMENT]: { key: 1, operator: 2, values: 3 },
    [coreV1('PersistentVolumeList')]: { metadata: 1, items: 2 },
  },
};
