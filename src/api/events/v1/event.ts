// events.k8s.io/v1 Event(+List) (k8s.io/api/events/v1/types.go; protobuf field numbers from its
// struct tags): the same events as core/v1's, with the newer field names. Stored as core/v1 Events.
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import { apiDefinitions, coreV1, groupKind, type APIModule } from '../../schema/api-module.js';
import { arrayOf, int32, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { MICRO_TIME, OBJECT_META, TIME } from '../../meta/v1/object-meta.js';
import { OBJECT_REFERENCE, type ObjectReference } from '../../core/v1/object-reference.js';
import type { EventSource } from '../../core/v1/event.js';

export const eventsV1 = { group: 'events.k8s.io', version: 'v1' } as const;
const def = apiDefinitions('events', 'v1');

export interface EventSeriesV1 {
  count?: number;
  lastObservedTime?: string;
}

export interface EventV1 extends KubeObject {
  metadata?: ObjectMeta;
  eventTime?: string | null;
  series?: EventSeriesV1;
  reportingController?: string;
  reportingInstance?: string;
  action?: string;
  reason?: string;
  regarding?: ObjectReference;
  related?: ObjectReference;
  note?: string;
  type?: string;
  deprecatedSource?: EventSource;
  deprecatedFirstTimestamp?: string | null;
  deprecatedLastTimestamp?: string | null;
  deprecatedCount?: number;
}

export interface EventListV1 extends KubeObject {
  metadata?: ListMeta;
  items: EventV1[];
}

const EVENT = def('Event');
const EVENT_SERIES = def('EventSeries');
const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const eventsV1Module: APIModule = {
  definitions: {
    [EVENT]: struct(
      'A report of something that happened to an object.',
      {
        action: str('What was done, or failed, about the object.'),
        apiVersion,
        deprecatedCount: int32('The core/v1 count field.'),
        deprecatedFirstTimestamp: ref(TIME, 'The core/v1 firstTimestamp field.'),
        deprecatedLastTimestamp: ref(TIME, 'The core/v1 lastTimestamp field.'),
        deprecatedSource: ref(coreV1('EventSource'), 'The core/v1 source field.', { default: {} }),
        eventTime: ref(MICRO_TIME, 'When the event was first observed, to the microsecond.'),
        kind,
        metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
        note: str('Human-readable description of the event.'),
        reason: str('Short machine-readable cause of the event.'),
        regarding: ref(OBJECT_REFERENCE, 'The object the event is about.', { default: {} }),
        related: ref(OBJECT_REFERENCE, 'A second object involved, if any.'),
        reportingController: str('The controller that emitted the event.'),
        reportingInstance: str('The instance of the controller that emitted the event.'),
        series: ref(EVENT_SERIES, 'Data about a series of events, when it is one.'),
        type: str('Normal or Warning.'),
      },
      { required: ['eventTime'] },
    ),
    [EVENT_SERIES]: struct(
      'A series of events that happened again and again.',
      {
        count: int32('Occurrences so far.'),
        lastObservedTime: ref(MICRO_TIME, 'When the last occurrence was seen.'),
      },
      { required: ['count', 'lastObservedTime'] },
    ),
    [def('EventList')]: struct(
      'A list of Events.',
      {
        apiVersion,
        items: arrayOf(ref(EVENT, undefined, { default: {} }), 'The Events.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [groupKind(eventsV1, 'Event', EVENT), groupKind(eventsV1, 'EventList', def('EventList'))],
  protobuf: {
    [EVENT]: {
      metadata: 1,
      eventTime: 2,
      series: pointer(3),
      reportingController: 4,
      reportingInstance: 5,
      action: 6,
      reason: 7,
      regarding: 8,
      related: pointer(9),
      note: 10,
      type: 11,
      deprecatedSource: 12,
      deprecatedFirstTimestamp: 13,
      deprecatedLastTimestamp: 14,
      deprecatedCount: 15,
    },
    [EVENT_SERIES]: { count: 1, lastObservedTime: 2 },
    [def('EventList')]: { metadata: 1, items: 2 },
  },
};

export const eventsV1Modules: readonly APIModule[] = [eventsV1Module];
