// meta/v1 ObjectMeta and the types it carries (OwnerReference, ManagedFieldsEntry, Time, FieldsV1).
// The TS interfaces live in src/api/meta.ts; this file holds their schemas.
import type { APIModule } from '../../schema/api-module.js';
import { metaV1 } from '../../schema/api-module.js';
import {
  arrayOf,
  bool,
  int64,
  mapList,
  ref,
  str,
  stringMap,
  stringSet,
  struct,
} from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import type { Schema } from '../../schema/types.js';

export const TIME = metaV1('Time');
export const MICRO_TIME = metaV1('MicroTime');
export const FIELDS_V1 = metaV1('FieldsV1');
export const OBJECT_META = metaV1('ObjectMeta');
export const OWNER_REFERENCE = metaV1('OwnerReference');
export const MANAGED_FIELDS_ENTRY = metaV1('ManagedFieldsEntry');

const time: Schema = {
  description: 'A timestamp in RFC 3339 form, to the second.',
  type: 'string',
  format: 'date-time',
};

const microTime: Schema = {
  description: 'A timestamp in RFC 3339 form with microseconds.',
  type: 'string',
  format: 'date-time',
};

const fieldsV1: Schema = {
  description: 'The set of fields a manager owns, encoded as a tree of field keys.',
  type: 'object',
};

const ownerReference = struct(
  'Points at an object that owns this one; the owner must be in the same namespace or cluster-scoped.',
  {
    apiVersion: str('API version of the owner.'),
    blockOwnerDeletion: bool('When true, foreground deletion of the owner waits for this object to go.'),
    controller: bool('Marks the owner that manages this object; at most one owner may set it.'),
    kind: str('Kind of the owner.'),
    name: str('Name of the owner.'),
    uid: str('UID of the owner.'),
  },
  { required: ['apiVersion', 'kind', 'name', 'uid'], 'x-kubernetes-map-type': 'atomic' },
);

const managedFieldsEntry = struct('Records which fields one manager set, and by which operation.', {
  apiVersion: str('Version of the resource the fields were set in.'),
  fieldsType: str('Encoding of the fields; only "FieldsV1" is defined.'),
  fieldsV1: ref(FIELDS_V1, 'The owned fields, when fieldsType is FieldsV1.'),
  manager: str('Name of the workflow that set the fields.'),
  operation: str('Apply or Update: the kind of request that set the fields.'),
  subresource: str('Subresource the fields were set through, empty for the main resource.'),
  time: ref(TIME, 'When the fields were last changed by this manager.'),
});

const objectMeta = struct('Metadata every persisted object carries.', {
  annotations: stringMap('Unstructured key-value data kept with the object, not used for selection.'),
  creationTimestamp: ref(TIME, 'Server time when the object was created; read-only.'),
  deletionGracePeriodSeconds: int64(
    'Seconds the object has left to terminate once deletion started; read-only.',
  ),
  deletionTimestamp: ref(
    TIME,
    'Time after which the object is removed, set when a graceful delete is asked for; read-only.',
  ),
  finalizers: {
    ...stringSet('Keys that must be cleared before the object is removed from storage.'),
    'x-kubernetes-patch-strategy': 'merge',
  },
  generateName: str('Prefix the server completes with random characters when name is empty.'),
  generation: int64('Sequence number of the desired state, bumped on spec changes; read-only.'),
  labels: stringMap('Key-value pairs used to organise and select objects.'),
  managedFields: arrayOf(
    ref(MANAGED_FIELDS_ENTRY),
    'Which manager owns which fields; maintained by the server.',
    {
      'x-kubernetes-list-type': 'atomic',
    },
  ),
  name: str('Name, unique within the namespace (or the cluster for cluster-scoped kinds).'),
  namespace: str('Namespace the object lives in; empty for cluster-scoped kinds.'),
  ownerReferences: mapList(
    ref(OWNER_REFERENCE),
    'uid',
    'Objects this one depends on; garbage collection removes it with them.',
  ),
  resourceVersion: str('Opaque version of the object for optimistic concurrency and watches; read-only.'),
  selfLink: str('Deprecated and unset.'),
  uid: str('Unique identifier over the cluster lifetime, set by the server; read-only.'),
});

export const objectMetaModule: APIModule = {
  definitions: {
    [TIME]: time,
    [MICRO_TIME]: microTime,
    [FIELDS_V1]: fieldsV1,
    [OWNER_REFERENCE]: ownerReference,
    [MANAGED_FIELDS_ENTRY]: managedFieldsEntry,
    [OBJECT_META]: objectMeta,
  },
  goTypes: {
    [OBJECT_META]: { uid: 'types.UID' },
    [OWNER_REFERENCE]: { uid: 'types.UID' },
    [MANAGED_FIELDS_ENTRY]: { operation: 'v1.ManagedFieldsOperationType' },
  },
  protobuf: {
    [TIME]: 'time',
    [MICRO_TIME]: 'microTime',
    [FIELDS_V1]: 'fieldsV1',
    [OWNER_REFERENCE]: {
      apiVersion: 5,
      kind: 1,
      name: 3,
      uid: 4,
      controller: pointer(6),
      blockOwnerDeletion: pointer(7),
    },
    [MANAGED_FIELDS_ENTRY]: {
      manager: 1,
      operation: 2,
      apiVersion: 3,
      time: pointer(4),
      fieldsType: 6,
      fieldsV1: pointer(7),
      subresource: 8,
    },
    [OBJECT_META]: {
      name: 1,
      generateName: 2,
      namespace: 3,
      selfLink: 4,
      uid: 5,
      resourceVersion: 6,
      generation: 7,
      creationTimestamp: 8,
      deletionTimestamp: pointer(9),
      deletionGracePeriodSeconds: pointer(10),
      labels: 11,
      annotations: 12,
      ownerReferences: 13,
      finalizers: 14,
      managedFields: 17,
    },
  },
};
