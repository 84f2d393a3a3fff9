// Records apiserver_request_total, apiserver_request_duration_seconds,
// apiserver_request_sli_duration_seconds (without the webhooks' calls and queue waits) and the
// long-running gauge, and apiserver_request_terminations_total for a request a filter ended in
// self-defense (429, 504).
import { requestLabelsOf, type ApiserverMetrics } from '../metrics/apiserver-metrics.js';
import { excludedFromSLI } from '../../endpoints/request/latency-trackers.js';
import { thenFinally, type Filter } from './filter-scope.js';

/** `knownRoute` says whether a non-resource path is served here (only those become label values). */
export function withMetrics(metrics: ApiserverMetrics, knownRoute: (path: string) => boolean): Filter {
  return (next) => (scope) => {
    const route = !scope.info.isResourceRequest && knownRoute(scope.url.pathname) ? scope.url.pathname : '';
    const labels = requestLabelsOf(scope.req, scope.url, { info: scope.info, route });
    const untrack = scope.longRunning ? metrics.trackLongRunning(labels) : undefined;
    return thenFinally(next, scope, () => {
      untrack?.();
      const ms = performance.now() - scope.receivedAt;
      metrics.observeRequest(labels, {
        code: scope.res.statusCode,
        seconds: ms / 1000,
        sliSeconds: (ms - excludedFromSLI(scope)) / 1000,
        longRunning: scope.longRunning,
      });
      if (scope.terminationCode !== 0)
        metrics.recordTermination(labels, {
          code: scope.terminationCode,
          ...(scope.info.isResourceRequest ? {} : { nonResourcePath: scope.info.path }),
        });
    });
  };
}
