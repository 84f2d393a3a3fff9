// core/v1 ConfigMap(+List).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1, coreV1Kind } from '../../schema/api-module.js';
import { arrayOf, bool, bytes, mapOf, ref, str, stringMap, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';

export interface ConfigMap extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'ConfigMap';
  metadata?: ObjectMeta;
  data?: Record<string, string>;
  /** Values are base64 on the wire. */
  binaryData?: Record<string, string>;
  immutable?: boolean;
}

export interface ConfigMapList extends KubeObject {
  metadata?: ListMeta;
  items: ConfigMap[];
}

export const configMapKind = coreV1Kind('ConfigMap');
export const configMapListKind = coreV1Kind('ConfigMapList');

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const configMapModule: APIModule = {
  definitions: {
    [coreV1('ConfigMap')]: struct('Configuration data for pods to consume, as keys and values.', {
      apiVersion,
      binaryData: mapOf(bytes(), 'Keys with binary values; keys may not also appear in data.'),
      data: stringMap('Keys with UTF-8 values; keys may not also appear in binaryData.'),
      immutable: bool('When true, data and binaryData can no longer change; the object can only be deleted.'),
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
    }),
    [coreV1('ConfigMapList')]: struct(
      'A list of ConfigMaps.',
      {
        apiVersion,
        items: arrayOf(ref(coreV1('ConfigMap'), undefined, { default: {} }), 'The ConfigMaps.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [configMapKind, configMapListKind],
  protobuf: {
    [coreV1('ConfigMap')]: { metadata: 1, immutable: pointer(4), data: 2, binaryData: 3 },
    [coreV1('ConfigMapList')]: { metadata: 1, items: 2 },
  },
};
