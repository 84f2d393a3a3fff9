// A list page's URL query (#/r/GROUP/RESOURCE?ns=&l=&f=) and the API query it asks for: the label
// and field selector inputs as typed (kube parses them and answers 400 to a bad one), blanks dropped.

/** The query's selectors as the list and watch request's parameters. */
export function selectorQuery(query: URLSearchParams): string {
  const q = new URLSearchParams();
  const l = (query.get('l') ?? '').trim();
  const f = (query.get('f') ?? '').trim();
  if (l !== '') q.set('labelSelector', l);
  if (f !== '') q.set('fieldSelector', f);
  return q.toString();
}

/** The page's query with `changes` applied; an empty (or blank) value removes its key. */
export function withChanges(
  query: URLSearchParams,
  changes: Readonly<Record<string, string>>,
): URLSearchParams {
  const q = new URLSearchParams(query);
  for (const [k, v] of Object.entries(changes))
    if (v.trim() === '') q.delete(k);
    else q.set(k, v.trim());
  return q;
}

/** The list request, then the watch from its resourceVersion, with the selectors on both. */
export function listAndWatchPaths(
  path: string,
  selectors: string,
): { list: string; watch: (rv: string) => string } {
  const sep = selectors === '' ? '?' : `?${selectors}&`;
  return {
    list: selectors === '' ? path : `${path}?${selectors}`,
    watch: (rv) => `${path}${sep}watch=1&resourceVersion=${encodeURIComponent(rv)}&allowWatchBookmarks=true`,
  };
}
