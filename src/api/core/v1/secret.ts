// core/v1 Secret(+List).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1, coreV1Kind } from '../../schema/api-module.js';
import { arrayOf, bool, bytes, mapOf, ref, str, stringMap, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';

export interface Secret extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Secret';
  metadata?: ObjectMeta;
  /** Values are base64 on the wire. */
  data?: Record<string, string>;
  /** Write-only convenience: merged into data on write, never returned. */
  stringData?: Record<string, string>;
  type?: string;
  immutable?: boolean;
}

export interface SecretList extends KubeObject {
  metadata?: ListMeta;
  items: Secret[];
}

export const secretKind = coreV1Kind('Secret');
export const secretListKind = coreV1Kind('SecretList');

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const secretModule: APIModule = {
  definitions: {
    [coreV1('Secret')]: struct('Sensitive data such as passwords, tokens or keys.', {
      apiVersion,
      data: mapOf(bytes(), 'The secret values, base64 encoded on the wire.'),
      immutable: bool('When true, data can no longer change; the object can only be deleted.'),
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      stringData: stringMap('Plain-text values merged into data on write; never returned on read.'),
      // kube's SetDefaults_Secret fills this in on every decode.
      type: str('How the data is meant to be used, e.g. kubernetes.io/tls.', { default: 'Opaque' }),
    }),
    [coreV1('SecretList')]: struct(
      'A list of Secrets.',
      {
        apiVersion,
        items: arrayOf(ref(coreV1('Secret'), undefined, { default: {} }), 'The Secrets.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [secretKind, secretListKind],
  goTypes: { [coreV1('Secret')]: { type: 'v1.SecretType' } },
  protobuf: {
    [coreV1('Secret')]: { metadata: 1, immutable: pointer(5), data: 2, stringData: 4, type: 3 },
    [coreV1('SecretList')]: { metadata: 1, items: 2 },
  },
};
