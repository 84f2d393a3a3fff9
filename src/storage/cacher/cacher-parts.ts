// The Cacher's moving parts and how they are wired: the reflector feeds the dispatcher, which applies
// each change to the watch cache and fans it out; readiness follows the reflector's cycles.
import type { KubeObject } from '../../api/meta.js';
import { groupResourceString } from '../../machinery/schema/group-resource.js';
import { BookmarkScheduler } from './bookmarks.js';
import { cacheName, type CacheSeed } from './cache-seeds.js';
import { Dispatcher } from './dispatcher.js';
import { FreshWaiters } from './fresh-waiters.js';
import type { IndexFunc } from './keyed-store.js';
import type { ElementRules } from './elements.js';
import type { CompletedCacherConfig } from './options.js';
import { Ready } from './ready.js';
import { Reflector, type ReflectorHandler } from './reflector.js';
import { WatchCache } from './watch-cache.js';
import { WatcherIndex } from './watcher-index.js';

export interface CacherParts<T extends KubeObject> {
  readonly ready: Ready;
  readonly cache: WatchCache<T>;
  readonly waiters: FreshWaiters;
  readonly index: WatcherIndex<T>;
  readonly dispatcher: Dispatcher<T>;
  readonly bookmarks: BookmarkScheduler<T>;
  readonly reflector: Reflector<T>;
  /** Ends every watcher (they close; clients relist or rewatch). */
  terminateAll(): void;
  stop(): Promise<void>;
}

/** Indexes the store keeps: namespace and name always, then the trigger and the configured indexers. */
function indexFuncs<T extends KubeObject>(config: CompletedCacherConfig<T>): Map<string, IndexFunc<T>> {
  const out = new Map<string, IndexFunc<T>>();
  for (const field of ['metadata.namespace', 'metadata.name']) {
    out.set(field, (el) => {
      const value = el.attrs.fields[field];
      return value === undefined ? [] : [value];
    });
  }
  const names = [...(config.trigger === null ? [] : [config.trigger.field]), ...Object.keys(config.indexers)];
  for (const name of names) out.set(name, (el) => el.indexValues[name] ?? []);
  return out;
}

/** At most this many trigger values keep one shared index-values object each (node names, as a rule). */
const maxSharedTriggerValues = 4096;

/** How arriving objects become elements: the configured key, attributes and index functions. */
function elementRules<T extends KubeObject>(config: CompletedCacherConfig<T>): ElementRules<T> {
  const { trigger, indexers } = config;
  const indexerEntries = Object.entries(indexers);
  // With the trigger alone (pods: spec.nodeName), elements of one value share one frozen object:
  // most pods of a cache hold one of a few values, and each object of their own cost ~140 bytes.
  const byTriggerValue = new Map<string, Readonly<Record<string, readonly string[]>>>();
  return {
    keyFunc: config.keyFunc,
    getAttrsFunc: config.getAttrsFunc,
    versioner: config.versioner,
    decode: config.decode ?? undefined,
    indexValues: (obj) => {
      if (trigger !== null && indexerEntries.length === 0) {
        const value = trigger.func(obj);
        let shared = byTriggerValue.get(value);
        if (shared === undefined) {
          shared = Object.freeze({ [trigger.field]: Object.freeze([value]) });
          if (byTriggerValue.size < maxSharedTriggerValues) byTriggerValue.set(value, shared);
        }
        return shared;
      }
      const out: Record<string, readonly string[]> = {};
      if (trigger !== null) out[trigger.field] = [trigger.func(obj)];
      for (const [name, func] of indexerEntries) out[name] = func(obj);
      return out;
    },
  };
}

function failureMessage(resource: string, err: unknown): string {
  const why = err instanceof Error ? err.message : String(err);
  return `cacher (${resource}): unexpected ListAndWatch error: ${why}; reinitializing...`;
}

/** The reflector's side: every change becomes a dispatcher step, in order. */
function reflectorHandler<T extends KubeObject>(parts: {
  readonly dispatcher: Dispatcher<T>;
  readonly cache: WatchCache<T>;
  readonly ready: Ready;
  readonly terminateAll: () => void;
  readonly log: (err: unknown) => void;
}): ReflectorHandler<T> {
  const { dispatcher, cache, ready } = parts;
  return {
    replace: (items, rv) =>
      dispatcher.enqueue(() => {
        cache.replace(items, rv);
        ready.setReady();
        return null;
      }),
    seed: (state, rv) =>
      dispatcher.enqueue(() => {
        cache.seed(state, rv);
        ready.setReady();
        return null;
      }),
    change: (type, arrival) => dispatcher.enqueue(() => cache.apply(type, arrival)),
    progress: (rv) =>
      dispatcher.enqueue(() => {
        cache.bookmark(rv);
        return null;
      }),
    failed: (err) => {
      parts.log(err);
      ready.setPending();
      parts.terminateAll();
    },
  };
}

/** The watch cache, and the waiters for its freshness (which ask storage for progress while waiting). */
function freshCache<T extends KubeObject>(
  config: CompletedCacherConfig<T>,
): { cache: WatchCache<T>; waiters: FreshWaiters } {
  const { timing, storage } = config;
  const requestProgress = (): void => {
    storage.requestWatchProgress().catch(() => undefined);
  };
  const waiters = new FreshWaiters(
    {
      timeoutMs: timing.waitForFreshMs,
      progressIntervalMs: timing.progressRequestIntervalMs,
      requestProgress,
    },
    () => cache.resourceVersion,
  );
  const cache = new WatchCache<T>({
    rules: elementRules(config),
    indexFuncs: indexFuncs(config),
    window: {
      lowerBound: config.cacheSize,
      upperBound: config.maxCacheSize,
      freshDurationMs: timing.eventFreshDurationMs,
    },
    onAdvance: (rv) => {
      waiters.advanced(rv);
    },
  });
  return { cache, waiters };
}

/** The cache's place among its server's for test snapshots: the seed it starts from, and how to leave. */
function attachSeeds<T extends KubeObject>(
  config: CompletedCacherConfig<T>,
  parts: { readonly cache: WatchCache<T>; readonly ready: Ready },
): { seed: CacheSeed | undefined; detach: () => void } {
  if (config.seeds === null || config.backendKeyPrefix === null)
    return { seed: undefined, detach: () => undefined };
  const keyPrefix = config.backendKeyPrefix;
  const { cache, ready } = parts;
  const name = cacheName(groupResourceString(config.groupResource), config.resourcePrefix);
  return config.seeds.attach(name, () =>
    ready.state === 'ready'
      ? { resourceVersion: cache.resourceVersion, keyPrefix, store: cache.store.state() }
      : undefined,
  );
}

export function cacherParts<T extends KubeObject>(config: CompletedCacherConfig<T>): CacherParts<T> {
  const { timing, storage, versioner } = config;
  const ready = new Ready();
  const index = new WatcherIndex<T>();
  const { cache, waiters } = freshCache(config);
  const { seed, detach } = attachSeeds(config, { cache, ready });
  const resource = groupResourceString(config.groupResource);
  const log = (err: unknown): void => {
    config.log(failureMessage(resource, err));
  };
  const dispatcher = new Dispatcher<T>({ index, trigger: config.trigger, onStepError: log });
  const bookmarks = new BookmarkScheduler<T>({
    frequencyMs: timing.bookmarkFrequencyMs,
    tickMs: timing.bookmarkTickMs,
    newFunc: config.newFunc,
    versioner,
    resourceVersion: () => cache.resourceVersion,
    idle: () => dispatcher.idle,
    clock: config.clock,
  });
  const terminateAll = (): void => {
    for (const w of [...index.all()]) w.terminate();
  };
  const reflector = new Reflector<T>({
    storage,
    versioner,
    resourcePrefix: config.resourcePrefix,
    handler: reflectorHandler({ dispatcher, cache, ready, terminateAll, log }),
    backoffMs: timing.relistBackoffMs,
    backoffMaxMs: timing.relistBackoffMaxMs,
    ...(seed === undefined ? {} : { seed }),
  });
  const stop = async (): Promise<void> => {
    detach();
    ready.stop();
    terminateAll();
    bookmarks.close();
    waiters.close(new Error('apiserver cacher is stopped'));
    await reflector.close();
    dispatcher.close();
  };
  return { ready, cache, waiters, index, dispatcher, bookmarks, reflector, terminateAll, stop };
}
