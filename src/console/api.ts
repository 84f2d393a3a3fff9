// Every read goes through the public API with the user's bearer token (RBAC applies), kept for the
// browser tab's session only.
const tokenKey = 'capstan.token';

export const tableAccept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';

export const getToken = (): string | null => sessionStorage.getItem(tokenKey);
export const setToken = (t: string): void => {
  sessionStorage.setItem(tokenKey, t);
};
export const clearToken = (): void => {
  sessionStorage.removeItem(tokenKey);
};

export class ApiError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

function headers(accept?: string): Record<string, string> {
  const h: Record<string, string> = { accept: accept ?? 'application/json' };
  const t = getToken();
  if (t !== null) h['authorization'] = `Bearer ${t}`;
  return h;
}

export async function apiGet<T>(path: string, accept?: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(path, { headers: headers(accept), ...(signal ? { signal } : {}) });
  const body = (await res.json().catch(() => ({}))) as { message?: string };
  if (!res.ok) throw new ApiError(res.status, body.message ?? res.statusText);
  return body as T;
}

/** Trades a one-time login code (from the link `npm start` prints) for a token. */
export async function redeemLogin(code: string): Promise<void> {
  const res = await fetch('login', { method: 'POST', body: JSON.stringify({ code }) });
  const body = (await res.json()) as { token?: string; message?: string };
  if (!res.ok || body.token === undefined) throw new ApiError(res.status, body.message ?? 'login failed');
  setToken(body.token);
}

export interface WatchEvent<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

/** Streams a watch's events until `signal` aborts or the server ends it. */
export async function watch<T>(
  path: string,
  opts: { accept?: string; signal: AbortSignal; onEvent: (e: WatchEvent<T>) => void },
): Promise<void> {
  const res = await fetch(path, { headers: headers(opts.accept), signal: opts.signal });
  if (!res.ok || res.body === null) throw new ApiError(res.status, res.statusText);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    const { lines, rest } = takeLines(buf + value);
    buf = rest;
    for (const line of lines) opts.onEvent(JSON.parse(line) as WatchEvent<T>);
  }
}

/** The complete, non-blank lines of a watch stream read so far, and the partial line after them. */
export function takeLines(buf: string): { lines: string[]; rest: string } {
  const end = buf.lastIndexOf('\n');
  if (end < 0) return { lines: [], rest: buf };
  const lines = buf
    .slice(0, end)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return { lines, rest: buf.slice(end + 1) };
}

export const groupVersionPath = (group: string, version: string): string =>
  group === '' ? `/api/${version}` : `/apis/${group}/${version}`;

/** The path of a resource's collection or item, in a namespace or across all of them. */
export function resourcePath(
  r: { group: string; version: string; name: string; namespaced: boolean },
  ns: string,
  name?: string,
): string {
  const base = groupVersionPath(r.group, r.version);
  const scoped =
    r.namespaced && ns !== ''
      ? `${base}/namespaces/${encodeURIComponent(ns)}/${r.name}`
      : `${base}/${r.name}`;
  return name === undefined ? scoped : `${scoped}/${encodeURIComponent(name)}`;
}
