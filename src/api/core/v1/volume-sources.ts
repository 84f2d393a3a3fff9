// The core/v1 volume sources beyond volume.ts's everyday ones: the in-tree cloud and legacy plugins
// (deprecated or removed from the kubelet but still fields of k8s.io/api 1.33, so still accepted and
// stored), csi, ephemeral, image, and the clusterTrustBundle projection. Field numbers are the
// `protobuf` tags of k8s.io/api/core/v1 types.go; defaults are its `+default` markers.
import type { ObjectMeta } from '../../meta.js';
import type { LabelSelector } from '../../meta/v1/label-selector.js';
import { LABEL_SELECTOR } from '../../meta/v1/label-selector.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1 } from '../../schema/api-module.js';
import { pointer } from '../../schema/protobuf.js';
import { atomicList, bool, int32, ref, str, stringMap, struct } from '../../schema/builders.js';
import type { PersistentVolumeClaimSpec } from './persistent-volume-claim.js';
import type { ObjectReference } from './object-reference.js';
import type { SecretReference } from './persistent-volume.js';

interface LocalObjectReference {
  name?: string;
}

export interface GCEPersistentDiskVolumeSource {
  pdName?: string;
  fsType?: string;
  partition?: number;
  readOnly?: boolean;
}

export interface AWSElasticBlockStoreVolumeSource {
  volumeID?: string;
  fsType?: string;
  partition?: number;
  readOnly?: boolean;
}

export interface GitRepoVolumeSource {
  repository?: string;
  revision?: string;
  directory?: string;
}

export interface ISCSIVolumeSource {
  targetPortal?: string;
  iqn?: string;
  lun?: number;
  iscsiInterface?: string;
  fsType?: string;
  readOnly?: boolean;
  portals?: string[];
  chapAuthDiscovery?: boolean;
  chapAuthSession?: boolean;
  secretRef?: LocalObjectReference;
  initiatorName?: string;
}

export interface ISCSIPersistentVolumeSource {
  targetPortal?: string;
  iqn?: string;
  lun?: number;
  iscsiInterface?: string;
  fsType?: string;
  readOnly?: boolean;
  portals?: string[];
  chapAuthDiscovery?: boolean;
  chapAuthSession?: boolean;
  secretRef?: SecretReference;
  initiatorName?: string;
}

export interface GlusterfsVolumeSource {
  endpoints?: string;
  path?: string;
  readOnly?: boolean;
}

export interface GlusterfsPersistentVolumeSource {
  endpoints?: string;
  path?: string;
  readOnly?: boolean;
  endpointsNamespace?: string;
}

export interface RBDVolumeSource {
  monitors?: string[];
  image?: string;
  fsType?: string;
  pool?: string;
  user?: string;
  keyring?: string;
  secretRef?: LocalObjectReference;
  readOnly?: boolean;
}

export interface RBDPersistentVolumeSource {
  monitors?: string[];
  image?: string;
  fsType?: string;
  pool?: string;
  user?: string;
  keyring?: string;
  secretRef?: SecretReference;
  readOnly?: boolean;
}

export interface FlexVolumeSource {
  driver?: string;
  fsType?: string;
  secretRef?: LocalObjectReference;
  readOnly?: boolean;
  options?: Record<string, string>;
}

export interface FlexPersistentVolumeSource {
  driver?: string;
  fsType?: string;
  secretRef?: SecretReference;
  readOnly?: boolean;
  options?: Record<string, string>;
}

export interface CinderVolumeSource {
  volumeID?: string;
  fsType?: string;
  readOnly?: boolean;
  secretRef?: LocalObjectReference;
}

export interface CinderPersistentVolumeSource {
  volumeID?: string;
  fsType?: string;
  readOnly?: boolean;
  secretRef?: SecretReference;
}

export interface CephFSVolumeSource {
  monitors?: string[];
  path?: string;
  user?: string;
  secretFile?: string;
  secretRef?: LocalObjectReference;
  readOnly?: boolean;
}

export interface CephFSPersistentVolumeSource {
  monitors?: string[];
  path?: string;
  user?: string;
  secretFile?: string;
  secretRef?: SecretReference;
  readOnly?: boolean;
}

export interface FlockerVolumeSource {
  datasetName?: string;
  datasetUUID?: string;
}

export interface FCVolumeSource {
  targetWWNs?: string[];
  lun?: number;
  fsType?: string;
  readOnly?: boolean;
  wwids?: string[];
}

export interface AzureFileVolumeSource {
  secretName?: string;
  shareName?: string;
  readOnly?: boolean;
}

export interface AzureFilePersistentVolumeSource {
  secretName?: string;
  shareName?: string;
  readOnly?: boolean;
  secretNamespace?: string;
}

export interface VsphereVirtualDiskVolumeSource {
  volumePath?: string;
  fsType?: string;
  storagePolicyName?: string;
  storagePolicyID?: string;
}

export interface QuobyteVolumeSource {
  registry?: string;
  volume?: string;
  readOnly?: boolean;
  user?: string;
  group?: string;
  tenant?: string;
}

export interface AzureDiskVolumeSource {
  diskName?: string;
  diskURI?: string;
  cachingMode?: string;
  fsType?: string;
  readOnly?: boolean;
  kind?: string;
}

export interface PhotonPersistentDiskVolumeSource {
  pdID?: string;
  fsType?: string;
}

export interface PortworxVolumeSource {
  volumeID?: string;
  fsType?: string;
  readOnly?: boolean;
}

export interface ScaleIOVolumeSource {
  gateway?: string;
  system?: string;
  secretRef?: LocalObjectReference;
  sslEnabled?: boolean;
  protectionDomain?: string;
  storagePool?: string;
  storageMode?: string;
  volumeName?: string;
  fsType?: string;
  readOnly?: boolean;
}

export interface ScaleIOPersistentVolumeSource {
  gateway?: string;
  system?: string;
  secretRef?: SecretReference;
  sslEnabled?: boolean;
  protectionDomain?: string;
  storagePool?: string;
  storageMode?: string;
  volumeName?: string;
  fsType?: string;
  readOnly?: boolean;
}

export interface StorageOSVolumeSource {
  volumeName?: string;
  volumeNamespace?: string;
  fsType?: string;
  readOnly?: boolean;
  secretRef?: LocalObjectReference;
}

export interface StorageOSPersistentVolumeSource {
  volumeName?: string;
  volumeNamespace?: string;
  fsType?: string;
  readOnly?: boolean;
  secretRef?: ObjectReference;
}

export interface CSIVolumeSource {
  driver?: string;
  readOnly?: boolean;
  fsType?: string;
  volumeAttributes?: Record<string, string>;
  nodePublishSecretRef?: LocalObjectReference;
}

export interface EphemeralVolumeSource {
  volumeClaimTemplate?: PersistentVolumeClaimTemplate;
}

export interface PersistentVolumeClaimTemplate {
  metadata?: ObjectMeta;
  spec?: PersistentVolumeClaimSpec;
}

export interface ImageVolumeSource {
  reference?: string;
  pullPolicy?: string;
}

export interface ClusterTrustBundleProjection {
  name?: string;
  signerName?: string;
  labelSelector?: LabelSelector;
  optional?: boolean;
  path?: string;
}

export const volumeSourcesModule: APIModule = {
  definitions: {
    [coreV1('GCEPersistentDiskVolumeSource')]: struct(
      'A GCE persistent disk (deprecated in-tree plugin).',
      { fsType: str(), partition: int32(), pdName: str(), readOnly: bool() },
      { required: ['pdName'] },
    ),
    [coreV1('AWSElasticBlockStoreVolumeSource')]: struct(
      'An AWS EBS disk (deprecated in-tree plugin).',
      { fsType: str(), partition: int32(), readOnly: bool(), volumeID: str() },
      { required: ['volumeID'] },
    ),
    [coreV1('GitRepoVolumeSource')]: struct(
      'A git repository cloned into a directory (deprecated).',
      { directory: str(), repository: str(), revision: str() },
      { required: ['repository'] },
    ),
    [coreV1('ISCSIVolumeSource')]: struct(
      'An iSCSI disk.',
      {
        chapAuthDiscovery: bool(),
        chapAuthSession: bool(),
        fsType: str(),
        initiatorName: str(),
        iqn: str(),
        iscsiInterface: str(undefined, { default: 'default' }),
        lun: int32(),
        portals: atomicList({ type: 'string' }),
        readOnly: bool(),
        secretRef: ref(coreV1('LocalObjectReference')),
        targetPortal: str(),
      },
      { required: ['targetPortal', 'iqn', 'lun'] },
    ),
    [coreV1('ISCSIPersistentVolumeSource')]: struct(
      'An iSCSI disk of a persistent volume.',
      {
        chapAuthDiscovery: bool(),
        chapAuthSession: bool(),
        fsType: str(),
        initiatorName: str(),
        iqn: str(),
        iscsiInterface: str(undefined, { default: 'default' }),
        lun: int32(),
        portals: atomicList({ type: 'string' }),
        readOnly: bool(),
        secretRef: ref(coreV1('SecretReference')),
        targetPortal: str(),
      },
      { required: ['targetPortal', 'iqn', 'lun'] },
    ),
    [coreV1('GlusterfsVolumeSource')]: struct(
      'A Glusterfs mount (in-tree plugin removed).',
      { endpoints: str(), path: str(), readOnly: bool() },
      { required: ['endpoints', 'path'] },
    ),
    [coreV1('GlusterfsPersistentVolumeSource')]: struct(
      'A Glusterfs mount of a persistent volume.',
      { endpoints: str(), endpointsNamespace: str(), path: str(), readOnly: bool() },
      { required: ['endpoints', 'path'] },
    ),
    [coreV1('RBDVolumeSource')]: struct(
      'A Rados block device (deprecated).',
      {
        fsType: str(),
        image: str(),
        keyring: str(undefined, { default: '/etc/ceph/keyring' }),
        monitors: atomicList({ type: 'string' }),
        pool: str(undefined, { default: 'rbd' }),
        readOnly: bool(),
        secretRef: ref(coreV1('LocalObjectReference')),
        user: str(undefined, { default: 'admin' }),
      },
      { required: ['monitors', 'image'] },
    ),
    [coreV1('RBDPersistentVolumeSource')]: struct(
      'A Rados block device of a persistent volume.',
      {
        fsType: str(),
        image: str(),
        keyring: str(undefined, { default: '/etc/ceph/keyring' }),
        monitors: atomicList({ type: 'string' }),
        pool: str(undefined, { default: 'rbd' }),
        readOnly: bool(),
        secretRef: ref(coreV1('SecretReference')),
        user: str(undefined, { default: 'admin' }),
      },
      { required: ['monitors', 'image'] },
    ),
    [coreV1('FlexVolumeSource')]: struct(
      'A volume mounted by an exec-based FlexVolume driver (deprecated).',
      {
        driver: str(),
        fsType: str(),
        options: stringMap(),
        readOnly: bool(),
        secretRef: ref(coreV1('LocalObjectReference')),
      },
      { required: ['driver'] },
    ),
    [coreV1('FlexPersistentVolumeSource')]: struct(
      'A FlexVolume of a persistent volume.',
      {
        driver: str(),
        fsType: str(),
        options: stringMap(),
        readOnly: bool(),
        secretRef: ref(coreV1('SecretReference')),
      },
      { required: ['driver'] },
    ),
    [coreV1('CinderVolumeSource')]: struct(
      'An OpenStack Cinder volume (deprecated in-tree plugin).',
      { fsType: str(), readOnly: bool(), secretRef: ref(coreV1('LocalObjectReference')), volumeID: str() },
      { required: ['volumeID'] },
    ),
    [coreV1('CinderPersistentVolumeSource')]: struct(
      'An OpenStack Cinder volume of a persistent volume.',
      { fsType: str(), readOnly: bool(), secretRef: ref(coreV1('SecretReference')), volumeID: str() },
      { required: ['volumeID'] },
    ),
    [coreV1('CephFSVolumeSource')]: struct(
      'A Ceph filesystem mount (deprecated).',
      {
        monitors: atomicList({ type: 'string' }),
        path: str(),
        readOnly: bool(),
        secretFile: str(),
        secretRef: ref(coreV1('LocalObjectReference')),
        user: str(),
      },
      { required: ['monitors'] },
    ),
    [coreV1('CephFSPersistentVolumeSource')]: struct(
      'A Ceph filesystem mount of a persistent volume.',
      {
        monitors: atomicList({ type: 'string' }),
        path: str(),
        readOnly: bool(),
        secretFile: str(),
        secretRef: ref(coreV1('SecretReference')),
        user: str(),
      },
      { required: ['monitors'] },
    ),
    [coreV1('FlockerVolumeSource')]: struct('A Flocker dataset (deprecated).', {
      datasetName: str(),
      datasetUUID: str(),
    }),
    [coreV1('FCVolumeSource')]: struct('A Fibre Channel disk.', {
      fsType: str(),
      lun: int32(),
      readOnly: bool(),
      targetWWNs: atomicList({ type: 'string' }),
      wwids: atomicList({ type: 'string' }),
    }),
    [coreV1('AzureFileVolumeSource')]: struct(
      'An Azure File share (deprecated in-tree plugin).',
      { readOnly: bool(), secretName: str(), shareName: str() },
      { required: ['secretName', 'shareName'] },
    ),
    [coreV1('AzureFilePersistentVolumeSource')]: struct(
      'An Azure File share of a persistent volume.',
      { readOnly: bool(), secretName: str(), secretNamespace: str(), shareName: str() },
      { required: ['secretName', 'shareName'] },
    ),
    [coreV1('VsphereVirtualDiskVolumeSource')]: struct(
      'A vSphere disk (deprecated in-tree plugin).',
      { fsType: str(), storagePolicyID: str(), storagePolicyName: str(), volumePath: str() },
      { required: ['volumePath'] },
    ),
    [coreV1('QuobyteVolumeSource')]: struct(
      'A Quobyte mount (deprecated).',
      { group: str(), readOnly: bool(), registry: str(), tenant: str(), user: str(), volume: str() },
      { required: ['registry', 'volume'] },
    ),
    [coreV1('AzureDiskVolumeSource')]: struct(
      'An Azure data disk (deprecated in-tree plugin).',
      {
        cachingMode: str(undefined, { default: 'ReadWrite' }),
        diskName: str(),
        diskURI: str(),
        fsType: str(undefined, { default: 'ext4' }),
        kind: str(undefined, { default: 'Shared' }),
        readOnly: { type: 'boolean', default: false },
      },
      { required: ['diskName', 'diskURI'] },
    ),
    [coreV1('PhotonPersistentDiskVolumeSource')]: struct(
      'A Photon Controller persistent disk (deprecated).',
      { fsType: str(), pdID: str() },
      { required: ['pdID'] },
    ),
    [coreV1('PortworxVolumeSource')]: struct(
      'A Portworx volume (deprecated in-tree plugin).',
      { fsType: str(), readOnly: bool(), volumeID: str() },
      { required: ['volumeID'] },
    ),
    [coreV1('ScaleIOVolumeSource')]: struct(
      'A ScaleIO volume (deprecated).',
      {
        fsType: str(undefined, { default: 'xfs' }),
        gateway: str(),
        protectionDomain: str(),
        readOnly: bool(),
        secretRef: ref(coreV1('LocalObjectReference')),
        sslEnabled: bool(),
        storageMode: str(undefined, { default: 'ThinProvisioned' }),
        storagePool: str(),
        system: str(),
        volumeName: str(),
      },
      { required: ['gateway', 'system', 'secretRef'] },
    ),
    [coreV1('ScaleIOPersistentVolumeSource')]: struct(
      'A ScaleIO volume of a persistent volume.',
      {
        fsType: str(undefined, { default: 'xfs' }),
        gateway: str(),
        protectionDomain: str(),
        readOnly: bool(),
        secretRef: ref(coreV1('SecretReference')),
        sslEnabled: bool(),
        storageMode: str(undefined, { default: 'ThinProvisioned' }),
        storagePool: str(),
        system: str(),
        volumeName: str(),
      },
      { required: ['gateway', 'system', 'secretRef'] },
    ),
    [coreV1('StorageOSVolumeSource')]: struct('A StorageOS volume (deprecated).', {
      fsType: str(),
      readOnly: bool(),
      secretRef: ref(coreV1('LocalObjectReference')),
      volumeName: str(),
      volumeNamespace: str(),
    }),
    [coreV1('StorageOSPersistentVolumeSource')]: struct('A StorageOS volume of a persistent volume.', {
      fsType: str(),
      readOnly: bool(),
      secretRef: ref(coreV1('ObjectReference')),
      volumeName: str(),
      volumeNamespace: str(),
    }),
    [coreV1('CSIVolumeSource')]: struct(
      'An inline volume served by a CSI driver.',
      {
        driver: str(),
        fsType: str(),
        nodePublishSecretRef: ref(coreV1('LocalObjectReference')),
        readOnly: bool(),
        volumeAttributes: stringMap(),
      },
      { required: ['driver'] },
    ),
    [coreV1('EphemeralVolumeSource')]: struct(
      'A volume whose claim is created with the pod and deleted with it.',
      { volumeClaimTemplate: ref(coreV1('PersistentVolumeClaimTemplate')) },
    ),
    [coreV1('PersistentVolumeClaimTemplate')]: struct(
      'The claim an ephemeral volume creates.',
      { metadata: ref(OBJECT_META), spec: ref(coreV1('PersistentVolumeClaimSpec')) },
      { required: ['spec'] },
    ),
    [coreV1('ImageVolumeSource')]: struct('An OCI image or artifact mounted as a volume.', {
      pullPolicy: str(),
      reference: str(),
    }),
    [coreV1('ClusterTrustBundleProjection')]: struct(
      'ClusterTrustBundle objects projected into a file.',
      { labelSelector: ref(LABEL_SELECTOR), name: str(), optional: bool(), path: str(), signerName: str() },
      { required: ['path'] },
    ),
  },
  protobuf: {
    [coreV1('GCEPersistentDiskVolumeSource')]: { pdName: 1, fsType: 2, partition: 3, readOnly: 4 },
    [coreV1('AWSElasticBlockStoreVolumeSource')]: { volumeID: 1, fsType: 2, partition: 3, readOnly: 4 },
    [coreV1('GitRepoVolumeSource')]: { repository: 1, revision: 2, directory: 3 },
    [coreV1('ISCSIVolumeSource')]: {
      targetPortal: 1,
      iqn: 2,
      lun: 3,
      iscsiInterface: 4,
      fsType: 5,
      readOnly: 6,
      portals: 7,
      chapAuthDiscovery: 8,
      chapAuthSession: 11,
      secretRef: pointer(10),
      initiatorName: pointer(12),
    },
    [coreV1('ISCSIPersistentVolumeSource')]: {
      targetPortal: 1,
      iqn: 2,
      lun: 3,
      iscsiInterface: 4,
      fsType: 5,
      readOnly: 6,
      portals: 7,
      chapAuthDiscovery: 8,
      chapAuthSession: 11,
      secretRef: pointer(10),
      initiatorName: pointer(12),
    },
    [coreV1('GlusterfsVolumeSource')]: { endpoints: 1, path: 2, readOnly: 3 },
    [coreV1('GlusterfsPersistentVolumeSource')]: {
      endpoints: 1,
      path: 2,
      readOnly: 3,
      endpointsNamespace: pointer(4),
    },
    [coreV1('RBDVolumeSource')]: {
      monitors: 1,
      image: 2,
      fsType: 3,
      pool: 4,
      user: 5,
      keyring: 6,
      secretRef: pointer(7),
      readOnly: 8,
    },
    [coreV1('RBDPersistentVolumeSource')]: {
      monitors: 1,
      image: 2,
      fsType: 3,
      pool: 4,
      user: 5,
      keyring: 6,
      secretRef: pointer(7),
      readOnly: 8,
    },
    [coreV1('FlexVolumeSource')]: { driver: 1, fsType: 2, secretRef: pointer(3), readOnly: 4, options: 5 },
    [coreV1('FlexPersistentVolumeSource')]: {
      driver: 1,
      fsType: 2,
      secretRef: pointer(3),
      readOnly: 4,
      options: 5,
    },
    [coreV1('CinderVolumeSource')]: { volumeID: 1, fsType: 2, readOnly: 3, secretRef: pointer(4) },
    [coreV1('CinderPersistentVolumeSource')]: { volumeID: 1, fsType: 2, readOnly: 3, secretRef: pointer(4) },
    [coreV1('CephFSVolumeSource')]: {
      monitors: 1,
      path: 2,
      user: 3,
      secretFile: 4,
      secretRef: pointer(5),
      readOnly: 6,
    },
    [coreV1('CephFSPersistentVolumeSource')]: {
      monitors: 1,
      path: 2,
      user: 3,
      secretFile: 4,
      secretRef: pointer(5),
      readOnly: 6,
    },
    [coreV1('FlockerVolumeSource')]: { datasetName: 1, datasetUUID: 2 },
    [coreV1('FCVolumeSource')]: { targetWWNs: 1, lun: pointer(2), fsType: 3, readOnly: 4, wwids: 5 },
    [coreV1('AzureFileVolumeSource')]: { secretName: 1, shareName: 2, readOnly: 3 },
    [coreV1('AzureFilePersistentVolumeSource')]: {
      secretName: 1,
      shareName: 2,
      readOnly: 3,
      secretNamespace: pointer(4),
    },
    [coreV1('VsphereVirtualDiskVolumeSource')]: {
      volumePath: 1,
      fsType: 2,
      storagePolicyName: 3,
      storagePolicyID: 4,
    },
    [coreV1('QuobyteVolumeSource')]: { registry: 1, volume: 2, readOnly: 3, user: 4, group: 5, tenant: 6 },
    [coreV1('AzureDiskVolumeSource')]: {
      diskName: 1,
      diskURI: 2,
      cachingMode: pointer(3),
      fsType: pointer(4),
      readOnly: pointer(5),
      kind: pointer(6),
    },
    [coreV1('PhotonPersistentDiskVolumeSource')]: { pdID: 1, fsType: 2 },
    [coreV1('PortworxVolumeSource')]: { volumeID: 1, fsType: 2, readOnly: 3 },
    [coreV1('ScaleIOVolumeSource')]: {
      gateway: 1,
      system: 2,
      secretRef: pointer(3),
      sslEnabled: 4,
      protectionDomain: 5,
      storagePool: 6,
      storageMode: 7,
      volumeName: 8,
      fsType: 9,
      readOnly: 10,
    },
    [coreV1('ScaleIOPersistentVolumeSource')]: {
      gateway: 1,
      system: 2,
      secretRef: pointer(3),
      sslEnabled: 4,
      protectionDomain: 5,
      storagePool: 6,
      storageMode: 7,
      volumeName: 8,
      fsType: 9,
      readOnly: 10,
    },
    [coreV1('StorageOSVolumeSource')]: {
      volumeName: 1,
      volumeNamespace: 2,
      fsType: 3,
      readOnly: 4,
      secretRef: pointer(5),
    },
    [coreV1('StorageOSPersistentVolumeSource')]: {
      volumeName: 1,
      volumeNamespace: 2,
      fsType: 3,
      readOnly: 4,
      secretRef: pointer(5),
    },
    [coreV1('CSIVolumeSource')]: {
      driver: 1,
      readOnly: pointer(2),
      fsType: pointer(3),
      volumeAttributes: 4,
      nodePublishSecretRef: pointer(5),
    },
    [coreV1('EphemeralVolumeSource')]: { volumeClaimTemplate: pointer(1) },
    [coreV1('PersistentVolumeClaimTemplate')]: { metadata: 1, spec: 2 },
    [coreV1('ImageVolumeSource')]: { reference: 1, pullPolicy: 2 },
    [coreV1('ClusterTrustBundleProjection')]: {
      name: pointer(1),
      signerName: pointer(2),
      labelSelector: pointer(3),
      optional: pointer(5),
      path: 4,
    },
  },
};
