// An in-process metrics adapter for the HPA controller's tests: a MetricsAPIGetter answering as the
// servers behind metrics.k8s.io, custom.metrics.k8s.io and external.metrics.k8s.io would.
import type { APIAnswer, MetricsAPIGetter } from '../metrics-api-getter.js';
import type { PodMetricsAnswer } from '../resource-metrics.js';

/**
 * An in-process metrics adapter behind the aggregator: PodMetrics by pod name (none: the API answers
 * 404), custom metrics of pods by metric and pod name once custom.metrics.k8s.io is registered, and
 * external metric values by metric name. It records the paths it was asked for.
 */
export class FakeMetricsAdapter implements MetricsAPIGetter {
  readonly served = new Map<string, PodMetricsAnswer>();
  customVersions: string[] = [];
  readonly podsMetrics = new Map<string, Record<string, string>>();
  readonly external = new Map<string, string[]>();
  readonly asked: string[] = [];
  readonly #now: () => string;

  /** `now`: the RFC 3339 time the values are stamped with. */
  constructor(now: () => string) {
    this.#now = now;
  }

  groupVersions(group: string): Promise<readonly string[]> {
    return Promise.resolve(group === 'custom.metrics.k8s.io' ? this.customVersions : []);
  }

  get(gv: { group: string; version: string }, path: string): Promise<APIAnswer> {
    this.asked.push(path);
    const ok = (body: unknown): Promise<APIAnswer> =>
      Promise.resolve({ code: 200, body: JSON.stringify(body) });
    const [, metric = ''] =
      /^\/apis\/[^/]+\/[^/]+\/namespaces\/[^/]+\/(?:pods\/%2A\/)?([^/?]+)/.exec(path) ?? [];
    const now = this.#now();
    if (gv.group === 'metrics.k8s.io' && this.served.size > 0)
      return ok({ items: [...this.served.values()] });
    if (gv.group === 'custom.metrics.k8s.io' && this.podsMetrics.has(metric))
      return ok({
        kind: 'MetricValueList',
        apiVersion: `custom.metrics.k8s.io/${gv.version}`,
        items: Object.entries(this.podsMetrics.get(metric) ?? {}).map(([name, value]) => ({
          describedObject: { kind: 'Pod', name, apiVersion: '/v1' },
          metric: { name: metric, selector: null },
          timestamp: now,
          value,
        })),
      });
    if (gv.group === 'external.metrics.k8s.io' && this.external.has(metric))
      return ok({
        kind: 'ExternalMetricValueList',
        apiVersion: 'external.metrics.k8s.io/v1beta1',
        items: (this.external.get(metric) ?? []).map((value) => ({
          metricName: metric,
          timestamp: now,
          value,
        })),
      });
    return Promise.resolve({
      code: 404,
      body: '404 page not found\n',
      contentType: 'text/plain; charset=utf-8',
    });
  }

  close(): void {
    // Nothing held.
  }
}
