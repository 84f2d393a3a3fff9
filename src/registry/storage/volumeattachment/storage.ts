// VolumeAttachment storage (pkg/registry/storage/volumeattachment/storage/storage.go):
// cluster-scoped `/volumeattachments` and its status subresource.
import type { VolumeAttachment, VolumeAttachmentList } from '../../../api/storage/v1/volume-attachment.js';
import { newStoreWithStatus } from '../../generic/resource-storage.js';
import type { StatusREST } from '../../generic/status-rest.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../../core/configmap/storage.js';
import {
  volumeAttachmentDeleteStrategy,
  volumeAttachmentStatusStrategy,
  volumeAttachmentStrategy,
} from './strategy.js';
import { volumeAttachmentTableConvertor } from './table.js';

export const volumeAttachmentResource = { group: 'storage.k8s.io', resource: 'volumeattachments' } as const;

export interface VolumeAttachmentStorage {
  readonly volumeAttachments: Store<VolumeAttachment>;
  readonly status: StatusREST<VolumeAttachment>;
}

export async function newVolumeAttachmentREST(opts: CoreStorageOptions): Promise<VolumeAttachmentStorage> {
  const { store, status } = await newStoreWithStatus<VolumeAttachment>(
    {
      qualifiedResource: volumeAttachmentResource,
      singularName: 'volumeattachment',
      newFunc: () => ({
        apiVersion: 'storage.k8s.io/v1',
        kind: 'VolumeAttachment',
        spec: { attacher: '', source: {}, nodeName: '' },
      }),
      newListFunc: () =>
        ({
          apiVersion: 'storage.k8s.io/v1',
          kind: 'VolumeAttachmentList',
          metadata: {},
          items: [],
        }) satisfies VolumeAttachmentList,
      createStrategy: volumeAttachmentStrategy,
      updateStrategy: volumeAttachmentStrategy,
      deleteStrategy: volumeAttachmentDeleteStrategy,
      tableConvertor: volumeAttachmentTableConvertor,
      trackGeneration: false,
    },
    opts,
    { statusStrategy: volumeAttachmentStatusStrategy },
  );
  return { volumeAttachments: store, status };
}
