// Hash routes, so the server serves one page: #/, #/events, #/test, #/r/GROUP/RESOURCE?ns=&l=&f=,
// #/o/GROUP/RESOURCE/NAMESPACE/NAME?tab= (GROUP "core" for the core group, NAMESPACE "-" if none).
import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { page: 'resources' }
  | { page: 'events' }
  | { page: 'test' }
  | { page: 'list'; group: string; resource: string; query: URLSearchParams }
  | { page: 'object'; group: string; resource: string; namespace: string; name: string; tab: string };

const dec = decodeURIComponent;
const groupIn = (g: string): string => (g === 'core' ? '' : g);

export function parseRoute(hash: string): Route {
  const [path = '', q = ''] = hash.replace(/^#/, '').split('?');
  const query = new URLSearchParams(q);
  const parts = path.split('/').filter((p) => p !== '');
  if (parts[0] === 'events') return { page: 'events' };
  if (parts[0] === 'test') return { page: 'test' };
  if (parts[0] === 'r' && parts.length === 3)
    return { page: 'list', group: groupIn(dec(parts[1] ?? '')), resource: dec(parts[2] ?? ''), query };
  if (parts[0] === 'o' && parts.length === 5) {
    const ns = dec(parts[3] ?? '-');
    return {
      page: 'object',
      group: groupIn(dec(parts[1] ?? '')),
      resource: dec(parts[2] ?? ''),
      namespace: ns === '-' ? '' : ns,
      name: dec(parts[4] ?? ''),
      tab: query.get('tab') ?? 'yaml',
    };
  }
  return { page: 'resources' };
}

const enc = encodeURIComponent;
const groupOut = (g: string): string => (g === '' ? 'core' : g);

export function listHref(group: string, resource: string, query?: URLSearchParams): string {
  const q = query?.toString() ?? '';
  return `#/r/${enc(groupOut(group))}/${enc(resource)}${q === '' ? '' : `?${q}`}`;
}

export function objectHref(
  o: { group: string; resource: string; namespace: string; name: string },
  tab?: string,
): string {
  const ns = o.namespace === '' ? '-' : o.namespace;
  return `#/o/${enc(groupOut(o.group))}/${enc(o.resource)}/${enc(ns)}/${enc(o.name)}${tab === undefined ? '' : `?tab=${tab}`}`;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = (): void => {
      setRoute(parseRoute(location.hash));
    };
    addEventListener('hashchange', on);
    return () => {
      removeEventListener('hashchange', on);
    };
  }, []);
  return route;
}
