// apps/v1 ControllerRevision(+List): an immutable snapshot of a controller's state.
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { groupKind } from '../../schema/api-module.js';
import { int64, ref, struct } from '../../schema/builders.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';
import { RAW_EXTENSION } from '../../meta/v1/watch-event.js';
import { apiVersion, appsV1, appsV1Def, kind, listProtobuf, listSchema } from './group.js';

export interface ControllerRevision extends KubeObject {
  apiVersion?: 'apps/v1';
  kind?: 'ControllerRevision';
  metadata?: ObjectMeta;
  data?: unknown;
  revision: number;
}

export interface ControllerRevisionList extends KubeObject {
  metadata?: ListMeta;
  items: ControllerRevision[];
}

export const CONTROLLER_REVISION = appsV1Def('ControllerRevision');

export const controllerRevisionKind = groupKind(appsV1, 'ControllerRevision', CONTROLLER_REVISION);
export const controllerRevisionListKind = groupKind(
  appsV1,
  'ControllerRevisionList',
  appsV1Def('ControllerRevisionList'),
);

export const controllerRevisionModule: APIModule = {
  definitions: {
    [CONTROLLER_REVISION]: struct(
      'An immutable snapshot of state data; once created, only its metadata may change.',
      {
        apiVersion,
        data: ref(RAW_EXTENSION, 'The serialized representation of the state.'),
        kind,
        metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
        revision: int64('The revision of the state represented by data.', { default: 0 }),
      },
      { required: ['revision'] },
    ),
    [appsV1Def('ControllerRevisionList')]: listSchema('ControllerRevision'),
  },
  kinds: [controllerRevisionKind, controllerRevisionListKind],
  protobuf: {
    [CONTROLLER_REVISION]: { metadata: 1, data: 2, revision: 3 },
    [appsV1Def('ControllerRevisionList')]: listProtobuf,
  },
};
