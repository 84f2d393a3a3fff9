// core/v1 Volume with the commonly used sources: configMap, secret, emptyDir, persistentVolumeClaim,
// hostPath, downwardAPI, projected (volume-sources.ts holds every other one). Go embeds VolumeSource in Volume and LocalObjectReference in the
// configMap sources: JSON flattens them, protobuf carries each as its own message at one field
// number, which the tables name with `inline`.
import type { APIModule } from '../../schema/api-module.js';
import { coreV1 } from '../../schema/api-module.js';
import { pointer } from '../../schema/protobuf.js';
import { atomicList, bool, int32, int64, ref, str, struct } from '../../schema/builders.js';
import { QUANTITY, type Quantity } from '../../util/int-or-string.js';
import { OBJECT_FIELD_SELECTOR, RESOURCE_FIELD_SELECTOR, type EnvVarSource } from './container.js';
import { LOCAL_OBJECT_REFERENCE } from './object-reference.js';
import type { NFSVolumeSource } from './persistent-volume.js';
import type * as sources from './volume-sources.js';

export interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}

export interface DownwardAPIVolumeFile {
  path: string;
  fieldRef?: EnvVarSource['fieldRef'];
  resourceFieldRef?: EnvVarSource['resourceFieldRef'];
  mode?: number;
}

export interface VolumeProjection {
  configMap?: { name?: string; items?: KeyToPath[]; optional?: boolean };
  secret?: { name?: string; items?: KeyToPath[]; optional?: boolean };
  downwardAPI?: { items?: DownwardAPIVolumeFile[] };
  serviceAccountToken?: { audience?: string; expirationSeconds?: number; path: string };
  clusterTrustBundle?: sources.ClusterTrustBundleProjection;
}

export interface Volume {
  name: string;
  hostPath?: { path: string; type?: string };
  emptyDir?: { medium?: string; sizeLimit?: Quantity };
  secret?: { secretName?: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  configMap?: { name?: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
  downwardAPI?: { items?: DownwardAPIVolumeFile[]; defaultMode?: number };
  projected?: { sources?: VolumeProjection[]; defaultMode?: number };
  gcePersistentDisk?: sources.GCEPersistentDiskVolumeSource;
  awsElasticBlockStore?: sources.AWSElasticBlockStoreVolumeSource;
  gitRepo?: sources.GitRepoVolumeSource;
  nfs?: NFSVolumeSource;
  iscsi?: sources.ISCSIVolumeSource;
  glusterfs?: sources.GlusterfsVolumeSource;
  rbd?: sources.RBDVolumeSource;
  flexVolume?: sources.FlexVolumeSource;
  cinder?: sources.CinderVolumeSource;
  cephfs?: sources.CephFSVolumeSource;
  flocker?: sources.FlockerVolumeSource;
  fc?: sources.FCVolumeSource;
  azureFile?: sources.AzureFileVolumeSource;
  vsphereVolume?: sources.VsphereVirtualDiskVolumeSource;
  quobyte?: sources.QuobyteVolumeSource;
  azureDisk?: sources.AzureDiskVolumeSource;
  photonPersistentDisk?: sources.PhotonPersistentDiskVolumeSource;
  portworxVolume?: sources.PortworxVolumeSource;
  scaleIO?: sources.ScaleIOVolumeSource;
  storageos?: sources.StorageOSVolumeSource;
  csi?: sources.CSIVolumeSource;
  ephemeral?: sources.EphemeralVolumeSource;
  image?: sources.ImageVolumeSource;
}

export const VOLUME = coreV1('Volume');
/** Go's embedded VolumeSource: never referenced by a schema, only by Volume's protobuf table. */
const VOLUME_SOURCE = coreV1('VolumeSource');
const DOWNWARD_API = coreV1('DownwardAPIVolumeSource');
const DOWNWARD_API_FILE = coreV1('DownwardAPIVolumeFile');
const DOWNWARD_API_PROJECTION = coreV1('DownwardAPIProjection');
const HOST_PATH = coreV1('HostPathVolumeSource');
const EMPTY_DIR = coreV1('EmptyDirVolumeSource');
const SECRET = coreV1('SecretVolumeSource');
const PVC = coreV1('PersistentVolumeClaimVolumeSource');
const CONFIG_MAP = coreV1('ConfigMapVolumeSource');
const PROJECTED = coreV1('ProjectedVolumeSource');
const PROJECTION = coreV1('VolumeProjection');
const CM_PROJECTION = coreV1('ConfigMapProjection');
const SECRET_PROJECTION = coreV1('SecretProjection');
const SA_TOKEN = coreV1('ServiceAccountTokenProjection');
const KEY_TO_PATH = coreV1('KeyToPath');

/** Go's 0644, the default file mode of configMap, secret and projected volumes. */
const defaultMode = (): ReturnType<typeof int32> => int32('File mode bits of the files.', { default: 420 });
const items = (): ReturnType<typeof atomicList> =>
  atomicList(ref(KEY_TO_PATH), 'Keys to project, with their paths.');
const downwardAPIFiles = (): ReturnType<typeof atomicList> =>
  atomicList(ref(DOWNWARD_API_FILE), 'Files of pod fields and container resources.');
/** The LocalObjectReference Go embeds: its own message (field 1) in protobuf, flat in JSON. */
const localObjectReference = { field: 1, inline: LOCAL_OBJECT_REFERENCE };

const sourceProperties = {
  awsElasticBlockStore: ref(coreV1('AWSElasticBlockStoreVolumeSource')),
  azureDisk: ref(coreV1('AzureDiskVolumeSource')),
  azureFile: ref(coreV1('AzureFileVolumeSource')),
  cephfs: ref(coreV1('CephFSVolumeSource')),
  cinder: ref(coreV1('CinderVolumeSource')),
  configMap: ref(CONFIG_MAP),
  csi: ref(coreV1('CSIVolumeSource')),
  downwardAPI: ref(DOWNWARD_API),
  emptyDir: ref(EMPTY_DIR),
  ephemeral: ref(coreV1('EphemeralVolumeSource')),
  fc: ref(coreV1('FCVolumeSource')),
  flexVolume: ref(coreV1('FlexVolumeSource')),
  flocker: ref(coreV1('FlockerVolumeSource')),
  gcePersistentDisk: ref(coreV1('GCEPersistentDiskVolumeSource')),
  gitRepo: ref(coreV1('GitRepoVolumeSource')),
  glusterfs: ref(coreV1('GlusterfsVolumeSource')),
  hostPath: ref(HOST_PATH),
  image: ref(coreV1('ImageVolumeSource')),
  iscsi: ref(coreV1('ISCSIVolumeSource')),
  nfs: ref(coreV1('NFSVolumeSource')),
  persistentVolumeClaim: ref(PVC),
  photonPersistentDisk: ref(coreV1('PhotonPersistentDiskVolumeSource')),
  portworxVolume: ref(coreV1('PortworxVolumeSource')),
  projected: ref(PROJECTED),
  quobyte: ref(coreV1('QuobyteVolumeSource')),
  rbd: ref(coreV1('RBDVolumeSource')),
  scaleIO: ref(coreV1('ScaleIOVolumeSource')),
  secret: ref(SECRET),
  storageos: ref(coreV1('StorageOSVolumeSource')),
  vsphereVolume: ref(coreV1('VsphereVirtualDiskVolumeSource')),
};

export const volumeModule: APIModule = {
  definitions: {
    [VOLUME]: struct(
      'A named volume of a pod.',
      { ...sourceProperties, name: str('Name of the volume, a DNS label unique in the pod.') },
      { required: ['name'] },
    ),
    [VOLUME_SOURCE]: struct('Where a volume comes from; only one source may be set.', sourceProperties),
    [DOWNWARD_API]: struct('Pod fields and container resources as files.', {
      defaultMode: defaultMode(),
      items: downwardAPIFiles(),
    }),
    [DOWNWARD_API_FILE]: struct(
      'A file holding a pod field or a container resource.',
      {
        fieldRef: ref(OBJECT_FIELD_SELECTOR, 'A field of the pod.'),
        mode: int32('File mode bits of the file.'),
        path: str('Relative path of the file.'),
        resourceFieldRef: ref(RESOURCE_FIELD_SELECTOR, 'A resource of a container.'),
      },
      { required: ['path'] },
    ),
    [DOWNWARD_API_PROJECTION]: struct('Projected pod fields and container resources.', {
      items: downwardAPIFiles(),
    }),
    [HOST_PATH]: struct(
      'A directory of the host.',
      { path: str(), type: str(undefined, { default: '' }) },
      { required: ['path'] },
    ),
    [EMPTY_DIR]: struct('A temporary directory.', { medium: str(), sizeLimit: ref(QUANTITY) }),
    [SECRET]: struct('A Secret as files.', {
      defaultMode: defaultMode(),
      items: items(),
      optional: bool(),
      secretName: str(),
    }),
    [PVC]: struct(
      'A PersistentVolumeClaim.',
      { claimName: str(), readOnly: bool() },
      { required: ['claimName'] },
    ),
    [CONFIG_MAP]: struct('A ConfigMap as files.', {
      defaultMode: defaultMode(),
      items: items(),
      name: str(),
      optional: bool(),
    }),
    [PROJECTED]: struct('Several sources in one directory.', {
      defaultMode: defaultMode(),
      sources: atomicList(ref(PROJECTION), 'The projected sources.'),
    }),
    [PROJECTION]: struct('One projected source.', {
      clusterTrustBundle: ref(coreV1('ClusterTrustBundleProjection')),
      configMap: ref(CM_PROJECTION),
      downwardAPI: ref(DOWNWARD_API_PROJECTION),
      secret: ref(SECRET_PROJECTION),
      serviceAccountToken: ref(SA_TOKEN),
    }),
    [CM_PROJECTION]: struct('A projected ConfigMap.', { items: items(), name: str(), optional: bool() }),
    [SECRET_PROJECTION]: struct('A projected Secret.', { items: items(), name: str(), optional: bool() }),
    [SA_TOKEN]: struct(
      'A projected service account token.',
      { audience: str(), expirationSeconds: int64(undefined, { default: 3600 }), path: str() },
      { required: ['path'] },
    ),
    [KEY_TO_PATH]: struct(
      'A key projected to a path.',
      { key: str(), mode: int32(), path: str() },
      { required: ['key', 'path'] },
    ),
  },
  protobuf: {
    [VOLUME]: { name: 1, VolumeSource: { field: 2, inline: VOLUME_SOURCE } },
    [VOLUME_SOURCE]: {
      hostPath: pointer(1),
      emptyDir: pointer(2),
      gcePersistentDisk: pointer(3),
      awsElasticBlockStore: pointer(4),
      gitRepo: pointer(5),
      secret: pointer(6),
      nfs: pointer(7),
      iscsi: pointer(8),
      glusterfs: pointer(9),
      persistentVolumeClaim: pointer(10),
      rbd: pointer(11),
      flexVolume: pointer(12),
      cinder: pointer(13),
      cephfs: pointer(14),
      flocker: pointer(15),
      downwardAPI: pointer(16),
      fc: pointer(17),
      azureFile: pointer(18),
      configMap: pointer(19),
      vsphereVolume: pointer(20),
      quobyte: pointer(21),
      azureDisk: pointer(22),
      photonPersistentDisk: pointer(23),
      projected: pointer(26),
      portworxVolume: pointer(24),
      scaleIO: pointer(25),
      storageos: pointer(27),
      csi: pointer(28),
      ephemeral: pointer(29),
      image: pointer(30),
    },
    [DOWNWARD_API]: { items: 1, defaultMode: pointer(2) },
    [DOWNWARD_API_FILE]: { path: 1, fieldRef: pointer(2), resourceFieldRef: pointer(3), mode: pointer(4) },
    [DOWNWARD_API_PROJECTION]: { items: 1 },
    [HOST_PATH]: { path: 1, type: pointer(2) },
    [EMPTY_DIR]: { medium: 1, sizeLimit: pointer(2) },
    [SECRET]: { secretName: 1, items: 2, defaultMode: pointer(3), optional: pointer(4) },
    [PVC]: { claimName: 1, readOnly: 2 },
    [CONFIG_MAP]: {
      LocalObjectReference: localObjectReference,
      items: 2,
      defaultMode: pointer(3),
      optional: pointer(4),
    },
    [PROJECTED]: { sources: 1, defaultMode: pointer(2) },
    [PROJECTION]: {
      secret: pointer(1),
      downwardAPI: pointer(2),
      configMap: pointer(3),
      serviceAccountToken: pointer(4),
      clusterTrustBundle: pointer(5),
    },
    [CM_PROJECTION]: { LocalObjectReference: localObjectReference, items: 2, optional: pointer(4) },
    [SECRET_PROJECTION]: { LocalObjectReference: localObjectReference, items: 2, optional: pointer(4) },
    [SA_TOKEN]: { audience: 1, expirationSeconds: pointer(2), path: 3 },
    [KEY_TO_PATH]: { key: 1, path: 2, mode: pointer(3) },
  },
};
