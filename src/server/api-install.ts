// What the server installs under /api, /apis and /openapi (kube's GenericAPIServer.InstallAPIGroups):
// the API groups the control plane built, and the endpoints' handler the server builds over them.
import type { AdmissionChain } from '../admission/chain.js';
import type { Scheme } from '../api/scheme.js';
import {
  createAPIHandler,
  type APIHandler,
  type DynamicRoutes,
  type ProxiedGroupVersions,
} from '../endpoints/api-handler.js';
import {
  newOpenAPIService,
  type OpenAPIAggregatedSource,
  type OpenAPIDynamicSource,
} from '../endpoints/openapi/index.js';
import type { APIGroupInfo } from '../registry/rest/api-group-info.js';
import type { Logger } from './logging/logger.js';
import type { Clock } from '../machinery/time/clock.js';

export interface APIGroupsInstall {
  readonly groups: readonly APIGroupInfo[];
  readonly scheme: Scheme;
  /** Routes that come and go (custom resources), merged with the groups'. */
  readonly dynamicRoutes?: DynamicRoutes;
  /** Group versions other servers serve (aggregated APIServices), handed over whole. */
  readonly proxied?: ProxiedGroupVersions;
  /** The admission chain the write handlers run. */
  readonly admission?: AdmissionChain;
  /** Definitions of the dynamic routes' kinds for the OpenAPI documents. */
  readonly openAPIDynamic?: OpenAPIDynamicSource;
  /** The OpenAPI of aggregated API servers, merged into the documents. */
  readonly openAPIAggregated?: OpenAPIAggregatedSource;
  /** The server's clock: watch timeouts and deadlines (default: the system's). */
  readonly clock?: Clock;
}

/** The endpoints' API handler over the groups, with their OpenAPI documents; errors go to `logger`. */
export function newAPIHandler(install: APIGroupsInstall, logger: Logger): APIHandler {
  const { groups, scheme, dynamicRoutes, proxied, admission, openAPIDynamic, openAPIAggregated, clock } =
    install;
  return createAPIHandler({
    groups,
    scheme,
    ...(clock === undefined ? {} : { clock }),
    ...(dynamicRoutes === undefined ? {} : { dynamicRoutes }),
    ...(proxied === undefined ? {} : { proxied }),
    ...(admission === undefined ? {} : { admission }),
    openapi: newOpenAPIService({
      scheme,
      groups,
      ...(openAPIDynamic === undefined ? {} : { dynamic: openAPIDynamic }),
      ...(openAPIAggregated === undefined ? {} : { aggregated: openAPIAggregated }),
    }),
    logError: (message, err) => {
      logger.error(message, err);
    },
  });
}
