// Generated from k8s.io/api storage/v1 types.go as of kube 1.33: the members of each struct whose Go field
// is tagged omitempty and can be empty (go-omit-empty.ts says what each class drops). A
// definition listed without members has none; struct-typed members are never dropped, so not listed.
import type { APIModule } from '../../schema/api-module.js';
import type { GoOmitEmptyTables } from '../../schema/go-omit-empty.js';

const def = (name: string): string => `io.k8s.api.storage.v1.${name}`;

const tables: GoOmitEmptyTables = {
  [def('CSIDriver')]: {},
  [def('CSIDriverList')]: {},
  [def('CSIDriverSpec')]: {
    attachRequired: 'nil',
    podInfoOnMount: 'nil',
    volumeLifecycleModes: 'empty',
    storageCapacity: 'nil',
    fsGroupPolicy: 'nil',
    tokenRequests: 'empty',
    requiresRepublish: 'nil',
    seLinuxMount: 'nil',
    nodeAllocatableUpdatePeriodSeconds: 'nil',
  },
  [def('CSINode')]: {},
  [def('CSINodeDriver')]: { allocatable: 'nil' },
  [def('CSINodeList')]: {},
  [def('CSINodeSpec')]: {},
  [def('CSIStorageCapacity')]: { nodeTopology: 'nil', capacity: 'nil', maximumVolumeSize: 'nil' },
  [def('CSIStorageCapacityList')]: {},
  [def('StorageClass')]: {
    parameters: 'empty',
    reclaimPolicy: 'nil',
    mountOptions: 'empty',
    allowVolumeExpansion: 'nil',
    volumeBindingMode: 'nil',
    allowedTopologies: 'empty',
  },
  [def('StorageClassList')]: {},
  [def('TokenRequest')]: { expirationSeconds: 'nil' },
  [def('VolumeAttachment')]: {},
  [def('VolumeAttachmentList')]: {},
  [def('VolumeAttachmentSource')]: { persistentVolumeName: 'nil', inlineVolumeSpec: 'nil' },
  [def('VolumeAttachmentSpec')]: {},
  [def('VolumeAttachmentStatus')]: { attachmentMetadata: 'empty', attachError: 'nil', detachError: 'nil' },
  [def('VolumeError')]: { message: 'zero', errorCode: 'nil' },
  [def('VolumeNodeResources')]: { count: 'nil' },
};

export const storageV1GoOmitEmptyModule: APIModule = { definitions: {}, goOmitEmpty: tables };
