// One resource's objects with kube's printer columns (as=Table), filtered by namespace and label and
// field selectors, kept live by a watch; rows are virtual (10,000 objects scroll as 40).
import { useEffect, useRef, useState } from 'preact/hooks';
import { apiGet, resourcePath, tableAccept, watch } from '../api.js';
import { findResource, type Resource } from '../discovery.js';
import { moveSelection } from '../key-sequence.js';
import { useKeys } from '../keyboard.js';
import { listAndWatchPaths, selectorQuery, withChanges } from '../list-query.js';
import { listHref, objectHref } from '../route.js';
import { LiveRows, type Table, type TableColumn } from '../table-rows.js';
import { VirtualTable } from '../virtual-table.js';
import { NamespacePicker } from './namespace-picker.js';

function useLiveTable(r: Resource | undefined, ns: string, selectors: string) {
  const [columns, setColumns] = useState<{ column: TableColumn; index: number }[]>([]);
  const [version, setVersion] = useState(0);
  const [error, setError] = useState('');
  const rows = useRef(new LiveRows());
  useEffect(() => {
    if (r === undefined) return;
    const ctl = new AbortController();
    let frame = 0;
    const bump = (): void => {
      if (frame === 0)
        frame = requestAnimationFrame(() => {
          frame = 0;
          setVersion((n) => n + 1);
        });
    };
    const paths = listAndWatchPaths(resourcePath(r, ns), selectors);
    void (async () => {
      try {
        const table = await apiGet<Table>(paths.list, tableAccept, ctl.signal);
        // kube's wide columns (priority > 0) stay out, as in kubectl get without -o wide.
        const all = (table.columnDefinitions ?? []).map((column, index) => ({ column, index }));
        setColumns(all.filter((c) => (c.column.priority ?? 0) === 0));
        rows.current.reset(table.rows ?? []);
        setError('');
        bump();
        const rv = table.metadata.resourceVersion ?? '';
        await watch<Table>(paths.watch(rv), {
          accept: tableAccept,
          signal: ctl.signal,
          onEvent: (e) => {
            if (e.type === 'ADDED' || e.type === 'MODIFIED' || e.type === 'DELETED') {
              rows.current.apply(e.type, e.object);
              bump();
            }
          },
        });
      } catch (err) {
        if (!ctl.signal.aborted) setError((err as Error).message);
      }
    })();
    return () => {
      ctl.abort();
      cancelAnimationFrame(frame);
    };
  }, [r, ns, selectors]);
  return { columns, rows: rows.current.sorted, version, error };
}

export function ListPage(props: {
  resources: readonly Resource[];
  group: string;
  resource: string;
  query: URLSearchParams;
}) {
  const r = findResource(props.resources, props.group, props.resource);
  const ns = props.query.get('ns') ?? '';
  const { columns, rows, error } = useLiveTable(r, ns, selectorQuery(props.query));
  const [selected, setSelected] = useState(-1);
  const labelInput = useRef<HTMLInputElement>(null);
  const fieldInput = useRef<HTMLInputElement>(null);
  const go = (changes: Record<string, string>): void => {
    location.hash = listHref(props.group, props.resource, withChanges(props.query, changes));
  };
  const open = (i: number): void => {
    const row = rows[i];
    if (row === undefined) return;
    const m = row.object.metadata;
    location.hash = objectHref({
      group: props.group,
      resource: props.resource,
      namespace: m.namespace ?? '',
      name: m.name,
    });
  };
  useKeys({
    j: () => {
      setSelected((s) => moveSelection(s, 1, rows.length));
    },
    k: () => {
      setSelected((s) => moveSelection(s, -1, rows.length));
    },
    Enter: () => {
      open(selected);
    },
    '/': () => labelInput.current?.focus(),
  });
  if (r === undefined)
    return (
      <div class="page">
        No resource {props.resource} in {props.group || 'core'}.
      </div>
    );
  const names = columns.map((c) => c.column.name);
  return (
    <div class="page list-page" data-testid="list-page">
      <h1>
        {r.kind} <span class="muted">{r.name}</span>{' '}
        <span class="count" data-testid="row-count">
          {rows.length}
        </span>
      </h1>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          go({ l: labelInput.current?.value ?? '', f: fieldInput.current?.value ?? '' });
        }}
      >
        {r.namespaced && (
          <NamespacePicker
            value={ns}
            onChange={(v) => {
              go({ ns: v });
            }}
          />
        )}
        <input
          ref={labelInput}
          name="labelSelector"
          placeholder="label selector (app=web)"
          value={props.query.get('l') ?? ''}
          data-testid="label-selector"
        />
        <input
          ref={fieldInput}
          name="fieldSelector"
          placeholder="field selector (status.phase=Running)"
          value={props.query.get('f') ?? ''}
        />
        <button type="submit">Filter</button>
      </form>
      {error !== '' && <p class="error">{error}</p>}
      <VirtualTable
        columns={names}
        count={rows.length}
        selected={selected}
        onOpen={open}
        row={(i) => {
          const row = rows[i];
          const m = row?.object.metadata;
          return {
            key: row === undefined ? String(i) : `${m?.namespace ?? ''}/${m?.name ?? ''}`,
            name: m?.name ?? '',
            cells: columns.map(({ index }) => {
              const c = row?.cells[index];
              return typeof c === 'string' || typeof c === 'number' || typeof c === 'boolean'
                ? String(c)
                : JSON.stringify(c);
            }),
          };
        }}
      />
    </div>
  );
}
