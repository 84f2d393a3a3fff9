export { newOpenAPIService, computeETag, serverRelativeURL } from './openapi-service.js';
export type {
  OpenAPIDocument,
  OpenAPIOptions,
  OpenAPIService,
  OpenAPIV3Discovery,
} from './openapi-service.js';
export type { OpenAPIDynamicSource, OpenAPIVersion } from './dynamic-source.js';
export { serveOpenAPI, acceptsJSON, negotiateV2 } from './serve.js';
export type { OpenAPIAnswer, OpenAPIRequest, V2Format } from './serve.js';
export { resourceRoutes, groupVersionPath } from './resource-routes.js';
export type { ResourceRoute } from './resource-routes.js';
export type { AggregatedSpecs, OpenAPIAggregatedSource } from './aggregated-source.js';
