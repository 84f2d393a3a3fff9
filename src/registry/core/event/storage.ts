// Event storage (pkg/registry/core/event/storage/storage.go): the generic Store under `/events`, every
// write living for the `--event-ttl` (1h by default), short name `ev`.
import type { Event, EventList } from '../../../api/core/v1/event.js';
import type { TransformFunc } from '../../../machinery/fields/index.js';
import type { GroupResource } from '../../../machinery/schema/group-resource.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import { mergeFieldsSets, objectMetaFieldsSet } from '../../generic/predicate.js';
import type { Store } from '../../generic/store.js';
import type { AttrFunc } from '../../rest/strategy.js';
import type { CoreStorageOptions } from '../configmap/storage.js';
import { eventDeleteStrategy, eventStrategy } from './strategy.js';
import { eventTableConvertor } from './table.js';

export const eventResource = { group: '', resource: 'events' } as const;

/** kube-apiserver's `--event-ttl` default. */
export const defaultEventTTLSeconds = 60 * 60;

export interface EventStorageOptions extends CoreStorageOptions {
  /** Seconds each write keeps an event; `defaultEventTTLSeconds` when unset. */
  readonly eventTTL?: number;
  /** The resource errors name: core `events` unless the store serves events.k8s.io. */
  readonly qualifiedResource?: GroupResource;
}

/** event.ToSelectableFields: the source is the reporting controller when source.component is empty. */
export const eventAttrs: AttrFunc<Event> = (event) => {
  const involved = event.involvedObject ?? {};
  const component = event.source?.component ?? '';
  return {
    labels: event.metadata?.labels ?? {},
    fields: mergeFieldsSets(
      {
        'involvedObject.kind': involved.kind ?? '',
        'involvedObject.namespace': involved.namespace ?? '',
        'involvedObject.name': involved.name ?? '',
        'involvedObject.uid': involved.uid ?? '',
        'involvedObject.apiVersion': involved.apiVersion ?? '',
        'involvedObject.resourceVersion': involved.resourceVersion ?? '',
        'involvedObject.fieldPath': involved.fieldPath ?? '',
        reason: event.reason ?? '',
        reportingComponent: event.reportingComponent ?? '',
        source: component !== '' ? component : (event.reportingComponent ?? ''),
        type: event.type ?? '',
      },
      objectMetaFieldsSet(event.metadata, true),
    ),
  };
};

const eventFieldLabels: ReadonlySet<string> = new Set([
  'involvedObject.kind',
  'involvedObject.namespace',
  'involvedObject.name',
  'involvedObject.uid',
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'reason',
  'reportingComponent',
  'source',
  'type',
  'metadata.namespace',
  'metadata.name',
]);

/** The v1 field label conversion for Events (pkg/apis/core/v1/conversion.go). */
export const eventFieldLabelConversion: TransformFunc = (field, value) =>
  eventFieldLabels.has(field)
    ? { ok: true, field, value }
    : { ok: false, message: `field label not supported: ${field}` };

export function newEventREST(opts: EventStorageOptions): Promise<Store<Event>> {
  const ttl = opts.eventTTL ?? defaultEventTTLSeconds;
  return completeResourceStore<Event>(
    {
      qualifiedResource: opts.qualifiedResource ?? eventResource,
      singularName: 'event',
      newFunc: () => ({ apiVersion: 'v1', kind: 'Event' }),
      newListFunc: () =>
        ({
          apiVersion: 'v1',
          kind: 'EventList',
          metadata: {},
          items: [],
        }) satisfies EventList,
      createStrategy: eventStrategy,
      updateStrategy: eventStrategy,
      deleteStrategy: eventDeleteStrategy,
      tableConvertor: eventTableConvertor,
      fieldLabelConversion: eventFieldLabelConversion,
      shortNames: ['ev'],
      // Every write, update included, starts the TTL again.
      ttlFunc: () => ttl,
      trackGeneration: false,
    },
    opts,
    { attrFunc: eventAttrs },
  );
}
