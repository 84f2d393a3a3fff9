// Hands out etcd leases for keys written with a TTL, reusing one lease across many keys for a
// while, as k8s.io/apiserver/pkg/storage/etcd3/lease_manager.go does: granting a lease per event
// would cost etcd a lease (and a revoke) per object. A reused lease is granted with its TTL padded
// by the reuse window, so each key lives at least its TTL and at most TTL + window.
import type { EtcdClient } from './etcd-client.js';
import { int64ToString } from './rpc-types.js';

export interface LeaseManagerOptions {
  readonly client: EtcdClient;
  /** Longest reuse window (kube's default 60 s). */
  readonly reuseDurationSeconds?: number;
  /** Reuse window as a share of the TTL, capped by reuseDurationSeconds (kube's default 0.05). */
  readonly reuseDurationPercent?: number;
  /** Objects attached to one lease before a new one is granted; 0 = no limit (kube's default 1000). */
  readonly maxObjectCount?: number;
  /** Clock for tests. */
  readonly now?: () => number;
}

export class LeaseManager {
  readonly #client: EtcdClient;
  readonly #reuseSeconds: number;
  readonly #reusePercent: number;
  readonly #maxObjects: number;
  readonly #now: () => number;
  #prevId: string | null = null;
  #prevExpiresAt = 0;
  #attached = 0;
  #granted = 0;
  /** Serializes getLease so concurrent writers share one grant, as kube's mutex does. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(opts: LeaseManagerOptions) {
    this.#client = opts.client;
    this.#reuseSeconds = opts.reuseDurationSeconds ?? 60;
    this.#reusePercent = opts.reuseDurationPercent ?? 0.05;
    this.#maxObjects = opts.maxObjectCount ?? 1000;
    this.#now = opts.now ?? Date.now;
  }

  /** Leases granted so far (for tests and metrics). */
  get grantedCount(): number {
    return this.#granted;
  }

  /** A lease ID (int64 as a decimal string) that keeps a key for at least `ttlSeconds`. */
  getLease(ttlSeconds: number): Promise<string> {
    const next = this.#queue.then(() => this.#getLeaseLocked(Math.max(1, Math.ceil(ttlSeconds))));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #getLeaseLocked(ttl: number): Promise<string> {
    const now = this.#now();
    const reuse = Math.min(Math.floor(this.#reusePercent * ttl), this.#reuseSeconds);
    // Reuse only a lease that outlives this TTL but not by more than the reuse window.
    const valid = now + ttl * 1000 < this.#prevExpiresAt;
    const sufficient = now + (ttl + reuse) * 1000 > this.#prevExpiresAt;
    this.#attached++;
    const underLimit = this.#maxObjects <= 0 || this.#attached <= this.#maxObjects;
    if (this.#prevId !== null && valid && sufficient && underLimit) return this.#prevId;
    const granted = ttl + reuse;
    const res = await this.#client.call('leaseGrant', { TTL: granted });
    if (res.error !== '') throw new Error(`etcd3: lease grant failed: ${res.error}`);
    this.#granted++;
    this.#prevId = int64ToString(res.ID);
    this.#prevExpiresAt = now + granted * 1000;
    this.#attached = 1;
    return this.#prevId;
  }
}
