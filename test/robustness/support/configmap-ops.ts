// The recorded operations as HTTP requests on ConfigMaps of one namespace, each object labelled so
// lists and watches see only the suite's objects, its value in data.v. An answer is definite (ok,
// AlreadyExists, Conflict, NotFound) or, for anything else (a timeout, a broken connection, a 5xx, a
// 429), unknown: the write may or may not have happened.
import type { KvInput, KvOutput, ListItem } from './history.js';
import type { KubeClient, Reply } from './kube-client.js';

export const suiteLabel = 'robustness-suite';

export interface ConfigMapLike {
  readonly metadata?: { readonly name?: string; readonly resourceVersion?: string };
  readonly data?: Record<string, string>;
}

export function toItem(obj: ConfigMapLike): ListItem {
  return {
    key: obj.metadata?.name ?? '',
    value: obj.data?.['v'] ?? '',
    rv: Number(obj.metadata?.resourceVersion ?? 0),
  };
}

function classify(reply: Reply, kind: KvInput['kind']): KvOutput {
  const reason = typeof reply.body['reason'] === 'string' ? reply.body['reason'] : '';
  if (reply.status === 200 || reply.status === 201) {
    if (reply.body['kind'] === 'Status') return { type: 'ok', rv: 0, value: '' };
    const item = toItem(reply.body);
    return { type: 'ok', rv: item.rv, value: item.value };
  }
  if (reply.status === 404) return { type: 'notFound' };
  if (reply.status === 409 && reason === 'AlreadyExists' && kind === 'create') return { type: 'exists' };
  if (reply.status === 409 && reason === 'Conflict' && kind !== 'create') return { type: 'conflict' };
  const message = typeof reply.body['message'] === 'string' ? reply.body['message'].slice(0, 200) : '';
  return { type: 'unknown', error: `${reply.status} ${reason} ${message}`.trim() };
}

function body(ns: string, input: KvInput): Record<string, unknown> {
  const metadata: Record<string, unknown> = {
    name: input.key,
    namespace: ns,
    labels: { [suiteLabel]: 'yes' },
  };
  if (input.precondition !== undefined) metadata['resourceVersion'] = String(input.precondition);
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { v: input.value ?? '' } };
}

/** Sends one operation and classifies its answer; never rejects. */
export async function perform(client: KubeClient, ns: string, input: KvInput): Promise<KvOutput> {
  const base = `/api/v1/namespaces/${ns}/configmaps`;
  try {
    switch (input.kind) {
      case 'create':
        return classify(await client.request('POST', base, body(ns, input)), 'create');
      case 'update':
        return classify(await client.request('PUT', `${base}/${input.key}`, body(ns, input)), 'update');
      case 'delete': {
        const pre =
          input.precondition === undefined
            ? {}
            : { preconditions: { resourceVersion: String(input.precondition) } };
        const opts = { apiVersion: 'v1', kind: 'DeleteOptions', ...pre };
        const out = classify(await client.request('DELETE', `${base}/${input.key}`, opts), 'delete');
        // A conflict without a precondition is the server's own retry giving up: no definite answer.
        return out.type === 'conflict' && input.precondition === undefined
          ? { type: 'unknown', error: '409' }
          : out;
      }
      case 'get':
        return classify(await client.request('GET', `${base}/${input.key}`), 'get');
    }
  } catch (err) {
    return { type: 'unknown', error: err instanceof Error ? err.message : String(err) };
  }
}

export interface ListResult {
  readonly rv: number;
  readonly items: ListItem[];
  readonly pages: number;
}

/** A list in pages of `limit`, all at the first page's revision; undefined when any page fails. */
export async function listAll(
  client: KubeClient,
  ns: string,
  limit: number,
): Promise<ListResult | undefined> {
  const items: ListItem[] = [];
  let cont = '';
  let rv = 0;
  for (let pages = 1; ; pages++) {
    const q = `labelSelector=${suiteLabel}%3Dyes&limit=${limit}${cont === '' ? '' : `&continue=${encodeURIComponent(cont)}`}`;
    const reply = await client
      .request('GET', `/api/v1/namespaces/${ns}/configmaps?${q}`)
      .catch(() => undefined);
    if (reply?.status !== 200) return undefined;
    const meta = (reply.body['metadata'] ?? {}) as { resourceVersion?: string; continue?: string };
    if (pages === 1) rv = Number(meta.resourceVersion ?? 0);
    for (const obj of (reply.body['items'] ?? []) as ConfigMapLike[]) items.push(toItem(obj));
    cont = meta.continue ?? '';
    if (cont === '') return { rv, items, pages };
  }
}
