// meta/v1 WatchEvent, runtime.RawExtension and meta/v1 Patch: bodies whose content is free-form.
import type { KubeObject, WatchEventType } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { metaV1, runtimeDef } from '../../schema/api-module.js';
import { ref, str, struct } from '../../schema/builders.js';

export const WATCH_EVENT = metaV1('WatchEvent');
export const RAW_EXTENSION = runtimeDef('RawExtension');
export const PATCH = metaV1('Patch');

export interface WatchEvent {
  type: WatchEventType;
  object: KubeObject;
}

export const watchEventModule: APIModule = {
  definitions: {
    [WATCH_EVENT]: struct(
      'One change seen by a watch.',
      {
        object: ref(
          RAW_EXTENSION,
          'The object after the change (before it, for DELETED); a Status for ERROR.',
        ),
        type: str('ADDED, MODIFIED, DELETED, BOOKMARK or ERROR.'),
      },
      { required: ['type', 'object'] },
    ),
    [RAW_EXTENSION]: {
      description: 'An embedded object of any kind, kept as it was sent.',
      type: 'object',
    },
    [PATCH]: {
      description: 'A patch body; its format is given by the request Content-Type.',
      type: 'object',
    },
  },
  protobuf: {
    [WATCH_EVENT]: { type: 1, object: 2 },
    [RAW_EXTENSION]: 'rawExtension',
  },
};
