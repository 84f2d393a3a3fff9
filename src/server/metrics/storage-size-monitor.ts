// Polls each storage's size for `apiserver_storage_size_bytes{storage_cluster_id}` every
// --etcd-db-metric-poll-interval, as kube's DB size monitor does. kube's newer collector asks etcd at
// scrape time; polling keeps a scrape from waiting on a slow or absent storage. A storage that does
// not answer drops out of the metric until it answers again.
import type { StorageSizeMetric } from './apiserver-metrics.js';

/** One storage to size (the backend factory's StorageMonitor has this shape). */
export interface SizedStorage {
  readonly storageClusterId: string;
  size(): Promise<number>;
}

export interface StorageSizeMonitorOptions {
  /** The storages open now (backends open lazily, so asked again on every poll). */
  readonly storages: () => readonly SizedStorage[];
  /** Milliseconds between polls; 0 turns the monitor off. */
  readonly intervalMs: number;
  readonly metric: StorageSizeMetric;
  readonly onError?: (storageClusterId: string, err: unknown) => void;
}

async function pollOnce(opts: StorageSizeMonitorOptions): Promise<void> {
  await Promise.all(
    opts.storages().map(async (s) => {
      try {
        opts.metric.set(s.storageClusterId, await s.size());
      } catch (err) {
        opts.metric.delete(s.storageClusterId);
        opts.onError?.(s.storageClusterId, err);
      }
    }),
  );
}

/** Polls now and then every interval; the returned function stops it (after a poll in flight). */
export function startStorageSizeMonitor(opts: StorageSizeMonitorOptions): () => Promise<void> {
  if (opts.intervalMs <= 0) return () => Promise.resolve();
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<void> = Promise.resolve();
  const poll = (): void => {
    timer = null;
    inFlight = pollOnce(opts).finally(() => {
      if (stopped) return;
      timer = setTimeout(poll, opts.intervalMs);
      timer.unref();
    });
  };
  poll();
  return async () => {
    stopped = true;
    if (timer !== null) clearTimeout(timer);
    await inFlight;
  };
}
