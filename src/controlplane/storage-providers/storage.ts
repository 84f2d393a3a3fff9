// storage.k8s.io (pkg/registry/storage/rest/storage_storage.go): v1 storageclasses,
// volumeattachments(+status), csinodes, csidrivers and csistoragecapacities.
import { newCSIDriverREST } from '../../registry/storage/csidriver/storage.js';
import { newCSINodeREST } from '../../registry/storage/csinode/storage.js';
import { newCSIStorageCapacityREST } from '../../registry/storage/csistoragecapacity/storage.js';
import { newStorageClassREST } from '../../registry/storage/storageclass/storage.js';
import { newVolumeAttachmentREST } from '../../registry/storage/volumeattachment/storage.js';
import { groupStorageProvider } from './provider.js';

export const storageStorageProvider = groupStorageProvider('storage.k8s.io', () => ({
  group: 'storage.k8s.io',
  versions: [
    {
      version: 'v1',
      resources: {
        storageclasses: async (opts) => ({ storageclasses: await newStorageClassREST(opts) }),
        volumeattachments: async (opts) => {
          const va = await newVolumeAttachmentREST(opts);
          return { volumeattachments: va.volumeAttachments, 'volumeattachments/status': va.status };
        },
        csinodes: async (opts) => ({ csinodes: await newCSINodeREST(opts) }),
        csidrivers: async (opts) => ({ csidrivers: await newCSIDriverREST(opts) }),
        csistoragecapacities: async (opts) => ({
          csistoragecapacities: await newCSIStorageCapacityREST(opts),
        }),
      },
    },
  ],
}));
