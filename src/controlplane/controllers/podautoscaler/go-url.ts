// How client-go spells the URLs of the metrics clients: path segments escaped as Go's url.URL
// escapes a path (a `*` becomes %2A), and parameters as url.Values.Encode writes them (keys sorted,
// QueryEscape: a space is `+`); empty parameters are left out, as omitempty options are.

import { goQueryEscape } from '../../../machinery/url/go-url.js';

export { goPathEscape } from '../../../machinery/url/go-url.js';

/** `?k=v&…` of the non-empty parameters, keys sorted; '' when there are none. */
export function goQuery(params: Readonly<Record<string, string>>): string {
  const pairs = Object.keys(params)
    .filter((k) => params[k] !== '')
    .sort()
    .map((k) => `${goQueryEscape(k)}=${goQueryEscape(params[k] ?? '')}`);
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}
