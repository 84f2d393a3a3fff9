// The cluster's events as they happen: a list, then a watch; newest first, the last 500 kept.
import { useEffect, useState } from 'preact/hooks';
import { apiGet, watch } from '../api.js';
import { initialFeed, mergeEvent } from '../event-feed.js';

export interface KubeEvent {
  metadata: { uid?: string; name: string; namespace?: string };
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  lastTimestamp?: string;
  eventTime?: string;
  involvedObject?: { kind?: string; name?: string; uid?: string };
}

const keep = 500;

export function EventTable(props: { events: readonly KubeEvent[] }) {
  return (
    <table class="events" data-testid="events">
      <thead>
        <tr>
          <th>Last seen</th>
          <th>Type</th>
          <th>Reason</th>
          <th>Object</th>
          <th>Message</th>
        </tr>
      </thead>
      <tbody>
        {props.events.map((e) => (
          <tr key={e.metadata.uid ?? e.metadata.name}>
            <td>{e.lastTimestamp ?? e.eventTime ?? ''}</td>
            <td class={e.type === 'Warning' ? 'warn' : ''}>{e.type}</td>
            <td>{e.reason}</td>
            <td>
              {e.involvedObject?.kind}/{e.involvedObject?.name}
            </td>
            <td>{e.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function EventsPage() {
  const [events, setEvents] = useState<readonly KubeEvent[]>([]);
  const [error, setError] = useState('');
  useEffect(() => {
    const ctl = new AbortController();
    void (async () => {
      try {
        const list = await apiGet<{ items: KubeEvent[]; metadata: { resourceVersion: string } }>(
          '/api/v1/events',
          undefined,
          ctl.signal,
        );
        setEvents(initialFeed(list.items, keep));
        await watch<KubeEvent>(`/api/v1/events?watch=1&resourceVersion=${list.metadata.resourceVersion}`, {
          signal: ctl.signal,
          onEvent: (e) => {
            setEvents((old) => mergeEvent(old, e, keep));
          },
        });
      } catch (err) {
        if (!ctl.signal.aborted) setError((err as Error).message);
      }
    })();
    return () => {
      ctl.abort();
    };
  }, []);
  return (
    <div class="page" data-testid="events-page">
      <h1>
        Events <span class="muted">live</span>
      </h1>
      {error !== '' && <p class="error">{error}</p>}
      <EventTable events={events} />
    </div>
  );
}
