// The paths the server answers itself (kube's NonGoRestfulMux entries): health, version, metrics.
import type { Logger } from './logging/logger.js';
import {
  jwksPath,
  openIDConfigJSON,
  openIDConfigPath,
  openIDKeysetJSON,
  openIDMetadataMaxAgeSeconds,
  type OpenIDMetadataInput,
} from './authn/openid-metadata.js';
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
  /** The issuer's OIDC discovery documents, with the server's `host:port`; none when null. */
  readonly issuerDiscovery: { readonly input: OpenIDMetadataInput; readonly address: () => string } | null;
}

const cacheControl = `public, max-age=${openIDMetadataMaxAgeSeconds}`;

/** routes.OpenIDMetadataServer: both documents, rendered once (the keys and address do not change). */
function issuerDiscoveryRoutes(d: NonNullable<NonApiRouteSources['issuerDiscovery']>): [string, Handler][] {
  let config: string | undefined;
  let keyset: string | undefined;
  const serve = (contentType: string, body: () => string): Handler => {
    return ({ res }) => {
      res.statusCode = 200;
      res.setHeader('Content-Type', contentType);
      res.setHeader('Cache-Control', cacheControl);
      res.end(body());
      return Promise.resolve();
    };
  };
  return [
    [openIDConfigPath, serve('application/json', () => (config ??= openIDConfigJSON(d.input, d.address())))],
    [jwksPath, serve('application/jwk-set+json', () => (keyset ??= openIDKeysetJSON(d.input.publicKeys)))],
  ];
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
  if (src.issuerDiscovery !== null)
    for (const [path, h] of issuerDiscoveryRoutes(src.issuerDiscovery)) routes.set(path, h);
  routes.set('/metrics', async ({ res }) => {
    const { contentType, body } = await src.metrics.render();
    res.statusCode = 200;
    res.setHeader('Content-Type', contentType);
    res.end(body);
  });
  return routes;
}
