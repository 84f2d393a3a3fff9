// meta/v1 definitions. Meta kinds that every group/version carries (WatchEvent, DeleteOptions)
// are added per group/version by Scheme.addMetaToGroupVersion.
import type { APIModule } from '../../schema/api-module.js';
import { deleteOptionsModule } from './delete-options.js';
import { discoveryModule } from './discovery.js';
import { metaV1GoOmitEmptyModule } from './go-omit-empty.js';
import { labelSelectorModule } from './label-selector.js';
import { listMetaModule } from './list-meta.js';
import { objectMetaModule } from './object-meta.js';
import { partialObjectMetadataModule } from './partial-object-metadata.js';
import { statusModule } from './status.js';
import { tableModule } from './table-schema.js';
import { watchEventModule } from './watch-event.js';

export const metaV1Modules: readonly APIModule[] = [
  objectMetaModule,
  listMetaModule,
  statusModule,
  deleteOptionsModule,
  labelSelectorModule,
  tableModule,
  partialObjectMetadataModule,
  discoveryModule,
  watchEventModule,
  metaV1GoOmitEmptyModule,
];
