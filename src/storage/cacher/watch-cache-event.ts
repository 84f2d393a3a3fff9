// One change the watch cache saw (kube's watchCacheEvent): the object and its previous state with
// their attributes, computed once. The watch events handed to watchers are built lazily and shared by
// every watcher, so the HTTP layer can serialize each once (see serialize-once.ts).
import type { KubeObject } from '../../api/meta.js';
import type { Versioner, WatchEvent } from '../interfaces.js';
import { deepFreeze } from './freeze.js';
import type { ObjectAttrs } from './options.js';

export const cacheEventTypes = ['ADDED', 'MODIFIED', 'DELETED'] as const;
export type CacheEventType = (typeof cacheEventTypes)[number];

/** An object in the cache with what selectors and indexes need, computed when it arrived. */
export interface StoreElement<T extends KubeObject> {
  readonly key: string;
  readonly object: T;
  readonly attrs: ObjectAttrs;
  readonly resourceVersion: number;
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
  readonly object: T;
  readonly attrs: ObjectAttrs;
  readonly prevObject: T | null;
  readonly prevAttrs: ObjectAttrs | null;
  readonly resourceVersion: number;
  /** When the cache saw it (ms), for the window's capacity rules. */
  readonly recordTime: number;
  #added: WatchEvent<T> | null = null;
  #modified: WatchEvent<T> | null = null;
  #deleted: WatchEvent<T> | null = null;

  constructor(init: CacheEventInit<T>) {
    this.type = init.type;
    this.key = init.element.key;
    this.object = init.element.object;
    this.attrs = init.element.attrs;
    this.prevObject = init.prev?.object ?? null;
    this.prevAttrs = init.prev?.attrs ?? null;
    this.resourceVersion = init.element.resourceVersion;
    this.recordTime = init.recordTime;
  }

  /**
   * The watch event of `kind` for this change. Shared events are built once and handed to every
   * watcher during dispatch; replays from the window build their own, so the window never pins
   * serialized forms.
   */
  watchEvent(kind: CacheEventType, opts: { versioner: Versioner; shared: boolean }): WatchEvent<T> {
    if (!opts.shared) return this.#build(kind, opts.versioner);
    switch (kind) {
      case 'ADDED':
        return (this.#added ??= this.#build(kind, opts.versioner));
      case 'MODIFIED':
        return (this.#modified ??= this.#build(kind, opts.versioner));
      case 'DELETED':
        return (this.#deleted ??= this.#build(kind, opts.versioner));
    }
  }

  #build(kind: CacheEventType, versioner: Versioner): WatchEvent<T> {
    if (kind !== 'DELETED') return Object.freeze({ type: kind, object: this.object });
    // A watcher losing the object sees its previous state at this event's resourceVersion.
    let object: T;
    if (this.type === 'DELETED' || this.prevObject === null) {
      object = this.object;
    } else {
      object = { ...this.prevObject, metadata: { ...this.prevObject.metadata } };
      versioner.updateObject(object, this.resourceVersion);
      deepFreeze(object);
    }
    return Object.freeze({ type: 'DELETED', object });
  }

  /**
   * Forgets the shared watch events once dispatch is done. Watchers that got them keep them (and
   * their serialized form) until sent; a later replay builds fresh ones, as kube drops its cached
   * serializations after dispatch rather than holding them for the whole window.
   */
  releaseShared(): void {
    this.#added = null;
    this.#modified = null;
    this.#deleted = null;
  }
}
