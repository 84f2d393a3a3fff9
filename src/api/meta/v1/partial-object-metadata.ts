// meta.k8s.io/v1 PartialObjectMetadata(+List): objects reduced to their metadata.
import type { KubeObject, ListMeta, ObjectMeta, TypeMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { metaV1 } from '../../schema/api-module.js';
import { arrayOf, ref, str, struct } from '../../schema/builders.js';
import { LIST_META } from './list-meta.js';
import { OBJECT_META } from './object-meta.js';

export const PARTIAL_OBJECT_METADATA = metaV1('PartialObjectMetadata');
export const PARTIAL_OBJECT_METADATA_LIST = metaV1('PartialObjectMetadataList');

export interface PartialObjectMetadata extends KubeObject {
  apiVersion: 'meta.k8s.io/v1';
  kind: 'PartialObjectMetadata';
  metadata: ObjectMeta;
}

export interface PartialObjectMetadataList extends TypeMeta {
  apiVersion: 'meta.k8s.io/v1';
  kind: 'PartialObjectMetadataList';
  metadata: ListMeta;
  items: PartialObjectMetadata[];
}

export const partialObjectMetadataModule: APIModule = {
  definitions: {
    [PARTIAL_OBJECT_METADATA]: struct('An object with only its metadata.', {
      apiVersion: str('Versioned schema of this representation.'),
      kind: str('REST resource this object represents.'),
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
    }),
    [PARTIAL_OBJECT_METADATA_LIST]: struct(
      'A list of objects with only their metadata.',
      {
        apiVersion: str('Versioned schema of this representation.'),
        items: arrayOf(ref(PARTIAL_OBJECT_METADATA), 'The objects.'),
        kind: str('REST resource this object represents.'),
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [
    {
      group: 'meta.k8s.io',
      version: 'v1',
      kind: 'PartialObjectMetadata',
      definition: PARTIAL_OBJECT_METADATA,
    },
    {
      group: 'meta.k8s.io',
      version: 'v1',
      kind: 'PartialObjectMetadataList',
      definition: PARTIAL_OBJECT_METADATA_LIST,
    },
  ],
  protobuf: {
    [PARTIAL_OBJECT_METADATA]: { metadata: 1 },
    [PARTIAL_OBJECT_METADATA_LIST]: { metadata: 1, items: 2 },
  },
};
