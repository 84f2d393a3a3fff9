// storage.Interface as k8s.io/apiserver/pkg/storage/interfaces.go shapes it for the registry.
import type { KubeList, KubeObject, Preconditions } from '../api/meta.js';
import type { Watch } from './watch-chan.js';

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

/** Selects objects; built by the registry from label and field selectors. */
export interface SelectionPredicate<T extends KubeObject = KubeObject> {
  /** True when it matches every object (no label and no field requirements). */
  empty(): boolean;
  matches(obj: T): boolean;
  /** Exact-match requirements the watch cache may index on, e.g. `spec.nodeName` → `node-1`. */
  exactFields?(): ReadonlyMap<string, string>;
}

export const resourceVersionMatches = ['', 'NotOlderThan', 'Exact'] as const;
export type ResourceVersionMatch = (typeof resourceVersionMatches)[number];

export interface GetOptions {
  resourceVersion?: string;
  ignoreNotFound?: boolean;
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
  signal?: AbortSignal;
}

export interface CreateOptions {
  /** Seconds after which the object expires (events). */
  ttl?: number;
  signal?: AbortSignal;
}

export type ValidateDeletion<T> = (obj: T) => void | Promise<void>;

export interface DeleteOptions<T extends KubeObject = KubeObject> {
  preconditions?: Preconditions;
  validateDeletion?: ValidateDeletion<T>;
  /** A possibly stale copy of the object (from the watch cache) that saves a read. */
  cachedExisting?: T;
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
  cachedExisting?: T;
  /** Seconds to live for the written value. */
  ttl?: number;
  signal?: AbortSignal;
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
  /** Asks the store's watches to report progress (bookmarks) soon (kube's RequestWatchProgress). */
  requestWatchProgress(): Promise<void>;
  /** Fails when the store cannot serve. */
  readinessCheck(): Promise<void>;
}
