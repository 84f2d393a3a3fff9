// meta/v1 ListMeta (interface in src/api/meta.ts).
import type { APIModule } from '../../schema/api-module.js';
import { metaV1 } from '../../schema/api-module.js';
import { int64, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';

export const LIST_META = metaV1('ListMeta');

export const listMetaModule: APIModule = {
  definitions: {
    [LIST_META]: struct('Metadata of a list response.', {
      continue: str('Token for the next chunk of a paged list; empty on the last chunk.'),
      remainingItemCount: int64('How many items follow this chunk, when the server can tell.'),
      resourceVersion: str('Version of the list, usable as a starting point for a watch; read-only.'),
      selfLink: str('Deprecated and unset.'),
    }),
  },
  protobuf: {
    [LIST_META]: { selfLink: 1, resourceVersion: 2, continue: 3, remainingItemCount: pointer(4) },
  },
};
