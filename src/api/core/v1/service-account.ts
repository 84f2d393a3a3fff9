// core/v1 ServiceAccount(+List).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1, coreV1Kind } from '../../schema/api-module.js';
import { arrayOf, atomicList, bool, mapList, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';
import {
  LOCAL_OBJECT_REFERENCE,
  OBJECT_REFERENCE,
  type LocalObjectReference,
  type ObjectReference,
} from './object-reference.js';

export interface ServiceAccount extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'ServiceAccount';
  metadata?: ObjectMeta;
  secrets?: ObjectReference[];
  imagePullSecrets?: LocalObjectReference[];
  automountServiceAccountToken?: boolean;
}

export interface ServiceAccountList extends KubeObject {
  metadata?: ListMeta;
  items: ServiceAccount[];
}

export const serviceAccountKind = coreV1Kind('ServiceAccount');
export const serviceAccountListKind = coreV1Kind('ServiceAccountList');

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const serviceAccountModule: APIModule = {
  definitions: {
    [coreV1('ServiceAccount')]: struct('An identity for processes that run in pods.', {
      apiVersion,
      automountServiceAccountToken: bool('Whether pods running as this account get an API token mounted.'),
      imagePullSecrets: atomicList(
        ref(LOCAL_OBJECT_REFERENCE),
        'Secrets pods of this account pull images with.',
      ),
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      secrets: mapList(ref(OBJECT_REFERENCE), 'name', 'Secrets pods of this account may use.'),
    }),
    [coreV1('ServiceAccountList')]: struct(
      'A list of ServiceAccounts.',
      {
        apiVersion,
        items: arrayOf(ref(coreV1('ServiceAccount'), undefined, { default: {} }), 'The ServiceAccounts.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [serviceAccountKind, serviceAccountListKind],
  protobuf: {
    [coreV1('ServiceAccount')]: {
      metadata: 1,
      secrets: 2,
      imagePullSecrets: 3,
      automountServiceAccountToken: pointer(4),
    },
    [coreV1('ServiceAccountList')]: { metadata: 1, items: 2 },
  },
};
