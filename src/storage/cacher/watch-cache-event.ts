// What the watch cache holds (kube's storeElement and watchCacheEvent), kept as bytes: each object's
// JSON as reads answer it, with the attributes selectors and indexes need, computed once when it
// arrived. Objects are decoded only for callers that want them, fresh for each caller; the JSON
// goes out to HTTP clients as it is, so a cached object costs its encoded size, not a decoded tree.
import type { KubeObject } from '../../api/meta.js';
import type { ObjectAttrs, WatchEvent } from '../interfaces.js';
import { attachServedJSON, withResourceVersion, type ServedJSON } from '../served-json.js';
import { deepFreeze } from './freeze.js';

export const cacheEventTypes = ['ADDED', 'MODIFIED', 'DELETED'] as const;
export type CacheEventType = (typeof cacheEventTypes)[number];

/** An object in the cache: its key, revision, served JSON, and what selectors and indexes need. */
export interface StoreElement<T extends KubeObject = KubeObject> {
  readonly key: string;
  readonly resourceVersion: number;
  readonly served: ServedJSON;
  readonly attrs: ObjectAttrs;
  /** The element's values in each index by name (the trigger and the configured indexers). */
  readonly indexValues: Readonly<Record<string, readonly string[]>>;
  /** Decodes served JSON as the storage codec decodes stored bytes (JSON.parse when absent). */
  readonly decode?: JSONDecode | undefined;
  /** Only types the element: decodeElement gives objects of this type. */
  readonly _type?: T;
}

/** How served JSON becomes an object: the storage codec's decode (go-zero-members.ts). */
export type JSONDecode = (json: Buffer) => KubeObject;

const parseJSON: JSONDecode = (json) => JSON.parse(json.toString('utf8')) as KubeObject;

/** A fresh object of the element, the caller's to change. */
export function decodeElement<T extends KubeObject>(el: StoreElement<T>): T {
  return (el.decode ?? parseJSON)(el.served.json) as T;
}

// Shared decodes for readers that do not change what they read (admission's lookups of a namespace
// or a service account on every pod create): decoded once per element, frozen, and let go with it.
const shared = new WeakMap<StoreElement, KubeObject>();

/** The element's object decoded once and frozen, for readers that only read. */
export function sharedDecode<T extends KubeObject>(el: StoreElement<T>): T {
  let obj = shared.get(el) as T | undefined;
  if (obj === undefined) {
    obj = deepFreeze(decodeElement(el));
    shared.set(el, obj);
  }
  return obj;
}

/**
 * A watch event whose object is decoded on first use (frozen when watchers share it). A class, not
 * an object literal with a getter (docs/architecture.md: what a request makes dies young).
 */
class LazyWatchEvent<T extends KubeObject> {
  readonly type: CacheEventType;
  readonly #served: ServedJSON;
  readonly #decode: JSONDecode;
  readonly #shared: boolean;
  #object: T | undefined;
  #encoded: { readonly by: object; readonly text: string } | undefined;

  constructor(type: CacheEventType, from: { served: ServedJSON; decode: JSONDecode }, shared: boolean) {
    this.type = type;
    this.#served = from.served;
    this.#decode = from.decode;
    this.#shared = shared;
    attachServedJSON(this, from.served.json);
    Object.freeze(this);
  }

  get object(): T {
    if (this.#object === undefined) {
      this.#object = this.#decode(this.#served.json) as T;
      if (this.#shared) deepFreeze(this.#object);
    }
    return this.#object;
  }

  /** The event as `by` encodes it, made once while the event lives (see encodedOnce). */
  encoded(by: object, encode: () => string): string {
    const memo = this.#encoded;
    if (memo?.by === by) return memo.text;
    const text = encode();
    this.#encoded = { by, text };
    return text;
  }
}

/**
 * The event as the encoder `by` writes it (`encode`), made once for an event of the watch cache,
 * which hands every watcher of a change this very event (kube's cachingObject); other events are
 * not shared, and are encoded each time. The memo lives in the event, not in a WeakMap by event
 * (docs/architecture.md: what a request makes dies young).
 */
export function encodedOnce(event: WatchEvent, by: object, encode: () => string): string {
  return event instanceof LazyWatchEvent ? event.encoded(by, encode) : encode();
}

/**
 * A watch event whose object is decoded on first use (frozen when watchers share it) and whose JSON
 * is attached, so an HTTP watcher writes it without decoding (see the watch handler's jsonFrame).
 */
export function lazyWatchEvent<T extends KubeObject>(
  type: CacheEventType,
  from: { readonly served: ServedJSON; readonly decode?: JSONDecode | undefined },
  shared: boolean,
): WatchEvent<T> {
  return new LazyWatchEvent<T>(type, { served: from.served, decode: from.decode ?? parseJSON }, shared);
}

export interface CacheEventInit<T extends KubeObject> {
  readonly type: CacheEventType;
  readonly element: StoreElement<T>;
  readonly prev: StoreElement<T> | null;
  readonly recordTime: number;
}

export class WatchCacheEvent<T extends KubeObject> {
  readonly type: CacheEventType;
  readonly key: string;
  /** For DELETED: the last state, carrying the deletion's resourceVersion. */
  readonly element: StoreElement<T>;
  readonly prev: StoreElement<T> | null;
  readonly resourceVersion: number;
  /** When the cache saw it (ms since the cache began), for the window's capacity rules. */
  readonly recordTime: number;
  #added: WatchEvent<T> | null = null;
  #modified: WatchEvent<T> | null = null;
  #deleted: WatchEvent<T> | null = null;

  constructor(init: CacheEventInit<T>) {
    this.type = init.type;
    this.key = init.element.key;
    this.element = init.element;
    this.prev = init.prev;
    this.resourceVersion = init.element.resourceVersion;
    this.recordTime = init.recordTime;
  }

  get attrs(): ObjectAttrs {
    return this.element.attrs;
  }

  get prevAttrs(): ObjectAttrs | null {
    return this.prev?.attrs ?? null;
  }

  /**
   * The watch event of `kind` for this change. Shared events are built once and handed to every
   * watcher during dispatch; replays from the window build their own, so the window never pins
   * decoded objects.
   */
  watchEvent(kind: CacheEventType, opts: { shared: boolean }): WatchEvent<T> {
    if (!opts.shared) return this.#build(kind, false);
    switch (kind) {
      case 'ADDED':
        return (this.#added ??= this.#build(kind, true));
      case 'MODIFIED':
        return (this.#modified ??= this.#build(kind, true));
      case 'DELETED':
        return (this.#deleted ??= this.#build(kind, true));
    }
  }

  #build(kind: CacheEventType, shared: boolean): WatchEvent<T> {
    if (kind !== 'DELETED' || this.type === 'DELETED' || this.prev === null)
      return lazyWatchEvent(kind, this.element, shared);
    // A watcher losing the object sees its previous state at this event's resourceVersion.
    const served = withResourceVersion(this.prev.served, this.resourceVersion);
    return lazyWatchEvent('DELETED', { served, decode: this.prev.decode }, shared);
  }

  /**
   * Forgets the shared watch events once dispatch is done. Watchers that got them keep them (and
   * their decoded objects) until sent; a later replay builds fresh ones.
   */
  releaseShared(): void {
    this.#added = null;
    this.#modified = null;
    this.#deleted = null;
  }
}
