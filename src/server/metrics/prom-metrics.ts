// The apiserver metrics on a prom-client Registry owned by one server: no default registry, so
// servers in one process do not share counters.
import type { Counter, Gauge, Metric, Registry } from 'prom-client';
import { EncryptionPromMetrics } from '../encryption/prom-encryption-metrics.js';
import { AuditPromMetrics } from './prom-audit-metrics.js';
import { FlowControlPromMetrics } from './prom-flowcontrol-metrics.js';
import { registerAdmissionMetrics } from './prom-admission-metrics.js';
import type { AdmissionMetrics } from '../../admission/metrics/admission-metrics.js';
import { registerProcessMetrics } from './process-metrics.js';
import type { HistogramSeries } from './histogram-series.js';
import type { RequestAggregates } from './request-aggregates.js';
import { requestLabels, type RequestLabel, type RequestLabels } from './request-labels.js';
import type { VersionInfo } from '../version/version.js';
import { registerWorkqueueMetrics } from './prom-workqueue-metrics.js';
import type { WorkqueueMetrics } from './workqueue-metrics.js';

export type PromClient = typeof import('prom-client');

type InflightKind = 'readOnly' | 'mutating';

/** What is counted without prom-client, read at each scrape. */
export interface PromMetricsSources {
  readonly requests: RequestAggregates;
  /** The requests in flight per kind, for the kinds that have had any. */
  readonly inflight: () => ReadonlyMap<InflightKind, number>;
  /** The client certificates' remaining lifetimes, counted per request presenting one. */
  readonly certificateExpiration: HistogramSeries<null, Record<string, never>>;
  /** The server's /version, for kubernetes_build_info. */
  readonly build?: VersionInfo;
  /** What the admission chain counts, once attached (apiserver_admission_*). */
  readonly admission?: () => AdmissionMetrics | undefined;
  /** What the controllers' work queues count, once attached (workqueue_*). */
  readonly workqueues?: () => WorkqueueMetrics | undefined;
}

/** kubernetes_build_info (k8s.io/component-base/metrics/prometheus/version): 1, the build as labels. */
function registerBuildInfo(prom: PromClient, r: { registry: Registry; info: VersionInfo }): void {
  const { info } = r;
  new prom.Gauge({
    name: 'kubernetes_build_info',
    help: "A metric with a constant '1' value labeled by major, minor, git version, git commit, git tree state, build date, Go version, and compiler from which Kubernetes was built, and platform on which it is running.",
    labelNames: [
      'major',
      'minor',
      'git_version',
      'git_commit',
      'git_tree_state',
      'build_date',
      'go_version',
      'compiler',
      'platform',
    ],
    registers: [r.registry],
  }).set(
    {
      major: info.major,
      minor: info.minor,
      git_version: info.gitVersion,
      git_commit: info.gitCommit,
      git_tree_state: info.gitTreeState,
      build_date: info.buildDate,
      go_version: info.goVersion,
      compiler: info.compiler,
      platform: info.platform,
    },
    1,
  );
}

const terminationLabels = [
  'verb',
  'group',
  'version',
  'resource',
  'subresource',
  'scope',
  'component',
  'code',
] as const;
type TerminationLabel = (typeof terminationLabels)[number];

export class PromMetrics {
  readonly #registry: Registry;
  readonly #longRunning: Gauge<RequestLabel>;
  readonly #dropped: Counter<'request_kind'>;
  readonly #terminations: Counter<TerminationLabel>;
  readonly #storageObjects: Gauge<'resource'>;
  readonly #storageSize: Gauge<'storage_cluster_id'>;
  readonly #unavailableAPIService: Gauge<'name'>;
  readonly #unavailableAPIServiceTotal: Counter<'name' | 'reason'>;
  /** apiserver_storage_transformation_* and apiserver_encryption_config_controller_*. */
  readonly encryption: EncryptionPromMetrics;
  /** apiserver_flowcontrol_*. */
  readonly flowControl: FlowControlPromMetrics;
  /** apiserver_audit_*. */
  readonly audit: AuditPromMetrics;

  constructor(prom: PromClient, sources: PromMetricsSources) {
    this.#registry = new prom.Registry();
    const registers = [this.#registry];
    this.#registry.registerMetric(
      sources.requests.totalMetric({
        name: 'apiserver_request_total',
        help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      }) as unknown as Metric,
    );
    this.#registry.registerMetric(
      sources.requests.durationMetric({
        name: 'apiserver_request_duration_seconds',
        help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      }) as unknown as Metric,
    );
    this.#registry.registerMetric(
      sources.requests.sliDurationMetric({
        name: 'apiserver_request_sli_duration_seconds',
        help: 'Response latency distribution (not counting webhook duration and priority & fairness queue wait times) in seconds for each verb, group, version, resource, subresource, scope and component.',
      }) as unknown as Metric,
    );
    this.#registry.registerMetric(
      sources.certificateExpiration.metric({
        name: 'apiserver_client_certificate_expiration_seconds',
        help: 'Distribution of the remaining lifetime on the certificate used to authenticate a request.',
      }) as unknown as Metric,
    );
    this.#longRunning = new prom.Gauge({
      name: 'apiserver_longrunning_requests',
      help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
      labelNames: requestLabels,
      registers,
    });
    new prom.Gauge({
      name: 'apiserver_current_inflight_requests',
      help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
      labelNames: ['request_kind'],
      registers,
      // Counted in the max-in-flight filter; read here at each scrape.
      collect() {
        for (const [kind, n] of sources.inflight()) this.set({ request_kind: kind }, n);
      },
    });
    this.#dropped = new prom.Counter({
      name: 'apiserver_dropped_requests_total',
      help: "Number of requests dropped with 'Try again later' response.",
      labelNames: ['request_kind'],
      registers,
    });
    this.#terminations = new prom.Counter({
      name: 'apiserver_request_terminations_total',
      help: 'Number of requests which apiserver terminated in self-defense.',
      labelNames: terminationLabels,
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
    this.#unavailableAPIService = new prom.Gauge({
      name: 'aggregator_unavailable_apiservice',
      help: 'Gauge of APIServices which are marked as unavailable broken down by APIService name.',
      labelNames: ['name'],
      registers,
    });
    this.#unavailableAPIServiceTotal = new prom.Counter({
      name: 'aggregator_unavailable_apiservice_total',
      help: 'Counter of APIServices which are marked as unavailable broken down by APIService name and reason.',
      labelNames: ['name', 'reason'],
      registers,
    });
    this.encryption = new EncryptionPromMetrics(prom, this.#registry);
    this.flowControl = new FlowControlPromMetrics(prom, this.#registry);
    this.audit = new AuditPromMetrics(prom, this.#registry);
    if (sources.admission !== undefined) registerAdmissionMetrics(this.#registry, sources.admission);
    if (sources.workqueues !== undefined) registerWorkqueueMetrics(this.#registry, sources.workqueues);
    registerProcessMetrics(prom, this.#registry);
    if (sources.build !== undefined)
      registerBuildInfo(prom, { registry: this.#registry, info: sources.build });
  }

  addLongRunning(labels: RequestLabels, delta: number): void {
    this.#longRunning.inc(labels, delta);
  }

  countTermination(labels: Readonly<Record<TerminationLabel, string>>): void {
    this.#terminations.inc(labels);
  }

  recordDropped(kind: InflightKind): void {
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

  /** 1 while the APIService is not Available, 0 while it is; gone with it (undefined). */
  setAPIServiceAvailability(name: string, available: boolean | undefined): void {
    if (available === undefined) this.#unavailableAPIService.remove({ name });
    else this.#unavailableAPIService.set({ name }, available ? 0 : 1);
  }

  countUnavailableAPIService(name: string, reason: string): void {
    this.#unavailableAPIServiceTotal.inc({ name, reason });
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
