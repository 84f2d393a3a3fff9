// events.k8s.io/v1 Events (pkg/registry/events and pkg/apis/events/v1/conversion.go): the core
// Events' storage seen through the newer field names, with the stricter checks kube applies to
// events created through this API (ValidateEventCreate for events.k8s.io/v1).
import type { Event } from '../../api/core/v1/event.js';
import type { EventV1 } from '../../api/events/v1/event.js';
import { FieldError, FieldPath, type ErrorList } from '../../machinery/validation/index.js';
import type { VersionConversion } from '../generic/converting-view.js';
import type { CreateStrategy } from '../rest/strategy.js';
import { eventStrategy, validateEvent } from '../core/event/strategy.js';

/** Copies the defined values only, so absent fields stay absent after conversion. */
function defined<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export const eventsV1Conversion: VersionConversion<EventV1, Event> = {
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  fromInner: (e) => ({
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    ...defined({
      metadata: e.metadata,
      eventTime: e.eventTime,
      series: e.series,
      reportingController: e.reportingComponent,
      reportingInstance: e.reportingInstance,
      action: e.action,
      reason: e.reason,
      regarding: e.involvedObject,
      related: e.related,
      note: e.message,
      type: e.type,
      deprecatedSource: e.source,
      deprecatedFirstTimestamp: e.firstTimestamp,
      deprecatedLastTimestamp: e.lastTimestamp,
      deprecatedCount: e.count,
    }),
  }),
  toInner: (e) => ({
    apiVersion: 'v1',
    kind: 'Event',
    ...defined({
      metadata: e.metadata,
      eventTime: e.eventTime,
      series: e.series,
      reportingComponent: e.reportingController,
      reportingInstance: e.reportingInstance,
      action: e.action,
      reason: e.reason,
      involvedObject: e.regarding,
      related: e.related,
      message: e.note,
      type: e.type,
      source: e.deprecatedSource,
      firstTimestamp: e.deprecatedFirstTimestamp,
      lastTimestamp: e.deprecatedLastTimestamp,
      count: e.deprecatedCount,
    }),
  }),
};

const unset = (path: string): FieldError => FieldError.invalid(FieldPath.of(path), '', 'needs to be unset');

/** The checks events.k8s.io/v1 adds on create; field paths name the stored (core) fields, as kube's do. */
export function validateEventsV1Create(event: Event): ErrorList {
  const errs: ErrorList = [];
  if (event.series !== undefined) {
    if ((event.series.count ?? 0) < 2)
      errs.push(FieldError.invalid(FieldPath.of('series.count'), '', 'should be at least 2'));
    if ((event.series.lastObservedTime ?? '') === '')
      errs.push(FieldError.required(FieldPath.of('series.lastObservedTime')));
  }
  if ((event.eventTime ?? '') === '') errs.push(FieldError.required(FieldPath.of('eventTime')));
  const type = event.type ?? '';
  if (type !== 'Normal' && type !== 'Warning')
    errs.push(FieldError.invalid(FieldPath.of('type'), '', `has invalid value: ${type}`));
  if ((event.firstTimestamp ?? '') !== '') errs.push(unset('firstTimestamp'));
  if ((event.lastTimestamp ?? '') !== '') errs.push(unset('lastTimestamp'));
  if ((event.count ?? 0) !== 0) errs.push(unset('count'));
  if ((event.source?.component ?? '') !== '' || (event.source?.host ?? '') !== '') errs.push(unset('source'));
  return errs;
}

export const eventsV1CreateStrategy = {
  ...eventStrategy,
  validate: (_ctx, event) => [...validateEvent(event), ...validateEventsV1Create(event)],
} satisfies CreateStrategy<Event>;
