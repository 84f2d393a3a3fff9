// What NamespaceLifecycle reads namespaces through, in place of kube's informer: Active namespaces
// are kept for a short while (reading one costs a storage read per create or update); a namespace
// this server is deleting is read live for 30s (kube's forceLiveLookupTTL), so this server admits
// nothing new into a namespace it has marked Terminating. Deletions through other servers are seen
// within the TTL; the namespace controller's 5s grace period before emptying a namespace covers that,
// as it covers kube's informer lag.
import type { Namespace } from '../../../api/core/v1/namespace.js';

/** kube's forceLiveLookupTTL. */
export const forceLiveLookupTTLMs = 30_000;

export interface NamespaceCacheOptions {
  /** How long an Active namespace is kept; 0 reads every time. */
  readonly ttlMs: number;
  readonly maxEntries?: number;
  readonly now?: () => number;
}

export class NamespaceCache {
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, { namespace: Namespace; expiresAt: number }>();
  readonly #forceLive = new Map<string, number>();

  constructor(opts: NamespaceCacheOptions) {
    this.#ttlMs = opts.ttlMs;
    this.#maxEntries = opts.maxEntries ?? 4096;
    this.#now = opts.now ?? Date.now;
  }

  /** The cached namespace, unless it expired or must be read live. */
  get(name: string): Namespace | undefined {
    const now = this.#now();
    const liveUntil = this.#forceLive.get(name);
    if (liveUntil !== undefined) {
      if (liveUntil > now) return undefined;
      this.#forceLive.delete(name);
    }
    const entry = this.#entries.get(name);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > now) return entry.namespace;
    this.#entries.delete(name);
    return undefined;
  }

  /** Keeps what a live read returned; only Active namespaces are kept. */
  set(name: string, namespace: Namespace): void {
    if (this.#ttlMs <= 0 || namespace.status?.phase !== 'Active') return;
    this.#entries.delete(name);
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
    this.#entries.set(name, { namespace, expiresAt: this.#now() + this.#ttlMs });
  }

  /** The namespace is being deleted here: forget it and read it live for a while. */
  forceLiveLookup(name: string): void {
    const now = this.#now();
    for (const [n, until] of this.#forceLive) if (until <= now) this.#forceLive.delete(n);
    this.#entries.delete(name);
    this.#forceLive.set(name, now + forceLiveLookupTTLMs);
  }

  close(): void {
    this.#entries.clear();
    this.#forceLive.clear();
  }
}
