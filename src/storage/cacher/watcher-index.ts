// Which watchers an event is offered to (kube's indexedWatchers): a watcher whose selector pins the
// trigger field (pods by spec.nodeName) is found by that value alone; any other watcher by its key
// scope (a prefix or one key) and, if its selector pins metadata.name, that name. An event is offered
// only to the watchers of its key's ancestors, its name and its trigger values.
import type { KubeObject } from '../../api/meta.js';
import type { CacheWatcher } from './cache-watcher.js';
import { keyAncestors } from './keys.js';

/** Where a watcher is registered. */
export type WatcherSlot =
  | { readonly kind: 'trigger'; readonly value: string }
  | {
      readonly kind: 'scope';
      readonly scope: string;
      readonly recursive: boolean;
      readonly name: string | null;
    };

function scopeBucket(scope: string, recursive: boolean, name: string | null): string {
  // '=' marks an exact key so it never collides with a prefix bucket of the same text.
  const base = recursive ? scope : `=${scope}`;
  return name === null ? base : `${base}\0${name}`;
}

export class WatcherIndex<T extends KubeObject> {
  readonly #byScope = new Map<string, Set<CacheWatcher<T>>>();
  readonly #byTrigger = new Map<string, Set<CacheWatcher<T>>>();
  readonly #all = new Set<CacheWatcher<T>>();

  get size(): number {
    return this.#all.size;
  }

  all(): ReadonlySet<CacheWatcher<T>> {
    return this.#all;
  }

  add(w: CacheWatcher<T>, slot: WatcherSlot): void {
    const [map, bucket] = this.#locate(slot);
    let set = map.get(bucket);
    if (set === undefined) map.set(bucket, (set = new Set()));
    set.add(w);
    this.#all.add(w);
  }

  remove(w: CacheWatcher<T>, slot: WatcherSlot): void {
    const [map, bucket] = this.#locate(slot);
    const set = map.get(bucket);
    set?.delete(w);
    if (set?.size === 0) map.delete(bucket);
    this.#all.delete(w);
  }

  #locate(slot: WatcherSlot): [Map<string, Set<CacheWatcher<T>>>, string] {
    if (slot.kind === 'trigger') return [this.#byTrigger, slot.value];
    return [this.#byScope, scopeBucket(slot.scope, slot.recursive, slot.name)];
  }

  /**
   * The watchers that may want an event on `key` for an object named `name`. With `triggerValues`
   * null (no trigger function) every trigger-registered watcher is a candidate too.
   */
  candidates(key: string, name: string, triggerValues: readonly string[] | null): CacheWatcher<T>[] {
    const out: CacheWatcher<T>[] = [];
    const take = (bucket: string): void => {
      const set = this.#byScope.get(bucket);
      if (set !== undefined) for (const w of set) out.push(w);
    };
    for (const prefix of keyAncestors(key)) {
      take(prefix);
      take(`${prefix}\0${name}`);
    }
    take(`=${key}`);
    take(`=${key}\0${name}`);
    if (triggerValues === null) {
      for (const set of this.#byTrigger.values()) for (const w of set) out.push(w);
    } else {
      for (const value of triggerValues) {
        const set = this.#byTrigger.get(value);
        if (set !== undefined) for (const w of set) out.push(w);
      }
    }
    return out;
  }
}
