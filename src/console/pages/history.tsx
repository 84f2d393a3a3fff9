// An object's stored revisions (GET /capstan/v1/history/…): each with its time and the field
// manager that wrote it, its diff against the revision before, and a diff between any two.
import { useEffect, useState } from 'preact/hooks';
import { apiGet } from '../api.js';
import { defaultComparison, diffRevisions, revisionText, type DiffLine } from '../revision-diff.js';

interface Revision {
  resourceVersion: string;
  type: string;
  time?: string;
  fieldManager?: string;
  operation?: string;
  object: Record<string, unknown> | null;
}

const prefix: Readonly<Record<DiffLine['kind'], string>> = { add: '+ ', del: '- ', ctx: '  ', fold: '  ' };

function Diff(props: { from: string; to: string }) {
  return (
    <pre class="diff" data-testid="diff">
      {diffRevisions(props.from, props.to).map((l, i) => (
        <span key={i} class={l.kind}>
          {prefix[l.kind]}
          {l.text}
        </span>
      ))}
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
        const pair = defaultComparison(h.items.length);
        setFrom(pair.from);
        setTo(pair.to);
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
        <Diff from={revisionText(items[from]?.object)} to={revisionText(items[to]?.object)} />
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
              {i > 0 && <Diff from={revisionText(items[i - 1]?.object)} to={revisionText(r.object)} />}
            </li>
          ))
          .reverse()}
      </ol>
    </div>
  );
}
