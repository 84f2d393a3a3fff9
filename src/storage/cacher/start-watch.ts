// Cacher.Watch once the cache is ready: settle the starting resourceVersion (waiting for freshness
// when a watch-list asks for it), then, in one synchronous step, take the initial events and register
// the watcher, so no change falls between the two and none is seen twice.
import type { KubeObject } from '../../api/meta.js';
import type { ListOptions, Watch } from '../interfaces.js';
import { CacheWatcher } from './cache-watcher.js';
import type { CacherParts } from './cacher-parts.js';
import type { CompletedCacherConfig } from './options.js';
import {
  endedWatch,
  errorWatch,
  replayEvents,
  requiredResourceVersion,
  snapshotElements,
  startsFromState,
  stateEvents,
  watcherCapacity,
  watcherSlot,
  withEndBookmark,
} from './watch-start.js';

export interface WatchRequest<T extends KubeObject> {
  /** The prepared key: a prefix ending in '/' when recursive, else one exact key. */
  readonly scope: { readonly key: string; readonly recursive: boolean };
  readonly requested: number;
  readonly opts: ListOptions<T>;
}

function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

export async function startWatch<T extends KubeObject>(
  config: CompletedCacherConfig<T>,
  parts: CacherParts<T>,
  req: WatchRequest<T>,
): Promise<Watch<T>> {
  const { opts } = req;
  if (aborted(opts.signal)) return endedWatch();
  const generation = parts.ready.generation;
  let required: number;
  try {
    required = await requiredResourceVersion(config.storage, req.requested, opts);
    if (opts.sendInitialEvents === true) await parts.waiters.wait(required, opts);
  } catch (err) {
    // Once the request is accepted, failures travel as an ERROR event, as storage's watch does.
    return aborted(opts.signal) ? endedWatch() : errorWatch(err);
  }
  // The cache went unready (or relisted) meanwhile: the watch would be ended at once anyway.
  if (parts.ready.check() !== null || parts.ready.generation !== generation) return endedWatch();
  try {
    return register(config, parts, { ...req, required });
  } catch (err) {
    return errorWatch(err);
  }
}

function register<T extends KubeObject>(
  config: CompletedCacherConfig<T>,
  parts: CacherParts<T>,
  req: WatchRequest<T> & { readonly required: number },
): CacheWatcher<T> {
  const { scope, opts, required } = req;
  const { cache, index, bookmarks } = parts;
  const cacheRv = cache.resourceVersion;
  const fromState = startsFromState(opts, required);
  // Throws 410 for a start older than the window can replay.
  const replay = fromState ? [] : cache.eventsSince(required === 0 ? cacheRv : required);
  const slot = watcherSlot(config.trigger, scope, opts);
  const capacity = watcherCapacity(cache.window.capacity, {
    freshSeconds: config.timing.eventFreshDurationMs / 1000,
    triggerConfigured: config.trigger !== null,
    triggerUsed: slot.kind === 'trigger',
  });
  const onAbort = (): void => {
    watcher.stop();
  };
  const watcher: CacheWatcher<T> = new CacheWatcher<T>({
    scope: scope.key,
    recursive: scope.recursive,
    predicate: opts.predicate !== undefined && !opts.predicate.empty() ? opts.predicate : undefined,
    capacity,
    allowBookmarks: opts.progressNotify === true,
    deadline: opts.deadline,
    minResourceVersion: Math.max(required, cacheRv),
    forget: () => {
      index.remove(watcher, slot);
      bookmarks.remove(watcher);
      opts.signal?.removeEventListener('abort', onAbort);
    },
  });
  const source = { store: cache.store, versioner: config.versioner, newFunc: config.newFunc };
  const initial = fromState
    ? stateEvents(snapshotElements(source, scope, opts), watcher.matches)
    : replayEvents(replay, watcher.matches);
  const endsInitial = opts.sendInitialEvents === true && opts.progressNotify === true;
  watcher.setInitial(withEndBookmark(initial, endsInitial ? { source, rv: cacheRv } : null));
  index.add(watcher, slot);
  bookmarks.add(watcher);
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  return watcher;
}
