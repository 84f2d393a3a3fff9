// storage.k8s.io/v1 kinds.
import type { APIModule } from '../../schema/api-module.js';
import { csiDriverModule } from './csi-driver.js';
import { csiNodeModule } from './csi-node.js';
import { csiStorageCapacityModule } from './csi-storage-capacity.js';
import { storageClassModule } from './storage-class.js';
import { volumeAttachmentModule } from './volume-attachment.js';

export const storageV1Modules: readonly APIModule[] = [
  storageClassModule,
  csiDriverModule,
  csiNodeModule,
  volumeAttachmentModule,
  csiStorageCapacityModule,
];
