// storage.k8s.io/v1 VolumeAttachment(+List) (k8s.io/api/storage/v1/types.go).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1, groupKind } from '../../schema/api-module.js';
import { arrayOf, bool, int32, ref, str, stringMap, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META, TIME } from '../../meta/v1/object-meta.js';
import { storageV1, storageV1Def } from './storage-class.js';

export interface VolumeError {
  time?: string;
  message?: string;
  errorCode?: number;
}

export interface VolumeAttachmentSpec {
  attacher: string;
  source: { persistentVolumeName?: string; inlineVolumeSpec?: Record<string, unknown> };
  nodeName: string;
}

export interface VolumeAttachmentStatus {
  attached: boolean;
  attachmentMetadata?: Record<string, string>;
  attachError?: VolumeError;
  detachError?: VolumeError;
}

export interface VolumeAttachment extends KubeObject {
  apiVersion?: 'storage.k8s.io/v1';
  kind?: 'VolumeAttachment';
  metadata?: ObjectMeta;
  spec: VolumeAttachmentSpec;
  status?: VolumeAttachmentStatus;
}

export interface VolumeAttachmentList extends KubeObject {
  metadata?: ListMeta;
  items: VolumeAttachment[];
}

const VA = storageV1Def('VolumeAttachment');
const VA_LIST = storageV1Def('VolumeAttachmentList');
const SPEC = storageV1Def('VolumeAttachmentSpec');
const SOURCE = storageV1Def('VolumeAttachmentSource');
const STATUS = storageV1Def('VolumeAttachmentStatus');
const VOLUME_ERROR = storageV1Def('VolumeError');

export const volumeAttachmentKind = groupKind(storageV1, 'VolumeAttachment', VA);
export const volumeAttachmentListKind = groupKind(storageV1, 'VolumeAttachmentList', VA_LIST);

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const volumeAttachmentModule: APIModule = {
  definitions: {
    [SOURCE]: struct('The volume to attach.', {
      inlineVolumeSpec: ref(coreV1('PersistentVolumeSpec'), 'An inline volume migrated to CSI.'),
      persistentVolumeName: str('The PersistentVolume to attach.'),
    }),
    [SPEC]: struct(
      'What to attach where.',
      {
        attacher: str('The volume driver that attaches.', { default: '' }),
        nodeName: str('The node the volume is attached to.', { default: '' }),
        source: ref(SOURCE, 'The volume.', { default: {} }),
      },
      { required: ['attacher', 'source', 'nodeName'] },
    ),
    [VOLUME_ERROR]: struct('An error of an attach or detach operation.', {
      errorCode: int32('The numeric gRPC code of the error.'),
      message: str('The error.'),
      time: ref(TIME, 'When the error happened.'),
    }),
    [STATUS]: struct(
      'The result of attaching or detaching.',
      {
        attachError: ref(VOLUME_ERROR, 'The last error attaching.'),
        attached: bool('Whether the volume is attached.'),
        attachmentMetadata: stringMap('What the attach operation returned.'),
        detachError: ref(VOLUME_ERROR, 'The last error detaching.'),
      },
      { required: ['attached'] },
    ),
    [VA]: struct(
      'The intent to attach a volume to a node.',
      {
        apiVersion,
        kind,
        metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
        spec: ref(SPEC, 'What to attach where.', { default: {} }),
        status: ref(STATUS, 'The result of the operation.', { default: {} }),
      },
      { required: ['spec'] },
    ),
    [VA_LIST]: struct(
      'A list of VolumeAttachments.',
      {
        apiVersion,
        items: arrayOf(ref(VA, undefined, { default: {} }), 'The VolumeAttachments.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [volumeAttachmentKind, volumeAttachmentListKind],
  // k8s.io/api/storage/v1 generated.proto.
  protobuf: {
    [VA]: { metadata: 1, spec: 2, status: 3 },
    [VA_LIST]: { metadata: 1, items: 2 },
    [SPEC]: { attacher: 1, source: 2, nodeName: 3 },
    [SOURCE]: { persistentVolumeName: pointer(1), inlineVolumeSpec: pointer(2) },
    [STATUS]: { attached: 1, attachmentMetadata: 2, attachError: pointer(3), detachError: pointer(4) },
    [VOLUME_ERROR]: { time: 1, message: 2, errorCode: pointer(3) },
  },
};
