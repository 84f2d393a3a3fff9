// How LimitRanger and ResourceQuota read the objects of one namespace, as kube's plugins read them
// (limitranger/admission.go GetLimitRanges, resourcequota/resource_access.go GetQuotas): the watch
// cache's list (resourceVersion "0", shared frozen objects), and only when it holds none, a live
// list whose answer is kept for a while per namespace, so a namespace without any costs a cache
// lookup per request and a storage read every liveTTL at most. Lookups of one namespace in flight
// together share one live read (kube's singleflight).
import type { KubeObject } from '../../api/meta.js';
import type { Lister } from '../../registry/rest/capabilities.js';
import { internalContext, type RequestContext } from '../../registry/rest/context.js';

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

  constructor(opts: NamespacedListerOptions) {
    this.#lister = opts.lister;
    this.#ttlMs = opts.liveTTLMs ?? 30_000;
    this.#maxEntries = opts.maxEntries ?? 10_000;
    this.#now = opts.now ?? Date.now;
  }

  /** The namespace's objects (read-only: they may be the cache's own). */
  async list(ctx: RequestContext, namespace: string): Promise<readonly T[]> {
    const internal = internalContext({ namespace, parent: ctx });
    const cached = await this.#lister.list(internal, { resourceVersion: '0', readOnly: true });
    if (cached.items.length > 0) return cached.items as T[];
    const entry = this.#live.get(namespace);
    if (entry !== undefined && entry.expiresAt > this.#now()) return entry.items;
    let pending = this.#inFlight.get(namespace);
    if (pending === undefined) {
      pending = this.#liveList(internal, namespace).finally(() => this.#inFlight.delete(namespace));
      this.#inFlight.set(namespace, pending);
    }
    return pending;
  }

  /** Forgets what live lists said (the plugin closes). */
  close(): void {
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
