// The test API's controls when the server serves it (--enable-test-api): the clock (advance a
// virtual one), snapshots (take, restore) and the request log, newest first.
import { useEffect, useState } from 'preact/hooks';
import { apiGet, getToken } from '../api.js';

interface Clock {
  now: string;
  virtual: boolean;
}
interface Snapshot {
  name: string;
  takenAt: number;
  keys: number;
}
interface RequestRecord {
  verb: string;
  path: string;
  user: string;
  code: number;
  latencyMs: number;
  receivedAt: number;
}

const base = '/capstan/v1/';

async function post(path: string, body?: unknown): Promise<void> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${getToken() ?? ''}`, 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  if (!res.ok) throw new Error(((await res.json()) as { message?: string }).message ?? res.statusText);
}

/** Whether the test API answers this user (it is for system:masters, with --enable-test-api). */
export const testAPIServed = (): Promise<boolean> =>
  apiGet<Clock>(`${base}clock`).then(
    () => true,
    () => false,
  );

export function TestAPIPage() {
  const [clock, setClock] = useState<Clock | undefined>();
  const [snapshots, setSnapshots] = useState<Snapshot[]>([]);
  const [requests, setRequests] = useState<RequestRecord[]>([]);
  const [error, setError] = useState('');
  const [tick, setTick] = useState(0);
  const act = (f: () => Promise<void>) => () => {
    f().then(
      () => {
        setTick((n) => n + 1);
      },
      (err: unknown) => {
        setError((err as Error).message);
      },
    );
  };
  useEffect(() => {
    void Promise.all([
      apiGet<Clock>(`${base}clock`).then(setClock),
      apiGet<{ items: Snapshot[] }>(`${base}snapshots`).then((l) => {
        setSnapshots(l.items);
      }),
      apiGet<{ items: RequestRecord[] }>(`${base}requests`).then((l) => {
        setRequests(l.items.slice(-200).reverse());
      }),
    ]).catch((err: unknown) => {
      setError((err as Error).message);
    });
  }, [tick]);
  return (
    <div class="page" data-testid="test-api-page">
      <h1>Test controls</h1>
      {error !== '' && <p class="error">{error}</p>}
      <section>
        <h2>Clock</h2>
        <p>
          {clock?.now} {clock?.virtual === true ? '(virtual)' : '(real)'}{' '}
          {clock?.virtual === true && (
            <button onClick={act(() => post('clock/advance', { by: '1m' }))}>+1 minute</button>
          )}
        </p>
      </section>
      <section>
        <h2>Snapshots</h2>
        <button onClick={act(() => post('snapshots'))}>Take a snapshot</button>
        <ul>
          {snapshots.map((s) => (
            <li key={s.name}>
              {s.name} · {new Date(s.takenAt).toISOString()} · {s.keys} keys{' '}
              <button onClick={act(() => post(`snapshots/${encodeURIComponent(s.name)}/restore`))}>
                Restore
              </button>
            </li>
          ))}
        </ul>
      </section>
      <section>
        <h2>
          Request log <button onClick={act(() => Promise.resolve())}>Refresh</button>
        </h2>
        <table class="events">
          <thead>
            <tr>
              <th>Time</th>
              <th>User</th>
              <th>Verb</th>
              <th>Path</th>
              <th>Code</th>
              <th>ms</th>
            </tr>
          </thead>
          <tbody>
            {requests.map((r, i) => (
              <tr key={i}>
                <td>{new Date(r.receivedAt).toISOString()}</td>
                <td>{r.user}</td>
                <td>{r.verb}</td>
                <td>{r.path}</td>
                <td>{r.code}</td>
                <td>{r.latencyMs.toFixed(1)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
