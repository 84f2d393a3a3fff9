// The core/v1 volume sources beyond volume.ts's everyday ones: the in-tree cloud and legacy plugins
// (deprecated or removed from the kubelet but still fields of k8s.io/api 1.33, so still accepted and
// stored), csi, ephemeral, image, and the clusterTrustBundle projection. Field numbers are the
// `protobuf` tags of k8s.io/api/core/v1 types.go; defaults are its `+default` markers.
import type { ObjectMeta } from '../../meta.js';
import type { LabelSelector } from '../../meta/v1/label-selector.js';
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
