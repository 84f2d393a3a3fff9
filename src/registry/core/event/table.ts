// `kubectl get events` columns (printEvent in pkg/printers/internalversion/printers.go): LAST SEEN TYPE
// REASON OBJECT MESSAGE, and SUBOBJECT SOURCE FIRST SEEN COUNT NAME with -o wide.
import type { Event } from '../../../api/core/v1/event.js';
import type { TableColumnDefinition } from '../../../api/table.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { objectMetaNameDescription, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

function column(name: string, description: string, priority = 0): TableColumnDefinition {
  return { name, type: 'string', format: '', description, priority };
}

const columns: readonly TableColumnDefinition[] = [
  column('Last Seen', 'The time at which the most recent occurrence of this event was recorded.'),
  column('Type', 'Type of this event (Normal, Warning).'),
  column('Reason', 'A short, machine understandable string for the reason of the transition.'),
  column('Object', 'The object that this event is about.'),
  column('Subobject', 'The part of the object the event is about, such as a container.', 1),
  column('Source', 'The component reporting this event.', 1),
  column('Message', 'A human-readable description of the status of this operation.'),
  column('First Seen', 'The time at which the event was first recorded.', 1),
  column('Count', 'The number of times this event has occurred.', 1),
  { name: 'Name', type: 'string', format: 'name', description: objectMetaNameDescription, priority: 1 },
];

const firstNonEmpty = (a: string | undefined, b: string | undefined): string =>
  a !== undefined && a !== '' ? a : (b ?? '');

/** formatEventSource: component, then instance after a comma when there is one. */
export function formatEventSource(event: Event): string {
  const component = firstNonEmpty(event.source?.component, event.reportingComponent);
  const instance = firstNonEmpty(event.source?.host, event.reportingInstance);
  return instance === '' ? component : `${component}, ${instance}`;
}

/** The OBJECT column: `kind/name` with the kind in lower case. */
export function eventTarget(event: Event): string {
  const kind = (event.involvedObject?.kind ?? '').toLowerCase();
  const name = event.involvedObject?.name ?? '';
  return name === '' ? kind : `${kind}/${name}`;
}

const isSet = (t: string | null | undefined): t is string => t !== undefined && t !== null && t !== '';

export const eventTableConvertor: TableConvertor = tableConvertorFor<Event>({
  columns,
  cells: (event, now) => {
    const firstSeen = isSet(event.firstTimestamp)
      ? translateTimestampSince(event.firstTimestamp, now)
      : translateTimestampSince(event.eventTime ?? undefined, now);
    let lastSeen = isSet(event.lastTimestamp) ? translateTimestampSince(event.lastTimestamp, now) : firstSeen;
    let count = event.count ?? 0;
    if (event.series !== undefined) {
      lastSeen = translateTimestampSince(event.series.lastObservedTime, now);
      count = event.series.count ?? 0;
    } else if (count === 0) {
      // Singleton events of the events.k8s.io API carry no count.
      count = 1;
    }
    return [
      lastSeen,
      event.type ?? '',
      event.reason ?? '',
      eventTarget(event),
      event.involvedObject?.fieldPath ?? '',
      formatEventSource(event),
      (event.message ?? '').trim(),
      firstSeen,
      count,
      event.metadata?.name ?? '',
    ];
  },
});
