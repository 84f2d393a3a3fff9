// The server's metrics. prom-client costs about 100 ms to load, a third of the start budget, so it
// is imported once the server is ready (or at the first scrape); what happens before is queued and
// replayed, so no request goes uncounted.
import { createRequire } from 'node:module';
import type * as PromClient from 'prom-client';
import type { AdmissionMetrics } from '../../admission/metrics/admission-metrics.js';
import type { AuditMetrics } from '../audit/metrics.js';
import type { EncryptionMetrics } from '../encryption/metrics.js';
import type { PromMetrics } from './prom-metrics.js';
import type { FlowLabels } from './prom-flowcontrol-metrics.js';
import { HistogramSeries } from './histogram-series.js';
import { RequestAggregates, type RequestResult } from './request-aggregates.js';
import type { RequestLabels } from './request-labels.js';
import type { VersionInfo } from '../version/version.js';
import type { WorkqueueMetrics } from './workqueue-metrics.js';

export type { RequestLabels } from './request-labels.js';
export { requestLabelsOf } from './request-labels.js';

/** The registry's ObjectCountMetric shape: stores poll their counts and report them here. */
export interface ObjectCountMetric {
  set(resource: string, count: number): void;
  delete(resource: string): void;
}

/** Where the storage size monitor reports `apiserver_storage_size_bytes{storage_cluster_id}`. */
export interface StorageSizeMetric {
  set(storageClusterId: string, bytes: number): void;
  delete(storageClusterId: string): void;
}

/**
 * Where the aggregator reports its APIServices' availability (kube-aggregator's status metrics):
 * `aggregator_unavailable_apiservice{name}` per APIService, and
 * `aggregator_unavailable_apiservice_total{name,reason}` each time one becomes unavailable.
 */
export interface APIServiceAvailabilityMetric {
  set(name: string, available: boolean): void;
  delete(name: string): void;
  becameUnavailable(name: string, reason: string): void;
}

/** Where API Priority and Fairness reports what it does with each classified request. */
export interface FlowControlMetrics {
  dispatched(l: FlowLabels): void;
  addExecuting(l: FlowLabels, delta: number): void;
  rejected(l: FlowLabels, reason: string): void;
}

type Update = (m: PromMetrics) => void;

// prom-client is CommonJS: required, not import()ed, because the command's bundle runs from a V8 code
// cache, where a script keeps no callback for import() (src/cmd/code-cache.ts).
const requireCommonJS = createRequire(import.meta.url);

// kube's apiserver_client_certificate_expiration_seconds buckets: 0, 30 minutes … 1 year.
const certificateExpirationBuckets = [
  0, 1800, 3600, 7200, 21600, 43200, 86400, 172800, 345600, 604800, 2592000, 7776000, 15552000, 31104000,
];
const noLabels = (): Record<string, never> => ({});

// Beyond this many queued updates before prom-client is loaded, the oldest are dropped.
const maxQueued = 10_000;

export class ApiserverMetrics {
  #loaded: PromMetrics | undefined;
  #loading: Promise<PromMetrics> | undefined;
  #queue: Update[] = [];
  #closed = false;
  // Counted here on every request, without prom-client; read at each scrape.
  readonly #requests = new RequestAggregates();
  readonly #inflight = new Map<'readOnly' | 'mutating', number>();
  readonly #build: VersionInfo | undefined;
  #admission: AdmissionMetrics | undefined;
  #workqueues: WorkqueueMetrics | undefined;
  readonly #certificateExpiration = new HistogramSeries<null, Record<string, never>>(
    certificateExpirationBuckets,
    noLabels,
  );

  /** `build`: what kubernetes_build_info reports (the server's /version). */
  constructor(build?: VersionInfo) {
    this.#build = build;
  }

  /** Loads prom-client and replays what was recorded meanwhile; idempotent. */
  load(): Promise<PromMetrics> {
    this.#loading ??= (async () => {
      const [prom, { PromMetrics: Impl }] = await Promise.all([
        Promise.resolve().then(() => requireCommonJS('prom-client') as typeof PromClient),
        import('./prom-metrics.js'),
      ]);
      const metrics = new Impl(prom, {
        requests: this.#requests,
        inflight: () => this.#inflight,
        certificateExpiration: this.#certificateExpiration,
        admission: () => this.#admission,
        workqueues: () => this.#workqueues,
        ...(this.#build === undefined ? {} : { build: this.#build }),
      });
      for (const update of this.#queue) update(metrics);
      this.#queue = [];
      this.#loaded = metrics;
      if (this.#closed) metrics.close();
      return metrics;
    })();
    return this.#loading;
  }

  #apply(update: Update): void {
    if (this.#loaded !== undefined) {
      update(this.#loaded);
      return;
    }
    if (this.#queue.length >= maxQueued) this.#queue.shift();
    this.#queue.push(update);
  }

  /** Where stores report their object counts (the registry's ObjectCountMetric). */
  get objectCountMetric(): ObjectCountMetric {
    return {
      set: (resource, count) => {
        this.#apply((m) => {
          m.setStorageObjects(resource, count);
        });
      },
      delete: (resource) => {
        this.#apply((m) => {
          m.setStorageObjects(resource, undefined);
        });
      },
    };
  }

  /** Where the storage size monitor reports database sizes. */
  get apiServiceAvailabilityMetric(): APIServiceAvailabilityMetric {
    return {
      set: (name, available) => {
        this.#apply((m) => {
          m.setAPIServiceAvailability(name, available);
        });
      },
      delete: (name) => {
        this.#apply((m) => {
          m.setAPIServiceAvailability(name, undefined);
        });
      },
      becameUnavailable: (name, reason) => {
        this.#apply((m) => {
          m.countUnavailableAPIService(name, reason);
        });
      },
    };
  }

  get storageSizeMetric(): StorageSizeMetric {
    return {
      set: (id, bytes) => {
        this.#apply((m) => {
          m.setStorageSize(id, bytes);
        });
      },
      delete: (id) => {
        this.#apply((m) => {
          m.setStorageSize(id, undefined);
        });
      },
    };
  }

  /** Where API Priority and Fairness reports dispatched, executing and rejected requests. */
  get flowControlMetrics(): FlowControlMetrics {
    return {
      dispatched: (l) => {
        this.#apply((m) => {
          m.flowControl.dispatched(l);
        });
      },
      addExecuting: (l, delta) => {
        this.#apply((m) => {
          m.flowControl.addExecuting(l, delta);
        });
      },
      rejected: (l, reason) => {
        this.#apply((m) => {
          m.flowControl.rejected(l, reason);
        });
      },
    };
  }

  /** Where auditing reports events, policy levels, plugin errors and refused requests. */
  get auditMetrics(): AuditMetrics {
    return {
      observeEvent: () => {
        this.#apply((m) => {
          m.audit.observeEvent();
        });
      },
      observePolicyLevel: (level) => {
        this.#apply((m) => {
          m.audit.observePolicyLevel(level);
        });
      },
      pluginError: (plugin, events) => {
        this.#apply((m) => {
          m.audit.pluginError(plugin, events);
        });
      },
      requestRejected: () => {
        this.#apply((m) => {
          m.audit.requestRejected();
        });
      },
    };
  }

  /** Where encryption at rest reports transformations and config reloads. */
  get encryptionMetrics(): EncryptionMetrics {
    return {
      recordTransformation: (o) => {
        this.#apply((m) => {
          m.encryption.recordTransformation(o);
        });
      },
      recordAutomaticReload: (r) => {
        this.#apply((m) => {
          m.encryption.recordAutomaticReload(r);
        });
      },
      recordLastConfig: (hash) => {
        this.#apply((m) => {
          m.encryption.recordLastConfig(hash);
        });
      },
    };
  }

  /** What the admission chain counts, shown from the next scrape on. */
  attachAdmission(metrics: AdmissionMetrics): void {
    this.#admission = metrics;
  }

  /** What the controllers' work queues count, shown from the next scrape on. */
  attachWorkqueues(metrics: WorkqueueMetrics): void {
    this.#workqueues = metrics;
  }

  observeRequest(labels: RequestLabels, result: RequestResult): void {
    this.#requests.observe(labels, result);
  }

  /** apiserver_client_certificate_expiration_seconds: a request's client certificate's remaining life. */
  observeClientCertificateExpiration(seconds: number): void {
    this.#certificateExpiration.observe('', null, seconds);
  }

  /**
   * apiserver_request_terminations_total: a request a filter ended in self-defense. A non-resource
   * request is named by its path, as kube's RecordRequestTermination names it.
   */
  recordTermination(labels: RequestLabels, at: { code: number; nonResourcePath?: string }): void {
    const { verb, group, version, resource, scope, component } = labels;
    const subresource = at.nonResourcePath ?? labels.subresource;
    const code = String(at.code);
    this.#apply((m) => {
      m.countTermination({ verb, group, version, resource, subresource, scope, component, code });
    });
  }

  /** Counts a long-running request until the returned function is called. */
  trackLongRunning(labels: RequestLabels): () => void {
    this.#apply((m) => {
      m.addLongRunning(labels, 1);
    });
    return () => {
      this.#apply((m) => {
        m.addLongRunning(labels, -1);
      });
    };
  }

  setInflight(kind: 'readOnly' | 'mutating', n: number): void {
    this.#inflight.set(kind, n);
  }

  recordDropped(kind: 'readOnly' | 'mutating'): void {
    this.#apply((m) => {
      m.recordDropped(kind);
    });
  }

  /** The Prometheus text exposition and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    const metrics = await this.load();
    return { contentType: metrics.contentType, body: await metrics.render() };
  }

  close(): void {
    this.#closed = true;
    this.#queue = [];
    this.#loaded?.close();
  }
}
