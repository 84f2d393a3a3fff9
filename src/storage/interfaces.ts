// storage.Interface as k8s.io/apiserver/pkg/storage/interfaces.go shapes it for the registry.
import type { KubeList, KubeObject, ListMeta, Preconditions } from '../api/meta.js';
import type { Watch } from './watch-chan.js';
import type { ServedJSON } from './served-json.js';

export type { Watch, WatchEvent } from './watch-chan.js';

/** A store revision; resourceVersion strings are its decimal form. */
export type Revision = number;

/** Reads and writes resourceVersion on objects and lists (kube's APIObjectVersioner). */
export interface Versioner {
  objectResourceVersion(obj: KubeObject): Revision;
  updateObject(obj: KubeObject, rev: Revision): void;
  updateList(list: KubeList, meta: { rev: Revision; continue?: string; remainingItemCount?: number }): void;
  /** Clears fields that must not be persisted (resourceVersion, selfLink). */
  prepareObjectForStorage(obj: KubeObject): void;
  /** "" → 0; anything but a non-negative integer throws a BadRequest-worthy error. */
  parseResourceVersion(rv: string): Revision;
}

/** The labels and fields selectors see for an object (kube's GetAttrs). */
export interface ObjectAttrs {
  readonly labels: Readonly<Record<string, string>>;
  readonly fields: Readonly<Record<string, string>>;
}

/** Selects objects; built by the registry from label and field selectors. */
export interface SelectionPredicate<T extends KubeObject = KubeObject> {
  /** True when it matches every object (no label and no field requirements). */
  empty(): boolean;
  matches(obj: T): boolean;
  /**
   * Matches on attributes computed before (kube's MatchesObjectAttributes): the watch cache keeps
   * them rather than the objects. Without it the cache decodes objects to match them.
   */
  matchesAttrs?(attrs: ObjectAttrs): boolean;
  /** Exact-match requirements the watch cache may index on, e.g. `spec.nodeName` → `node-1`. */
  exactFields?(): ReadonlyMap<string, string>;
}

export const resourceVersionMatches = ['', 'NotOlderThan', 'Exact'] as const;
export type ResourceVersionMatch = (typeof resourceVersionMatches)[number];

export interface GetOptions {
  resourceVersion?: string;
  ignoreNotFound?: boolean;
  /** The caller only reads the result: a cache may answer with a shared, frozen object. */
  readOnly?: boolean;
  /** Only a cache's answer is wanted: null (as if not found) where storage would be read. */
  cachedOnly?: boolean;
  signal?: AbortSignal;
}

export interface ListOptions<T extends KubeObject = KubeObject> {
  resourceVersion?: string;
  resourceVersionMatch?: ResourceVersionMatch;
  predicate?: SelectionPredicate<T>;
  /** Key is a prefix: list or watch everything under it. */
  recursive?: boolean;
  limit?: number;
  continue?: string;
  /** Watch: send BOOKMARK events (kube's allowWatchBookmarks / ProgressNotify). */
  progressNotify?: boolean;
  /** Watch: start with the current state as ADDED events, then a bookmark marking its end. */
  sendInitialEvents?: boolean;
  /**
   * Watch: epoch ms at which the caller will end the watch (its timeoutSeconds). The watch cache sends
   * a BOOKMARK shortly before, as kube's cacher does with the request context's deadline.
   */
  deadline?: number;
  /** List: the caller only reads the items, so a cache may answer with shared, frozen objects. */
  readOnly?: boolean;
  /**
   * Watch: the caller only reads the events' objects, so they may be the very objects writes
   * returned, and events carry the bytes the object is stored as (the watch cache's feed).
   */
  shareObjects?: boolean;
  signal?: AbortSignal;
}

export interface CreateOptions {
  /** Seconds after which the object expires (events). */
  ttl?: number;
  signal?: AbortSignal;
}

export type ValidateDeletion<T> = (obj: T) => void | Promise<void>;

/**
 * A possibly stale state of an object that spares storage a read (the watch cache's copy): the object
 * with its resourceVersion, the caller's to change, and the JSON the cache serves it as, from which
 * the bytes it is stored as are cut when needed (most updates only compare them with the new bytes).
 */
export interface CachedExisting<T extends KubeObject = KubeObject> {
  readonly object: T;
  readonly served: ServedJSON;
  /**
   * The state is the store's current one: the cache had every write of the store's current revision
   * when it gave it (a local store, whose revision is known without asking). A no-op or a refused
   * update then answers at once, with no read of storage to confirm the state; but not on a store
   * that transforms values (encryption), where only a read tells a value to write again (stale).
   */
  readonly current?: boolean;
}

/** A list as a read answers it, item by item in JSON (each with its resourceVersion). */
export interface EncodedList {
  readonly metadata: ListMeta;
  readonly items: readonly Buffer[];
}

export interface DeleteOptions<T extends KubeObject = KubeObject> {
  preconditions?: Preconditions;
  validateDeletion?: ValidateDeletion<T>;
  cachedExisting?: CachedExisting<T>;
  signal?: AbortSignal;
}

/** What GuaranteedUpdate's callback learns of the current object besides the object itself. */
export interface ResponseMeta {
  /** The store revision of the current object; 0 when it does not exist. */
  resourceVersion: Revision;
}

/**
 * Computes the new object from the current one; `current` is null when the key does not exist and
 * ignoreNotFound was set. Throwing aborts the update with that error. Returning an object that
 * encodes to the stored bytes writes nothing.
 */
export type TryUpdate<T> = (current: T | null, meta: ResponseMeta) => T | Promise<T>;

export interface UpdateOptions<T extends KubeObject = KubeObject> {
  tryUpdate: TryUpdate<T>;
  ignoreNotFound?: boolean;
  preconditions?: Preconditions;
  cachedExisting?: CachedExisting<T>;
  /** Seconds to live for the written value. */
  ttl?: number;
  signal?: AbortSignal;
  /**
   * The caller hands the returned object over: it neither keeps nor changes it once it has read it
   * (an HTTP handler writing its response). A cache in front of the storage may then keep it as what
   * it wrote, and give it to the next update of the object instead of decoding that again.
   */
  handOver?: boolean;
}

/** One stored revision of an object: the object as written then, or its deletion. */
export interface ObjectRevision<T extends KubeObject = KubeObject> {
  readonly revision: Revision;
  /** Null for a deletion. */
  readonly object: T | null;
}

/** An object's past revisions that compaction has left, oldest first (Capstan's history). */
export interface ObjectHistory<T extends KubeObject = KubeObject> {
  /** The store's revision when it was read. */
  readonly revision: Revision;
  /** Revisions at or below it may be gone. */
  readonly compactRevision: Revision;
  readonly revisions: readonly ObjectRevision<T>[];
}

export interface Interface<T extends KubeObject = KubeObject> {
  readonly versioner: Versioner;
  /** Fails with KeyExists when the key is taken; returns the stored object with its resourceVersion. */
  create(key: string, obj: T, opts?: CreateOptions): Promise<T>;
  /** Returns the last state of the object, with the deletion's resourceVersion. */
  delete(key: string, opts?: DeleteOptions<T>): Promise<T>;
  watch(key: string, opts?: ListOptions<T>): Promise<Watch<T>>;
  /** Null only when ignoreNotFound is set and the key does not exist. */
  get(key: string, opts?: GetOptions): Promise<T | null>;
  getList(key: string, opts?: ListOptions<T>): Promise<KubeList<T>>;
  guaranteedUpdate(key: string, opts: UpdateOptions<T>): Promise<T>;
  count(key: string): Promise<number>;
  /** The store's current revision, as a consistent read would see it. */
  currentResourceVersion(): Promise<Revision>;
  /**
   * The current revision at once, when the store knows it without asking (a local one); undefined
   * when it must be asked. Throws what currentResourceVersion() rejects with.
   */
  currentResourceVersionNow?(): Revision | undefined;
  /** Asks the store's watches to report progress (bookmarks) soon (kube's RequestWatchProgress). */
  requestWatchProgress(): Promise<void>;
  /** Whether requestWatchProgress() is answered (kube's feature support check); absent: it is. */
  supportsWatchProgress?(): Promise<boolean>;
  /** Fails when the store cannot serve. */
  readinessCheck(): Promise<void>;
  /**
   * get() as JSON bytes (resourceVersion included), for callers that only pass the object on: a
   * store that keeps encodings serves them without decoding.
   */
  getEncoded?(key: string, opts?: GetOptions): Promise<Buffer | null>;
  /**
   * The object at `key` as a cache holds it now (any revision, as a read at resourceVersion "0"),
   * shared and frozen, without a promise: for readers that only read and mostly find what they
   * look for (admission's lookups). Undefined when it cannot answer so (no cache, not ready, no
   * such object): the caller then reads with get(), which says NotFound as it should.
   */
  getCachedNow?(key: string): T | undefined;
  /** Every stored revision of the object at `key` still in the backend's log (optional capability). */
  history?(key: string): Promise<ObjectHistory<T>>;
  /** getList() with every item as JSON bytes, as getEncoded. */
  getListEncoded?(key: string, opts?: ListOptions<T>): Promise<EncodedList>;
  /** Reads of the current revision cost no round trip (this process is the store), so consistent
   * reads may be served from a cache that has caught up with it. */
  readonly local?: boolean;
}
