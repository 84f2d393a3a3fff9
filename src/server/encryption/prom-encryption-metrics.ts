// Encryption at rest on prom-client, under kube's names and labels
// (k8s.io/apiserver/pkg/storage/value/metrics.go, .../encryptionconfig/metrics/metrics.go).
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { TransformationObservation } from '../../storage/value/metrics.js';
import type { EncryptionMetrics, ReloadStatus } from './metrics.js';

type PromClient = typeof import('prom-client');

/** metrics.ExponentialBuckets(5e-6, 2, 25): in-process ciphers take microseconds. */
const transformationBuckets = Array.from({ length: 25 }, (_, i) => 5e-6 * 2 ** i);

// kube labels by a hash of the apiserver's identity; Capstan servers have none, and kube's hash of ''
// is ''.
const apiserverIdHash = '';

export class EncryptionPromMetrics implements EncryptionMetrics {
  readonly #latency: Histogram<'transformation_type' | 'transformer_prefix'>;
  readonly #operations: Counter<'transformation_type' | 'transformer_prefix' | 'status'>;
  readonly #reloads: Counter<'status' | 'apiserver_id_hash'>;
  readonly #reloadTime: Gauge<'status' | 'apiserver_id_hash'>;
  readonly #configInfo: Gauge<'apiserver_id_hash' | 'hash'>;

  constructor(prom: PromClient, registry: Registry) {
    const registers = [registry];
    this.#latency = new prom.Histogram({
      name: 'apiserver_storage_transformation_duration_seconds',
      help: 'Latencies in seconds of value transformation operations.',
      labelNames: ['transformation_type', 'transformer_prefix'],
      buckets: transformationBuckets,
      registers,
    });
    this.#operations = new prom.Counter({
      name: 'apiserver_storage_transformation_operations_total',
      help: 'Total number of transformations.',
      labelNames: ['transformation_type', 'transformer_prefix', 'status'],
      registers,
    });
    this.#reloads = new prom.Counter({
      name: 'apiserver_encryption_config_controller_automatic_reloads_total',
      help: 'Total number of reload successes and failures of encryption configuration split by apiserver identity.',
      labelNames: ['status', 'apiserver_id_hash'],
      registers,
    });
    this.#reloadTime = new prom.Gauge({
      name: 'apiserver_encryption_config_controller_automatic_reload_last_timestamp_seconds',
      help: 'Timestamp of the last successful or failed automatic reload of encryption configuration split by apiserver identity.',
      labelNames: ['status', 'apiserver_id_hash'],
      registers,
    });
    this.#configInfo = new prom.Gauge({
      name: 'apiserver_encryption_config_controller_last_config_info',
      help: 'Information about the last applied encryption configuration with hash as label, split by apiserver identity.',
      labelNames: ['apiserver_id_hash', 'hash'],
      registers,
    });
  }

  recordTransformation(o: TransformationObservation): void {
    const labels = { transformation_type: o.type, transformer_prefix: o.prefix };
    this.#operations.inc({ ...labels, status: o.failed ? 'unknown-non-grpc' : 'OK' });
    if (!o.failed) this.#latency.observe(labels, o.seconds);
  }

  recordAutomaticReload(result: { readonly status: ReloadStatus }): void {
    const labels = { status: result.status, apiserver_id_hash: apiserverIdHash };
    this.#reloads.inc(labels);
    this.#reloadTime.set(labels, Date.now() / 1000);
  }

  recordLastConfig(contentHash: string): void {
    this.#configInfo.reset();
    this.#configInfo.set({ apiserver_id_hash: apiserverIdHash, hash: contentHash }, 1);
  }
}
