// An object's stored revisions (GET /capstan/v1/history/…): each with its time and the field
// manager that wrote it, its diff against the revision before, and a diff between any two.
import { diffLines } from 'diff';
import { useEffect, useState } from 'preact/hooks';
import { apiGet } from '../api.js';
import { splitManagedFields, toYaml } from '../yaml.js';

interface Revision {
  resourceVersion: string;
  type: string;
  time?: string;
  fieldManager?: string;
  operation?: string;
  object: Record<string, unknown> | null;
}

const textOf = (r: Revision | undefined): string => {
  if (r?.object == null) return '';
  const { rest } = splitManagedFields(r.object);
  const meta = { ...(rest['metadata'] as Record<string, unknown>) };
  delete meta['resourceVersion'];
  return toYaml({ ...rest, metadata: meta });
};

function Diff(props: { from: string; to: string }) {
  const parts = diffLines(props.from, props.to);
  return (
    <pre class="diff" data-testid="diff">
      {parts.map((p, i) =>
        p.added || p.removed ? (
          <span key={i} class={p.added ? 'add' : 'del'}>
            {p.value.replace(/\n$/, '').replace(/^/gm, p.added ? '+ ' : '- ')}
          </span>
        ) : (
          <span key={i} class="ctx">
            {p.value.split('\n').length > 7 ? '  …' : p.value.replace(/\n$/, '').replace(/^/gm, '  ')}
          </span>
        ),
      )}
    </pre>
  );
}

export function HistoryTab(props: { path: string }) {
  const [items, setItems] = useState<Revision[] | undefined>();
  const [error, setError] = useState('');
  const [from, setFrom] = useState(0);
  const [to, setTo] = useState(-1);
  useEffect(() => {
    apiGet<{ items: Revision[] }>(`/capstan/v1/history${props.path}`).then(
      (h) => {
        setItems(h.items);
        setFrom(Math.max(0, h.items.length - 2));
        setTo(h.items.length - 1);
      },
      (err: unknown) => {
        setError((err as Error).message);
      },
    );
  }, [props.path]);
  if (error !== '') return <p class="error">{error}</p>;
  if (items === undefined) return <p class="muted">Loading history…</p>;
  const label = (r: Revision): string =>
    `${r.resourceVersion} · ${r.type}${r.fieldManager ? ` · ${r.fieldManager}` : ''}`;
  const pick = (set: (n: number) => void) => (e: Event) => {
    set(Number((e.target as HTMLSelectElement).value));
  };
  return (
    <div data-testid="history">
      <div class="compare">
        Compare{' '}
        <select value={from} onChange={pick(setFrom)} data-testid="compare-from">
          {items.map((r, i) => (
            <option key={r.resourceVersion} value={i}>
              {label(r)}
            </option>
          ))}
        </select>{' '}
        with{' '}
        <select value={to} onChange={pick(setTo)} data-testid="compare-to">
          {items.map((r, i) => (
            <option key={r.resourceVersion} value={i}>
              {label(r)}
            </option>
          ))}
        </select>
        <Diff from={textOf(items[from])} to={textOf(items[to])} />
      </div>
      <ol class="revisions" reversed>
        {items
          .map((r, i) => (
            <li
              key={r.resourceVersion}
              class="revision"
              data-testid="revision"
              data-manager={r.fieldManager ?? ''}
            >
              <header>
                <b>rv {r.resourceVersion}</b> <span class={`tag ${r.type}`}>{r.type}</span>{' '}
                {r.fieldManager !== undefined && (
                  <span class="manager">
                    by {r.fieldManager}
                    {r.operation ? ` (${r.operation})` : ''}
                  </span>
                )}{' '}
                <time class="muted">{r.time ?? ''}</time>
              </header>
              {i > 0 && <Diff from={textOf(items[i - 1])} to={textOf(r)} />}
            </li>
          ))
          .reverse()}
      </ol>
    </div>
  );
}
