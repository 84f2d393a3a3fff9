// The paths the server answers itself (kube's NonGoRestfulMux entries): health, version, metrics.
import type { Logger } from './logging/logger.js';
import type { Handler } from './filters/filter-scope.js';
import { healthRoutes } from './healthz/healthz-routes.js';
import { logCheck, namedCheck, pingCheck, type HealthChecker } from './healthz/health-checker.js';
import type { ApiserverMetrics } from './metrics/apiserver-metrics.js';
import { versionHandler, type VersionInfo } from './version/version.js';

export interface NonApiRouteSources {
  readonly logger: Logger;
  readonly version: VersionInfo;
  readonly metrics: ApiserverMetrics;
  /** After ping and log: storage checks, then the post-start hook checks. */
  readonly checks: readonly HealthChecker[];
  readonly shuttingDown: () => boolean;
}

export function nonApiRoutes(src: NonApiRouteSources): Map<string, Handler> {
  const log = logCheck(() => src.logger.blockedForMs());
  const base = [pingCheck, log, ...src.checks.filter((c) => c.readyzOnly !== true)];
  const shutdown = namedCheck('shutdown', () => {
    if (src.shuttingDown()) throw new Error('process is shutting down');
  });
  const version = versionHandler(src.version);
  const routes = new Map<string, Handler>([
    ...healthRoutes('/healthz', base, src.logger),
    ...healthRoutes('/livez', base, src.logger),
    ...healthRoutes('/readyz', [pingCheck, log, ...src.checks, shutdown], src.logger),
  ]);
  const serveVersion: Handler = async ({ res }) => {
    version(res);
    return Promise.resolve();
  };
  routes.set('/version', serveVersion);
  routes.set('/version/', serveVersion);
  routes.set('/metrics', async ({ res }) => {
    const { contentType, body } = await src.metrics.render();
    res.statusCode = 200;
    res.setHeader('Content-Type', contentType);
    res.end(body);
  });
  return routes;
}
