// How LimitRanger and ResourceQuota read the objects of one namespace, as kube's plugins read them
// (limitranger/admission.go GetLimitRanges, resourcequota/resource_access.go GetQuotas): an
// informer's state (list and watch of the watch cache, shared frozen objects, grouped by namespace;
// before it has listed, the watch cache's list at resourceVersion "0"), and only when it holds none,
// a live list whose answer is kept for a while per namespace, so a namespace without any costs a map
// lookup per request and a storage read every liveTTL at most. Lookups of one namespace in flight
// together share one live read (kube's singleflight).
import type { KubeObject } from '../../api/meta.js';
import type { Lister, Watcher } from '../../registry/rest/capabilities.js';
import { internalContext, type RequestContext } from '../../registry/rest/context.js';
import { ObjectSource } from './policy/generic/object-source.js';

export interface NamespacedListerOptions {
  readonly lister: Lister;
  /** How long a live list is reused (kube: 30s). */
  readonly liveTTLMs?: number;
  /** At most this many namespaces' live lists are kept (kube: 10000). */
  readonly maxEntries?: number;
  readonly now?: () => number;
}

interface LiveEntry<T> {
  readonly expiresAt: number;
  readonly items: readonly T[];
}

export class NamespacedLister<T extends KubeObject> {
  readonly #lister: Lister;
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;
  readonly #live = new Map<string, LiveEntry<T>>();
  readonly #inFlight = new Map<string, Promise<readonly T[]>>();
  readonly #informer: NamespaceInformer<T> | undefined;

  constructor(opts: NamespacedListerOptions) {
    this.#lister = opts.lister;
    this.#ttlMs = opts.liveTTLMs ?? 30_000;
    this.#maxEntries = opts.maxEntries ?? 10_000;
    this.#now = opts.now ?? Date.now;
    if (canWatch(opts.lister)) this.#informer = new NamespaceInformer<T>(opts.lister);
  }

  /**
   * The namespace's objects at once when the informer holds some, or a live list of the namespace
   * is still fresh: what list() would answer without waiting. Undefined when list() must wait.
   */
  listNow(namespace: string): readonly T[] | undefined {
    const informed = this.#informer?.of(namespace);
    if (informed !== undefined && informed.length > 0) return informed;
    if (informed === undefined) return undefined;
    const entry = this.#live.get(namespace);
    return entry !== undefined && entry.expiresAt > this.#now() ? entry.items : undefined;
  }

  /** The namespace's objects (read-only: they may be the cache's own). */
  async list(ctx: RequestContext, namespace: string): Promise<readonly T[]> {
    const informed = this.#informer?.of(namespace);
    if (informed !== undefined && informed.length > 0) return informed;
    if (informed === undefined) {
      const internal = internalContext({ namespace, parent: ctx });
      const cached = await this.#lister.list(internal, { resourceVersion: '0', readOnly: true });
      if (cached.items.length > 0) return cached.items as T[];
    }
    const entry = this.#live.get(namespace);
    if (entry !== undefined && entry.expiresAt > this.#now()) return entry.items;
    let pending = this.#inFlight.get(namespace);
    if (pending === undefined) {
      const internal = internalContext({ namespace, parent: ctx });
      pending = this.#liveList(internal, namespace).finally(() => this.#inFlight.delete(namespace));
      this.#inFlight.set(namespace, pending);
    }
    return pending;
  }

  /** Stops the informer and forgets what live lists said (the plugin closes). */
  close(): void {
    void this.#informer?.close();
    this.#live.clear();
  }

  async #liveList(ctx: RequestContext, namespace: string): Promise<readonly T[]> {
    const list = await this.#lister.list(ctx, { readOnly: true });
    const items = list.items as T[];
    this.#live.delete(namespace);
    if (this.#live.size >= this.#maxEntries) {
      const oldest = this.#live.keys().next();
      if (oldest.done !== true) this.#live.delete(oldest.value);
    }
    this.#live.set(namespace, { expiresAt: this.#now() + this.#ttlMs, items });
    return items;
  }
}

const canWatch = (l: Lister): l is Lister & Watcher => typeof (l as Partial<Watcher>).watch === 'function';

const none: readonly never[] = Object.freeze([]);

/** An informer's objects by namespace; a namespace's array is built when first asked after a change. */
class NamespaceInformer<T extends KubeObject> {
  readonly #source: ObjectSource<T>;
  #synced = false;
  /** Per namespace: its objects by name. */
  #groups = new Map<string, Map<string, T>>();
  readonly #arrays = new Map<string, readonly T[]>();

  constructor(source: Lister & Watcher) {
    this.#source = new ObjectSource<T>({
      source,
      keyOf: (obj) => `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`,
      onChange: (type, obj) => {
        if (type === undefined || obj === undefined) this.#regroup();
        else this.#change(type === 'DELETED', obj as T);
      },
    });
  }

  /** The namespace's objects, or undefined before the informer has listed. */
  of(namespace: string): readonly T[] | undefined {
    if (!this.#synced) return undefined;
    let items = this.#arrays.get(namespace);
    if (items === undefined) {
      const group = this.#groups.get(namespace);
      if (group === undefined) return none;
      items = [...group.values()];
      this.#arrays.set(namespace, items);
    }
    return items;
  }

  close(): Promise<void> {
    return this.#source.close();
  }

  #regroup(): void {
    this.#groups = new Map();
    this.#arrays.clear();
    for (const obj of this.#source.values()) this.#change(false, obj);
    this.#synced = true;
  }

  #change(deleted: boolean, obj: T): void {
    const namespace = obj.metadata?.namespace ?? '';
    const name = obj.metadata?.name ?? '';
    this.#arrays.delete(namespace);
    let group = this.#groups.get(namespace);
    if (deleted) {
      group?.delete(name);
      if (group?.size === 0) this.#groups.delete(namespace);
      return;
    }
    if (group === undefined) {
      group = new Map();
      this.#groups.set(namespace, group);
    }
    group.set(name, obj);
  }
}
