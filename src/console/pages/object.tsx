// One object: its YAML (managedFields folded), the events about it, owners and dependents, and its
// history; tabs switch by URL (?tab=) so each is a link.
import { useEffect, useState } from 'preact/hooks';
import { apiGet, resourcePath } from '../api.js';
import { findResource, type Resource } from '../discovery.js';
import { listHref, objectHref } from '../route.js';
import { splitManagedFields, toYaml } from '../yaml.js';
import { EventTable, type KubeEvent } from './events.js';
import { HistoryTab } from './history.js';
import { RelationsTab } from './relations.js';

const tabs = ['yaml', 'events', 'relations', 'history'] as const;

function YamlTab(props: { obj: Record<string, unknown> }) {
  const { rest, managed } = splitManagedFields(props.obj);
  return (
    <div data-testid="yaml">
      <details class="managed">
        <summary>managedFields ({managed.length} entries)</summary>
        <pre>{toYaml(managed)}</pre>
      </details>
      <pre class="yaml">{toYaml(rest)}</pre>
    </div>
  );
}

function EventsTab(props: { namespace: string; uid: string }) {
  const [events, setEvents] = useState<KubeEvent[]>([]);
  useEffect(() => {
    const path = props.namespace === '' ? '/api/v1/events' : `/api/v1/namespaces/${props.namespace}/events`;
    apiGet<{ items: KubeEvent[] }>(path).then(
      (l) => {
        setEvents(l.items.filter((e) => e.involvedObject?.uid === props.uid));
      },
      () => {
        setEvents([]);
      },
    );
  }, [props.namespace, props.uid]);
  return events.length === 0 ? (
    <p class="muted">No events about this object.</p>
  ) : (
    <EventTable events={events} />
  );
}

export function ObjectPage(props: {
  resources: readonly Resource[];
  group: string;
  resource: string;
  namespace: string;
  name: string;
  tab: string;
}) {
  const r = findResource(props.resources, props.group, props.resource);
  const [obj, setObj] = useState<Record<string, unknown> | undefined>();
  const [error, setError] = useState('');
  const path = r === undefined ? '' : resourcePath(r, props.namespace, props.name);
  useEffect(() => {
    if (path === '') return;
    apiGet<Record<string, unknown>>(path).then(setObj, (err: unknown) => {
      setError((err as Error).message);
    });
  }, [path]);
  if (r === undefined) return <div class="page">Unknown resource {props.resource}</div>;
  const meta = (obj?.['metadata'] ?? {}) as { uid?: string; name: string; namespace?: string };
  const here = { group: props.group, resource: props.resource, namespace: props.namespace, name: props.name };
  return (
    <div class="page" data-testid="object-page">
      <p class="crumbs">
        <a href={listHref(props.group, props.resource)}>{r.name}</a>
        {props.namespace !== '' ? ` / ${props.namespace}` : ''}
      </p>
      <h1>
        {r.kind} <span data-testid="object-name">{props.name}</span>
      </h1>
      <nav class="tabs">
        {tabs.map((t) => (
          <a
            key={t}
            href={objectHref(here, t)}
            class={t === props.tab ? 'active' : ''}
            data-testid={`tab-${t}`}
          >
            {t}
          </a>
        ))}
      </nav>
      {error !== '' && <p class="error">{error}</p>}
      {obj !== undefined && props.tab === 'yaml' && <YamlTab obj={obj} />}
      {obj !== undefined && props.tab === 'events' && (
        <EventsTab namespace={props.namespace} uid={meta.uid ?? ''} />
      )}
      {obj !== undefined && props.tab === 'relations' && (
        <RelationsTab resources={props.resources} meta={meta} />
      )}
      {props.tab === 'history' && <HistoryTab path={path} />}
    </div>
  );
}
