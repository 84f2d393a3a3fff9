// A list served from the cache (kube's Cacher.GetList after WaitUntilFreshAndGetList): items in key
// order, narrowed first by the smallest index the selector pins exactly, then filtered; pages end
// with a continue token in storage's format (storage.PrepareContinueToken), so storage can serve the
// following pages at the same revision.
import type { KubeList, KubeObject, ListMeta } from '../../api/meta.js';
import { encodeContinue } from '../continue-token.js';
import type { ListOptions, SelectionPredicate, Versioner } from '../interfaces.js';
import { cacheListLimit } from './delegator.js';
import { matchesElement } from './elements.js';
import type { KeyedStore } from './keyed-store.js';
import type { StoreElement } from './watch-cache-event.js';

export interface ListContext<T extends KubeObject> {
  readonly store: KeyedStore<T>;
  readonly resourceVersion: number;
  readonly versioner: Versioner;
}

/** The prepared key: a prefix ending in '/' when recursive, else one exact key. */
export interface ListScope {
  readonly key: string;
  readonly recursive: boolean;
}

/** The elements under the scope, from the narrowest exact-match index if the selector allows one. */
export function candidates<T extends KubeObject>(
  store: KeyedStore<T>,
  scope: ListScope,
  pred: SelectionPredicate<T> | undefined,
): Iterable<StoreElement<T>> {
  if (!scope.recursive) {
    const el = store.get(scope.key);
    return el === undefined ? [] : [el];
  }
  let best: [string, string, number] | null = null;
  for (const [field, value] of pred?.exactFields?.() ?? []) {
    if (!store.hasIndex(field)) continue;
    const size = store.indexSize(field, value);
    if (best === null || size < best[2]) best = [field, value, size];
  }
  if (best === null) return store.range(scope.key);
  return store.byIndex(best[0], best[1]).filter((el) => el.key.startsWith(scope.key));
}

/** A list's elements and metadata, as the cache answers it. */
export interface CachedList<T extends KubeObject> {
  readonly metadata: ListMeta;
  readonly elements: readonly StoreElement<T>[];
}

export function listFromCache<T extends KubeObject>(
  ctx: ListContext<T>,
  scope: ListScope,
  opts: ListOptions<T>,
): CachedList<T> {
  const pred = opts.predicate !== undefined && !opts.predicate.empty() ? opts.predicate : undefined;
  const limit = cacheListLimit(opts);
  const elements: StoreElement<T>[] = [];
  let lastKey = '';
  let hasMore = false;
  for (const el of candidates(ctx.store, scope, pred)) {
    if (limit > 0 && elements.length >= limit) {
      // Reaching an element past a full page is how a continuation is known to be needed.
      hasMore = true;
      break;
    }
    if (matchesElement(pred, el)) {
      elements.push(el);
      lastKey = el.key;
    }
  }
  const list: KubeList = { metadata: {}, items: [] };
  if (!hasMore) {
    ctx.versioner.updateList(list, { rev: ctx.resourceVersion });
    return { metadata: list.metadata, elements };
  }
  const next = encodeContinue(`${lastKey}\0`, scope.key, ctx.resourceVersion);
  const meta: { rev: number; continue: string; remainingItemCount?: number } = {
    rev: ctx.resourceVersion,
    continue: next,
  };
  if (pred === undefined) meta.remainingItemCount = ctx.store.count(scope.key) - elements.length;
  ctx.versioner.updateList(list, meta);
  return { metadata: list.metadata, elements };
}
