// Records apiserver_request_total, apiserver_request_duration_seconds and the long-running gauge.
import { requestLabelsOf, type ApiserverMetrics } from '../metrics/apiserver-metrics.js';
import { thenFinally, type Filter } from './filter-scope.js';

/** `knownRoute` says whether a non-resource path is served here (only those become label values). */
export function withMetrics(metrics: ApiserverMetrics, knownRoute: (path: string) => boolean): Filter {
  return (next) => (scope) => {
    const route = !scope.info.isResourceRequest && knownRoute(scope.url.pathname) ? scope.url.pathname : '';
    const labels = requestLabelsOf(scope.req, scope.url, { info: scope.info, route });
    const untrack = scope.longRunning ? metrics.trackLongRunning(labels) : undefined;
    return thenFinally(next, scope, () => {
      untrack?.();
      const seconds = (performance.now() - scope.receivedAt) / 1000;
      metrics.observeRequest(labels, { code: scope.res.statusCode, seconds, longRunning: scope.longRunning });
    });
  };
}
