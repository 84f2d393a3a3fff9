// The kv Backend on a real etcd v3 cluster, shaped as k8s.io/apiserver/pkg/storage/etcd3/store.go
// talks to etcd: compare-and-swap transactions on mod_revision, ranges at a revision with a limit,
// count-only ranges, one shared watch stream, TTLs through reused leases.
import {
  BackendUnavailableError,
  CompactedError,
  FutureRevisionError,
  type Backend,
  type BackendWatch,
  type KeyRange,
  type KeyValue,
  type RangeResult,
  type SessionLeases,
  type WatchCallbacks,
  type WatchRequest,
  type WriteResult,
} from '../../kv/backend.js';
import { findCompactRevision } from './compact-revision.js';
import { EtcdClient, type EtcdClientOptions } from './etcd-client.js';
import { createTxn, deleteTxn, updateTxn, writeResult } from './etcd-txn.js';
import { EtcdWatcher } from './etcd-watcher.js';
import { EtcdRpcError } from './grpc-errors.js';
import { headerRevision, keyBytes, rangeBytes, toKeyValue } from './kv-convert.js';
import { LeaseManager, type LeaseManagerOptions } from './lease-manager.js';
import { int64ToNumber, int64ToString } from './rpc-types.js';
import { supportsRequestProgress } from './etcd-version.js';

export interface Etcd3BackendOptions extends EtcdClientOptions {
  /** Lease reuse as kube's LeaseManagerConfig (reuse window, share of TTL, objects per lease). */
  readonly leases?: Omit<LeaseManagerOptions, 'client'>;
  /** How long a broken watch stream is retried before its watches fail (default 20 s). */
  readonly watchRetryTimeoutMs?: number;
  /**
   * Whether requestProgress() sends WatchProgressRequests: 'auto' (default) when the etcd version
   * answers them in order, 'always' for builds with the fix backported, 'never'.
   */
  readonly progressRequests?: 'auto' | 'always' | 'never';
}

/** A key no Capstan object uses; reads of it only fetch the revision header. */
const probeKey = keyBytes('compact_rev_key');

export class Etcd3Backend implements Backend {
  readonly type = 'etcd3';
  readonly #client: EtcdClient;
  readonly #watcher: EtcdWatcher;
  readonly #leases: LeaseManager;
  #compactedAtLeast = 0;
  #progressSupport: Promise<boolean> | null = null;
  readonly #progressRequests: 'auto' | 'always' | 'never';
  #closed = false;

  constructor(opts: Etcd3BackendOptions) {
    this.#client = new EtcdClient(opts);
    this.#watcher = new EtcdWatcher({
      client: this.#client,
      ...(opts.watchRetryTimeoutMs === undefined ? {} : { retryTimeoutMs: opts.watchRetryTimeoutMs }),
    });
    this.#leases = new LeaseManager({ ...opts.leases, client: this.#client });
    this.#progressRequests = opts.progressRequests ?? 'auto';
  }

  /**
   * Opens a backend, as SqliteBackend.open does. It does not wait for etcd: a cluster that is down
   * shows as BackendUnavailableError on calls (and red /readyz), not as a server that fails to start.
   */
  static open(opts: Etcd3BackendOptions): Promise<Etcd3Backend> {
    return Promise.resolve(new Etcd3Backend(opts));
  }

  /** The underlying client, for the compactor and etcd-specific tooling. */
  get etcdClient(): EtcdClient {
    return this.#client;
  }

  get leaseManager(): LeaseManager {
    return this.#leases;
  }

  /** Leases of their own for keys that live while a server renews them (masterleases, leader lock). */
  readonly sessions: SessionLeases = {
    grant: async (ttlSeconds) => {
      const res = await this.#client.call('leaseGrant', { TTL: Math.max(1, Math.ceil(ttlSeconds)) });
      if (res.error !== '') throw new Error(`etcd3: lease grant failed: ${res.error}`);
      return int64ToString(res.ID);
    },
    keepAlive: async (id) => int64ToNumber((await this.#client.call('leaseKeepAlive', { ID: id })).TTL),
    revoke: async (id) => {
      await this.#client.call('leaseRevoke', { ID: id });
    },
  };

  async currentRevision(): Promise<number> {
    const res = await this.#client.call('range', { key: probeKey, count_only: true });
    return headerRevision(res);
  }

  async get(key: string, opts?: { revision?: number }): Promise<{ revision: number; kv: KeyValue | null }> {
    const revision = opts?.revision ?? 0;
    const res = await this.#read(revision, () =>
      this.#client.call('range', { key: keyBytes(key), revision }),
    );
    const first = res.kvs[0];
    return {
      revision: revision > 0 ? revision : headerRevision(res),
      kv: first === undefined ? null : toKeyValue(first),
    };
  }

  async list(range: KeyRange, opts?: { revision?: number; limit?: number }): Promise<RangeResult> {
    const revision = opts?.revision ?? 0;
    const limit = opts?.limit ?? 0;
    const res = await this.#read(revision, () =>
      this.#client.call('range', { ...rangeBytes(range), revision, limit }),
    );
    return {
      revision: revision > 0 ? revision : headerRevision(res),
      kvs: res.kvs.map(toKeyValue),
      more: res.more,
    };
  }

  async count(range: KeyRange, opts?: { revision?: number }): Promise<{ revision: number; count: number }> {
    const revision = opts?.revision ?? 0;
    const res = await this.#read(revision, () =>
      this.#client.call('range', { ...rangeBytes(range), revision, count_only: true }),
    );
    return { revision: revision > 0 ? revision : headerRevision(res), count: int64ToNumber(res.count) };
  }

  async create(key: string, value: Buffer, opts?: { ttl?: number; lease?: string }): Promise<WriteResult> {
    const lease = opts?.lease ?? (await this.#lease(opts?.ttl));
    return writeResult(await this.#client.call('txn', createTxn(key, value, lease)));
  }

  async update(
    key: string,
    value: Buffer,
    opts: { modRevision: number; ttl?: number; lease?: string },
  ): Promise<WriteResult> {
    const lease = opts.lease ?? (await this.#lease(opts.ttl));
    return writeResult(
      await this.#client.call('txn', updateTxn(key, value, { modRevision: opts.modRevision, lease })),
    );
  }

  async delete(key: string, opts: { modRevision: number }): Promise<WriteResult> {
    return writeResult(await this.#client.call('txn', deleteTxn(key, opts.modRevision)));
  }

  interruptWatches(err: Error): void {
    this.#watcher.interruptAll(err);
  }

  watch(range: KeyRange, req: WatchRequest, callbacks: WatchCallbacks): BackendWatch {
    return this.#watcher.watch(range, req, callbacks);
  }

  /**
   * Asks etcd for a progress report on every watch. etcd before 3.4.31 / 3.5.13 may send that report
   * ahead of events it has not delivered yet (etcd-io/etcd#15220), so there, as kube's
   * feature_support_checker decides, we do not ask: progress then comes only from the periodic
   * notifications of watches opened with progressNotify (etcd's
   * --experimental-watch-progress-notify-interval).
   */
  async requestProgress(): Promise<void> {
    if (await this.supportsRequestProgress()) this.#watcher.requestProgress();
  }

  /** Whether the etcd serving us answers progress requests in order with events. */
  supportsRequestProgress(): Promise<boolean> {
    if (this.#progressRequests !== 'auto') return Promise.resolve(this.#progressRequests === 'always');
    if (this.#progressSupport !== null) return this.#progressSupport;
    const check = this.#client.call('status', {}).then((s) => supportsRequestProgress(s.version));
    this.#progressSupport = check;
    check.catch(() => (this.#progressSupport = null));
    return check;
  }

  async compact(revision: number): Promise<void> {
    try {
      await this.#client.call('compact', { revision });
    } catch (err) {
      // Compacting at or below the compacted revision is a no-op for the port, as it is for kube.
      if (!(err instanceof EtcdRpcError && err.isCompacted)) throw await this.#revisionError(err, revision);
    }
    this.#compactedAtLeast = Math.max(this.#compactedAtLeast, revision);
  }

  compactRevision(): Promise<number> {
    return this.#findCompactRevision(this.#compactedAtLeast);
  }

  /** `atLeast`: a revision known to be at or below the compacted one (a read below it failed). */
  async #findCompactRevision(atLeast: number): Promise<number> {
    const current = await this.currentRevision();
    const found = await findCompactRevision({
      current,
      known: Math.max(this.#compactedAtLeast, atLeast),
      probe: async (rev) => {
        try {
          await this.#client.call('range', { key: probeKey, revision: rev, count_only: true });
          return false;
        } catch (err) {
          if (err instanceof EtcdRpcError && err.isCompacted) return true;
          throw err;
        }
      },
    });
    this.#compactedAtLeast = Math.max(this.#compactedAtLeast, found);
    return found;
  }

  /** The member's database size (Status.dbSize), as kube's storage metrics report it. */
  async size(): Promise<number> {
    return int64ToNumber((await this.#client.call('status', {})).dbSize);
  }

  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.#watcher.close();
      this.#client.close();
    }
    return Promise.resolve();
  }

  async #lease(ttl: number | undefined): Promise<string | undefined> {
    if (ttl === undefined || ttl <= 0) return undefined;
    if (this.#closed) throw new BackendUnavailableError('etcd3: client is closed');
    return this.#leases.getLease(ttl);
  }

  async #read<T>(revision: number, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw await this.#revisionError(err, revision);
    }
  }

  /** etcd's revision errors carry no numbers; fetch the ones the port's errors report. */
  async #revisionError(err: unknown, requested: number): Promise<unknown> {
    if (!(err instanceof EtcdRpcError)) return err;
    if (err.isCompacted) return new CompactedError(requested, await this.#findCompactRevision(requested + 1));
    if (err.isFutureRevision) return new FutureRevisionError(requested, await this.currentRevision());
    return err;
  }
}
