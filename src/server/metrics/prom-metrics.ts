// The apiserver metrics on a prom-client Registry owned by one server: no default registry, so
// servers in one process do not share counters.
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { EncryptionPromMetrics } from '../encryption/prom-encryption-metrics.js';
import { durationBuckets, requestLabels, type RequestLabel, type RequestLabels } from './request-labels.js';

export type PromClient = typeof import('prom-client');

export class PromMetrics {
  readonly #registry: Registry;
  readonly #requests: Counter<RequestLabel | 'code'>;
  readonly #duration: Histogram<RequestLabel>;
  readonly #longRunning: Gauge<RequestLabel>;
  readonly #inflight: Gauge<'request_kind'>;
  readonly #dropped: Counter<'request_kind'>;
  readonly #storageObjects: Gauge<'resource'>;
  readonly #storageSize: Gauge<'storage_cluster_id'>;
  /** apiserver_storage_transformation_* and apiserver_encryption_config_controller_*. */
  readonly encryption: EncryptionPromMetrics;

  constructor(prom: PromClient) {
    this.#registry = new prom.Registry();
    const registers = [this.#registry];
    this.#requests = new prom.Counter({
      name: 'apiserver_request_total',
      help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      labelNames: [...requestLabels, 'code'],
      registers,
    });
    this.#duration = new prom.Histogram({
      name: 'apiserver_request_duration_seconds',
      help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      labelNames: requestLabels,
      buckets: durationBuckets,
      registers,
    });
    this.#longRunning = new prom.Gauge({
      name: 'apiserver_longrunning_requests',
      help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
      labelNames: requestLabels,
      registers,
    });
    this.#inflight = new prom.Gauge({
      name: 'apiserver_current_inflight_requests',
      help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
      labelNames: ['request_kind'],
      registers,
    });
    this.#dropped = new prom.Counter({
      name: 'apiserver_dropped_requests_total',
      help: "Number of requests dropped with 'Try again later' response.",
      labelNames: ['request_kind'],
      registers,
    });
    this.#storageObjects = new prom.Gauge({
      name: 'apiserver_storage_objects',
      help: 'Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.',
      labelNames: ['resource'],
      registers,
    });
    this.#storageSize = new prom.Gauge({
      name: 'apiserver_storage_size_bytes',
      help: 'Size of the storage database file physically allocated in bytes.',
      labelNames: ['storage_cluster_id'],
      registers,
    });
    this.encryption = new EncryptionPromMetrics(prom, this.#registry);
  }

  observeRequest(
    labels: RequestLabels,
    result: { code: number; seconds: number; longRunning: boolean },
  ): void {
    this.#requests.inc({ ...labels, code: String(result.code) });
    if (!result.longRunning) this.#duration.observe(labels, result.seconds);
  }

  addLongRunning(labels: RequestLabels, delta: number): void {
    this.#longRunning.inc(labels, delta);
  }

  setInflight(kind: 'readOnly' | 'mutating', n: number): void {
    this.#inflight.set({ request_kind: kind }, n);
  }

  recordDropped(kind: 'readOnly' | 'mutating'): void {
    this.#dropped.inc({ request_kind: kind });
  }

  setStorageObjects(resource: string, count: number | undefined): void {
    if (count === undefined) this.#storageObjects.remove({ resource });
    else this.#storageObjects.set({ resource }, count);
  }

  setStorageSize(storageClusterId: string, bytes: number | undefined): void {
    if (bytes === undefined) this.#storageSize.remove({ storage_cluster_id: storageClusterId });
    else this.#storageSize.set({ storage_cluster_id: storageClusterId }, bytes);
  }

  get contentType(): string {
    return this.#registry.contentType;
  }

  render(): Promise<string> {
    return this.#registry.metrics();
  }

  close(): void {
    this.#registry.clear();
  }
}
