// core/v1 Event(+List), EventSource, EventSeries.
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1, coreV1Kind } from '../../schema/api-module.js';
import { arrayOf, int32, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { MICRO_TIME, OBJECT_META, TIME } from '../../meta/v1/object-meta.js';
import { OBJECT_REFERENCE, type ObjectReference } from './object-reference.js';

export interface EventSource {
  component?: string;
  host?: string;
}

export interface EventSeries {
  count?: number;
  lastObservedTime?: string;
}

export interface Event extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Event';
  metadata?: ObjectMeta;
  involvedObject?: ObjectReference;
  reason?: string;
  message?: string;
  source?: EventSource;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  count?: number;
  type?: string;
  eventTime?: string | null;
  series?: EventSeries;
  action?: string;
  related?: ObjectReference;
  /** Go's ReportingController. */
  reportingComponent?: string;
  reportingInstance?: string;
}

export interface EventList extends KubeObject {
  metadata?: ListMeta;
  items: Event[];
}

export const eventKind = coreV1Kind('Event');
export const eventListKind = coreV1Kind('EventList');

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');
const EVENT_SOURCE = coreV1('EventSource');
const EVENT_SERIES = coreV1('EventSeries');

export const eventModule: APIModule = {
  definitions: {
    [coreV1('Event')]: struct(
      'A report of something that happened to an object.',
      {
        action: str('What was done, or failed, about the object.'),
        apiVersion,
        count: int32('How many times this event occurred.'),
        eventTime: ref(MICRO_TIME, 'When the event was first observed, to the microsecond.'),
        firstTimestamp: ref(TIME, 'When the event was first recorded.'),
        involvedObject: ref(OBJECT_REFERENCE, 'The object the event is about.', { default: {} }),
        kind,
        lastTimestamp: ref(TIME, 'When the event most recently occurred.'),
        message: str('Human-readable description of the event.'),
        metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
        reason: str('Short machine-readable cause of the event.'),
        related: ref(OBJECT_REFERENCE, 'A second object involved, if any.'),
        reportingComponent: str('The controller that emitted the event.', { default: '' }),
        reportingInstance: str('The instance of the controller that emitted the event.', { default: '' }),
        series: ref(EVENT_SERIES, 'Data about a series of events, when it is one.'),
        source: ref(EVENT_SOURCE, 'The component reporting the event.', { default: {} }),
        type: str('Normal or Warning.'),
      },
      { required: ['metadata', 'involvedObject'] },
    ),
    [EVENT_SOURCE]: struct('The component an event comes from.', {
      component: str('Component that made the event.'),
      host: str('Node name where the event was made.'),
    }),
    [EVENT_SERIES]: struct('A series of events that happened again and again.', {
      count: int32('Occurrences so far.'),
      lastObservedTime: ref(MICRO_TIME, 'When the last occurrence was seen.'),
    }),
    [coreV1('EventList')]: struct(
      'A list of Events.',
      {
        apiVersion,
        items: arrayOf(ref(coreV1('Event'), undefined, { default: {} }), 'The Events.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [eventKind, eventListKind],
  protobuf: {
    [coreV1('Event')]: {
      metadata: 1,
      involvedObject: 2,
      reason: 3,
      message: 4,
      source: 5,
      firstTimestamp: 6,
      lastTimestamp: 7,
      count: 8,
      type: 9,
      eventTime: 10,
      series: pointer(11),
      action: 12,
      related: pointer(13),
      reportingComponent: 14,
      reportingInstance: 15,
    },
    [EVENT_SOURCE]: { component: 1, host: 2 },
    [EVENT_SERIES]: { count: 1, lastObservedTime: 2 },
    [coreV1('EventList')]: { metadata: 1, items: 2 },
  },
};
