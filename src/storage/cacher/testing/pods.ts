// A Cacher over KvStore over an in-memory SQLite backend, shaped like the pods storage, for the
// cacher's tests and benchmarks.
import type { KubeObject } from '../../../api/meta.js';
import { SqliteBackend } from '../../backends/sqlite/sqlite-backend.js';
import type { Interface } from '../../interfaces.js';
import { KvStore } from '../../kv-store/kv-store.js';
import type { TestObject } from '../../testing/test-object.js';
import type { CacheSeeds } from '../cache-seeds.js';
import { Cacher } from '../cacher.js';
import type { CacherTiming, ObjectAttrs } from '../options.js';
import type { RecentWrites } from '../recent-writes.js';

export const podsResource = { group: '', resource: 'pods' } as const;

export function podKey(obj: TestObject): string {
  return `/pods/${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
}

export function podAttrs(obj: TestObject): ObjectAttrs {
  return {
    labels: obj.metadata.labels ?? {},
    fields: {
      'metadata.name': obj.metadata.name ?? '',
      'metadata.namespace': obj.metadata.namespace ?? '',
      'spec.nodeName': obj.spec?.nodeName ?? '',
    },
  };
}

export const newPod = (): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: {} });

/** Timings small enough for tests: bookmarks every 200 ms, fresh-waits of 1 s, quick relists. */
export const testTiming: CacherTiming = {
  waitForFreshMs: 1000,
  bookmarkFrequencyMs: 200,
  bookmarkTickMs: 50,
  relistBackoffMs: 50,
  relistBackoffMaxMs: 500,
  progressRequestIntervalMs: 20,
};

export interface PodCacherOptions {
  readonly timing?: CacherTiming;
  readonly cacheSize?: number;
  readonly maxCacheSize?: number;
  readonly progressNotifyIntervalMs?: number;
  /** Puts something between the cacher and the KvStore. */
  readonly wrap?: (store: KvStore<TestObject>) => Interface<TestObject>;
  /** Wait for the first list before returning (default true). */
  readonly waitReady?: boolean;
  /** Receives the cacher's log lines (default: dropped). */
  readonly log?: (message: string) => void;
  /** Where handed-over writes are kept (default: none kept). */
  readonly recentWrites?: RecentWrites<KubeObject>;
}

export interface PodCacher {
  readonly backend: SqliteBackend;
  readonly store: KvStore<TestObject>;
  readonly cacher: Cacher<TestObject>;
  close(): Promise<void>;
}

/** A cacher for `/pods` (indexed by spec.nodeName) over `storage`; not started waiting for readiness. */
export function podsCacherOver(
  storage: Interface<TestObject>,
  opts: {
    cacheSize?: number;
    maxCacheSize?: number;
    timing?: CacherTiming;
    log?: (m: string) => void;
    seeds?: CacheSeeds;
    backendKeyPrefix?: string;
    recentWrites?: RecentWrites<KubeObject>;
  } = {},
): Cacher<TestObject> {
  return new Cacher<TestObject>({
    storage,
    groupResource: podsResource,
    resourcePrefix: '/pods',
    keyFunc: podKey,
    newFunc: newPod,
    getAttrsFunc: podAttrs,
    indexerFuncs: { 'spec.nodeName': (obj) => obj.spec?.nodeName ?? '' },
    ...opts,
    timing: opts.timing ?? testTiming,
    log: opts.log ?? (() => undefined),
  });
}

/** A ready cacher for `/pods` over a fresh in-memory store. */
export async function podCacher(opts: PodCacherOptions = {}): Promise<PodCacher> {
  const backend = await SqliteBackend.open({
    path: ':memory:',
    progressNotifyIntervalMs: opts.progressNotifyIntervalMs ?? 100,
    ttlSweepIntervalMs: 100,
    compaction: { intervalMs: 0, minRetainRevisions: 0, minRetainMs: 0 },
  });
  const store = new KvStore<TestObject>({ backend, groupResource: podsResource, newFunc: newPod });
  const cacher = podsCacherOver(opts.wrap?.(store) ?? store, {
    ...(opts.cacheSize === undefined ? {} : { cacheSize: opts.cacheSize }),
    ...(opts.maxCacheSize === undefined ? {} : { maxCacheSize: opts.maxCacheSize }),
    timing: opts.timing ?? testTiming,
    log: opts.log ?? (() => undefined),
    ...(opts.recentWrites === undefined ? {} : { recentWrites: opts.recentWrites }),
  });
  if (opts.waitReady ?? true) await cacher.whenReady();
  return {
    backend,
    store,
    cacher,
    close: async () => {
      await cacher.stop();
      await backend.close();
    },
  };
}

/** Waits until the pods cache has reached `rv`, as a read NotOlderThan it does (504 past the block timeout). */
export async function caughtUp(cacher: Cacher<TestObject>, rv: number): Promise<void> {
  await cacher.getList('/pods/', {
    recursive: true,
    resourceVersion: String(rv),
    resourceVersionMatch: 'NotOlderThan',
    limit: 1,
  });
  if (cacher.stats().resourceVersion < rv)
    throw new Error(`the cache is at ${cacher.stats().resourceVersion}, not ${rv}`);
}

/** A stored object's resourceVersion as a number. */
export const rvOf = (obj: TestObject): number => Number(obj.metadata.resourceVersion);
