// Which reads the cache answers and which go to storage (kube's delegator.ShouldDelegateList and the
// CacheDelegator without snapshots). The cache keeps no past states, so Exact reads and continue
// tokens (which read at the token's revision) go to storage; a continue token the cache issued is in
// storage's format, so storage carries on where the cache's first page stopped.
import type { KubeObject } from '../../api/meta.js';
import type { ListOptions } from '../interfaces.js';

export const listRoutes = ['storage', 'cache', 'consistent'] as const;
/** storage: delegate; cache: serve from the cache at the given minimum; consistent: serve from the
 * cache once it has caught up with storage's current revision, else fall back to storage. */
export type ListRoute = (typeof listRoutes)[number];

export function listRoute<T extends KubeObject>(opts: ListOptions<T>): ListRoute {
  const rv = opts.resourceVersion ?? '';
  switch (opts.resourceVersionMatch ?? '') {
    case 'Exact':
      return 'storage';
    case 'NotOlderThan':
      return 'cache';
    case '':
      if ((opts.continue ?? '') !== '') return 'storage';
      // Legacy: a limited list at a resourceVersion is an exact read.
      if ((opts.limit ?? 0) > 0 && rv !== '' && rv !== '0') return 'storage';
      return rv === '' ? 'consistent' : 'cache';
    default:
      return 'storage';
  }
}

/** While the cache is not ready, unfiltered paged lists go to storage; the rest get 429. */
export function listOnNotReadyCache<T extends KubeObject>(opts: ListOptions<T>): boolean {
  const unfiltered = opts.predicate === undefined || opts.predicate.empty();
  return unfiltered && (opts.limit ?? 0) > 0;
}

/** kube's computeListLimit: the cache ignores the limit of a list at resourceVersion "0". */
export function cacheListLimit<T extends KubeObject>(opts: ListOptions<T>): number {
  const limit = opts.limit ?? 0;
  return limit <= 0 || opts.resourceVersion === '0' ? 0 : limit;
}
