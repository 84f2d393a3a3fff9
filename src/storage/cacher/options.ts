// The Cacher's configuration (kube's cacher.Config plus the watch cache's timing constants), validated
// once by completeCacherConfig() and frozen.
import type { KubeList, KubeObject } from '../../api/meta.js';
import type { GroupResource } from '../../machinery/schema/group-resource.js';
import type { Interface, ObjectAttrs, Versioner } from '../interfaces.js';
import { systemClock, type Clock } from '../../machinery/time/clock.js';
import type { CacheSeeds } from './cache-seeds.js';
import { RecentWrites } from './recent-writes.js';

export type { ObjectAttrs };

export type AttrFunc<T extends KubeObject = KubeObject> = (obj: T) => ObjectAttrs;

/** Timing knobs; kube's values are the defaults, tests shrink them. */
export interface CacherTiming {
  /** How long a read waits for the cache to reach a resourceVersion (kube's blockTimeout, 3 s). */
  readonly waitForFreshMs?: number;
  /** How often a bookmark-enabled watcher gets a BOOKMARK (kube's defaultBookmarkFrequency, 1 min). */
  readonly bookmarkFrequencyMs?: number;
  /** How often due bookmarks are looked for (kube: every second, ±25 %). */
  readonly bookmarkTickMs?: number;
  /** History the event window tries to keep before it stops growing (kube's eventFreshDuration, 75 s). */
  readonly eventFreshDurationMs?: number;
  /** Relist backoff: first delay (kube's cacher retries every second) and the ceiling. */
  readonly relistBackoffMs?: number;
  readonly relistBackoffMaxMs?: number;
  /** While reads wait for freshness, ask storage for progress this often (kube: 100 ms). */
  readonly progressRequestIntervalMs?: number;
}

export interface CacherConfig<T extends KubeObject = KubeObject> {
  /** The storage the cache decorates; writes go straight to it. */
  readonly storage: Interface<T>;
  /** Defaults to the storage's versioner. */
  readonly versioner?: Versioner;
  readonly groupResource: GroupResource;
  /** Everything cached lives under this key (`/pods`). */
  readonly resourcePrefix: string;
  /** The storage key of an object; it must be the key the object is stored under. */
  readonly keyFunc: (obj: T) => string;
  /** A new empty object of the kind, for BOOKMARK events. */
  readonly newFunc: () => KubeObject;
  /** A new empty list of the kind; lists are `{ metadata: {}, items }` without it. */
  readonly newListFunc?: () => KubeList<T>;
  readonly getAttrsFunc: AttrFunc<T>;
  /** At most one trigger: a field watchers select exactly on (pods: `spec.nodeName`), kube's IndexerFuncs. */
  readonly indexerFuncs?: Readonly<Record<string, (obj: T) => string>>;
  /** Extra list indexes by name (kube's Indexers); `metadata.namespace` and `metadata.name` are always indexed. */
  readonly indexers?: Readonly<Record<string, (obj: T) => readonly string[]>>;
  /** Initial and minimum size of the event window (`--default-watch-cache-size`, 100). */
  readonly cacheSize?: number;
  /** The window never grows past this (kube's defaultUpperBoundCapacity, 100 × 1024). */
  readonly maxCacheSize?: number;
  readonly timing?: CacherTiming;
  /** Where the cacher reports relists and failures (default console.warn). */
  readonly log?: (message: string) => void;
  /**
   * How the cached JSON is decoded for readers: the storage codec's decode, so that an object read
   * from the cache equals one read from storage (default JSON.parse).
   */
  readonly decode?: (json: Buffer) => KubeObject;
  /** The server's clock: bookmark times and their timer (default: the system's). */
  readonly clock?: Clock;
  /** The server's caches for test snapshots: the cacher attaches to it and starts from its seed, if any. */
  readonly seeds?: CacheSeeds;
  /** Where the cached keys start in the backend (the path prefix, then the resource prefix), for `seeds`. */
  readonly backendKeyPrefix?: string;
  /**
   * Where the objects of handed-over writes (UpdateOptions.handOver) are kept for the next update of
   * each, shared by a server's caches; without it each cache keeps none.
   */
  readonly recentWrites?: RecentWrites<KubeObject>;
}

declare const completed: unique symbol;

export interface CompletedCacherConfig<T extends KubeObject = KubeObject> {
  readonly [completed]: true;
  readonly storage: Interface<T>;
  readonly versioner: Versioner;
  readonly groupResource: GroupResource;
  readonly resourcePrefix: string;
  readonly keyFunc: (obj: T) => string;
  readonly newFunc: () => KubeObject;
  readonly newListFunc: (() => KubeList<T>) | null;
  readonly getAttrsFunc: AttrFunc<T>;
  readonly trigger: { readonly field: string; readonly func: (obj: T) => string } | null;
  readonly indexers: Readonly<Record<string, (obj: T) => readonly string[]>>;
  readonly cacheSize: number;
  readonly maxCacheSize: number;
  readonly timing: Readonly<Required<CacherTiming>>;
  readonly log: (message: string) => void;
  readonly clock: Clock;
  readonly seeds: CacheSeeds | null;
  readonly backendKeyPrefix: string | null;
  readonly recentWrites: RecentWrites<KubeObject>;
  readonly decode: ((json: Buffer) => KubeObject) | null;
}

/** kube's DefaultWatchCacheSize. */
export const defaultWatchCacheSize = 100;

export const defaultTiming: Readonly<Required<CacherTiming>> = Object.freeze({
  waitForFreshMs: 3000,
  bookmarkFrequencyMs: 60_000,
  bookmarkTickMs: 1000,
  eventFreshDurationMs: 75_000,
  relistBackoffMs: 1000,
  relistBackoffMaxMs: 30_000,
  progressRequestIntervalMs: 100,
});

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(`cacher: ${name} must be a positive number, got ${String(value)}`);
  }
  return value;
}

function completeTiming(t: CacherTiming = {}): Readonly<Required<CacherTiming>> {
  const out = { ...defaultTiming, ...t };
  for (const [name, value] of Object.entries(out)) positive(`timing.${name}`, value);
  return Object.freeze(out);
}

function completeTrigger<T extends KubeObject>(
  funcs: CacherConfig<T>['indexerFuncs'],
): CompletedCacherConfig<T>['trigger'] {
  const entries = Object.entries(funcs ?? {});
  // kube's cacher refuses more than one IndexerFunc for a resource.
  if (entries.length > 1) throw new Error("cacher doesn't support more than one IndexerFunc");
  const first = entries[0];
  return first === undefined ? null : Object.freeze({ field: first[0], func: first[1] });
}

/** Validates the configuration once (kube's NewCacherFromConfig checks), filling in defaults. */
export function completeCacherConfig<T extends KubeObject>(
  config: CacherConfig<T>,
): CompletedCacherConfig<T> {
  const prefix = config.resourcePrefix;
  if (prefix === '') throw new Error('resourcePrefix cannot be empty');
  if (prefix === '/') throw new Error('resourcePrefix cannot be /');
  if (!prefix.startsWith('/')) throw new Error('resourcePrefix needs to start from /');
  const cacheSize = Math.floor(positive('cacheSize', config.cacheSize ?? defaultWatchCacheSize));
  const maxCacheSize = Math.max(
    cacheSize,
    Math.floor(positive('maxCacheSize', config.maxCacheSize ?? 100 * 1024)),
  );
  const out = {
    storage: config.storage,
    versioner: config.versioner ?? config.storage.versioner,
    groupResource: config.groupResource,
    resourcePrefix: prefix.endsWith('/') ? prefix.slice(0, -1) : prefix,
    keyFunc: config.keyFunc,
    newFunc: config.newFunc,
    newListFunc: config.newListFunc ?? null,
    getAttrsFunc: config.getAttrsFunc,
    trigger: completeTrigger(config.indexerFuncs),
    indexers: Object.freeze({ ...config.indexers }),
    cacheSize,
    maxCacheSize,
    timing: completeTiming(config.timing),
    clock: config.clock ?? systemClock,
    seeds: config.seeds ?? null,
    recentWrites: config.recentWrites ?? new RecentWrites(0),
    backendKeyPrefix: config.backendKeyPrefix ?? null,
    decode: config.decode ?? null,
    log:
      config.log ??
      ((message: string) => {
        console.warn(message);
      }),
  };
  return Object.freeze(out) as CompletedCacherConfig<T>;
}
