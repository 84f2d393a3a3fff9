// How a watch served from the cache starts (kube's Cacher.Watch after the readiness check): where it
// starts, what it is sent first, which watchers bucket it goes in and how deep its queue is.
import type { KubeObject } from '../../api/meta.js';
import { newInternalError, StatusError } from '../../machinery/errors/index.js';
import type { Interface, ListOptions, Versioner, WatchEvent } from '../interfaces.js';
import { WatchChan } from '../watch-chan.js';
import { initialEventsEndBookmark } from './bookmarks.js';
import { kindFor } from './cache-watcher.js';
import { candidates } from './list-from-cache.js';
import type { KeyedStore } from './keyed-store.js';
import { lazyWatchEvent, type StoreElement, type WatchCacheEvent } from './watch-cache-event.js';
import type { WatcherSlot } from './watcher-index.js';

/**
 * The resourceVersion the cache must have reached for the watch (kube's
 * getWatchCacheResourceVersion): the one asked for; 0 (any) for a legacy watch without one; the
 * storage's current revision for a watch-list without one.
 */
export async function requiredResourceVersion<T extends KubeObject>(
  storage: Interface<T>,
  requested: number,
  opts: ListOptions<T>,
): Promise<number> {
  if ((opts.resourceVersion ?? '') !== '') return requested;
  if (opts.sendInitialEvents === undefined) return 0;
  return storage.currentResourceVersion();
}

/** Whether the watch starts with the current objects as ADDED rather than a replay of the window. */
export function startsFromState<T extends KubeObject>(opts: ListOptions<T>, required: number): boolean {
  return opts.sendInitialEvents ?? required === 0;
}

/** kube's suggestedWatchChannelSize, doubled: kube buffers both a watcher's input and its output. */
export function watcherCapacity(
  windowCapacity: number,
  opts: { readonly freshSeconds: number; readonly triggerConfigured: boolean; readonly triggerUsed: boolean },
): number {
  const byHistory = Math.max(10, Math.ceil(windowCapacity / opts.freshSeconds));
  const max = !opts.triggerConfigured ? 100 : opts.triggerUsed ? 10 : 1000;
  return 2 * Math.min(byHistory, max);
}

/** The slot a watcher registers in: its trigger value when its selector pins the trigger field. */
export function watcherSlot<T extends KubeObject>(
  trigger: { readonly field: string } | null,
  scope: { readonly key: string; readonly recursive: boolean },
  opts: ListOptions<T>,
): WatcherSlot {
  const exact = opts.predicate?.exactFields?.() ?? new Map<string, string>();
  const value = trigger === null ? undefined : exact.get(trigger.field);
  if (value !== undefined) return { kind: 'trigger', value };
  return {
    kind: 'scope',
    scope: scope.key,
    recursive: scope.recursive,
    name: exact.get('metadata.name') ?? null,
  };
}

export interface InitialEventsSource<T extends KubeObject> {
  readonly store: KeyedStore<T>;
  readonly versioner: Versioner;
  readonly newFunc: () => KubeObject;
}

/** The current objects under the scope that the watcher selects, as ADDED events, sent lazily. */
export function* stateEvents<T extends KubeObject>(
  elements: readonly StoreElement<T>[],
  matches: (el: StoreElement<T>) => boolean,
): Generator<WatchEvent<T>> {
  for (const el of elements) if (matches(el)) yield lazyWatchEvent<T>('ADDED', el, false);
}

/** A replay of buffered events as this watcher sees them. */
export function* replayEvents<T extends KubeObject>(
  events: readonly WatchCacheEvent<T>[],
  matches: (el: StoreElement<T>) => boolean,
): Generator<WatchEvent<T>> {
  for (const ev of events) {
    const kind = kindFor(ev, matches);
    if (kind !== null) yield ev.watchEvent(kind, { shared: false });
  }
}

/** A snapshot of the elements a from-state watch starts with (taken now; sent later). */
export function snapshotElements<T extends KubeObject>(
  source: InitialEventsSource<T>,
  scope: { readonly key: string; readonly recursive: boolean },
  opts: ListOptions<T>,
): StoreElement<T>[] {
  const pred = opts.predicate !== undefined && !opts.predicate.empty() ? opts.predicate : undefined;
  return Array.from(candidates(source.store, scope, pred));
}

export function* withEndBookmark<T extends KubeObject>(
  events: Iterable<WatchEvent<T>>,
  end: { source: InitialEventsSource<T>; rv: number } | null,
): Generator<WatchEvent<T>> {
  yield* events;
  if (end !== null) yield initialEventsEndBookmark<T>(end.source, end.rv);
}

/** A watch that sends one ERROR event and ends (kube's errWatcher). */
export function errorWatch<T extends KubeObject>(err: unknown): WatchChan<T> {
  const chan = new WatchChan<T>();
  const status = err instanceof StatusError ? err.status : newInternalError(err).status;
  chan.close({ type: 'ERROR', object: status });
  return chan;
}

/** A watch that ends at once without events (kube's immediateCloseWatcher). */
export function endedWatch<T extends KubeObject>(): WatchChan<T> {
  const chan = new WatchChan<T>();
  chan.close();
  return chan;
}
