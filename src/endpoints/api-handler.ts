// The endpoints layer's entry: serves /api and /apis (discovery and resources) and /openapi,
// writing every answer, error or not, through the response writers.
import type { Clock } from '../machinery/time/clock.js';
import type { AdmissionChain } from '../admission/chain.js';
import type { Scheme } from '../api/scheme.js';
import { ProtobufDecoder } from '../machinery/protobuf/index.js';
import { StructuralDecoder as SchemaDecoder } from '../machinery/structural/index.js';
import type { APIGroupInfo } from '../registry/rest/api-group-info.js';
import { anonymousUser, type UserInfo } from '../registry/rest/context.js';
import { DiscoveryHandler } from './discovery/discovery-handler.js';
import { FieldManagers } from './fieldmanager/field-managers.js';
import { goZeroObject } from '../machinery/json/go-member-order.js';
import { applyPatchMechanism } from './handlers/apply-patch.js';
import type { HandlerConfig, HandlerRequest, RequestAuditRecord } from './handlers/request-scope.js';
import type { PatchMechanism } from './handlers/patch-mechanism.js';
import { strategicMergePatchMechanism } from './handlers/strategic-merge-patch.js';
import { header, type ApiRequest, type ApiResponse } from './http-types.js';
import { installAPIGroups } from './installer.js';
import type { PatchType } from './negotiation/media-types.js';
import { routeMethodNotAllowed, routeNotFound } from './negotiation/errors.js';
import { serveOpenAPIRequest, type OpenAPIService } from './openapi-route.js';
import { defaultMaxRequestBodyBytes } from './request/read-body.js';
import { decodePath, requestInfoFor, resolveRequestInfo, type RequestInfo } from './request/request-info.js';
import { parseRequestURL, type RequestURL } from './request/request-url.js';
import { structuralDecoderFor } from './request/structural-adapter.js';
import type { Exchange } from './responsewriters/exchange.js';
import { WarningRecorder } from './responsewriters/warnings.js';
import { writeError } from './responsewriters/write-object.js';
import type { RouteTable } from './route-table.js';
import type { LatencyTrackers } from './request/latency-trackers.js';
import { matchRoute } from './router.js';

/**
 * Routes that come and go while the server runs (custom resources, kube's apiextensions-apiserver
 * behind kube-apiserver): served where the built-in groups have no such group version, and merged
 * into discovery.
 */
export interface DynamicRoutes {
  /** The current routes; a new object whenever they change. */
  readonly table: RouteTable;
  /** While the routes are changing, resolves once they have; /apis requests wait for it. */
  settled?(): Promise<void> | undefined;
}

/**
 * Group versions another server serves (kube-aggregator's APIServices with a service): their
 * requests, `/apis/<group>/<version>` included, are handed over whole.
 */
export interface ProxiedGroupVersions {
  has(group: string, version: string): boolean;
  /** Answers the request (the other server's answer, or an error of its own). */
  serve(r: APIRequest): Promise<void>;
}

export interface APIHandlerOptions {
  readonly groups: readonly APIGroupInfo[];
  readonly dynamicRoutes?: DynamicRoutes;
  readonly proxied?: ProxiedGroupVersions;
  readonly scheme: Scheme;
  readonly openapi?: OpenAPIService;
  /** kube's --max-request-body-bytes; 3 MiB by default. */
  readonly maxRequestBodyBytes?: number;
  /** kube's --min-request-timeout; 1800 s by default. */
  readonly minRequestTimeoutSeconds?: number;
  /** Replaces the strategic merge and apply patch mechanisms built from the scheme. */
  readonly patchMechanisms?: Partial<Record<PatchType, PatchMechanism>>;
  /** Where errors that are not Status errors are reported (default: console.error). */
  readonly logError?: (message: string, err: unknown) => void;
  /** The admission chain the write handlers run; none when absent. */
  readonly admission?: AdmissionChain;
  /** The server's clock: watch timeouts (default: the system's). */
  readonly clock?: Clock;
}

export interface RequestOptions {
  readonly user?: UserInfo | undefined;
  /** Aborted when the client goes away or the server gives up on the request. */
  readonly signal?: AbortSignal;
}

/** One request as the server hands it over: its URL and RequestInfo parsed once, its user known. */
export interface APIRequest {
  readonly req: ApiRequest;
  readonly res: ApiResponse;
  readonly url: RequestURL;
  readonly info: RequestInfo;
  readonly user: UserInfo | undefined;
  /** The request's audit record when the policy audits it (admission adds annotations to it). */
  readonly audit?: RequestAuditRecord | undefined;
  /** Aborted when the client goes away or the server gives up; read only by what needs it. */
  readonly signal: AbortSignal;
  /** Where the webhooks' share of the latency goes (absent: not tracked). */
  readonly latency?: LatencyTrackers;
}

export interface APIHandler {
  readonly routes: RouteTable;
  /** Serves the request when it is under /api, /apis or /openapi; false otherwise. */
  readonly serve: (r: APIRequest) => Promise<boolean>;
  /** The same for a request nobody parsed yet (tests, a handler mounted without the server). */
  handle(req: ApiRequest, res: ApiResponse, opts?: RequestOptions): Promise<boolean>;
}

const defaultLogError = (message: string, err: unknown): void => {
  console.error(message, err instanceof Error ? err.stack : err);
};

function signalFor(res: ApiResponse, given: AbortSignal | undefined): AbortSignal {
  if (given !== undefined) return given;
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('client disconnected'));
  });
  return controller.signal;
}

function segmentsOf(url: RequestURL): string[] | undefined {
  try {
    return decodePath(url.pathname)
      .split('/')
      .filter((s) => s !== '');
  } catch {
    return undefined;
  }
}

/** A request handed to `handle`, parsed here; its signal is made when first read. */
class UnparsedRequest implements APIRequest {
  readonly req: ApiRequest;
  readonly res: ApiResponse;
  readonly url: RequestURL;
  readonly info: RequestInfo;
  readonly user: UserInfo | undefined;
  readonly #given: AbortSignal | undefined;
  #signal: AbortSignal | undefined;

  constructor(req: ApiRequest, res: ApiResponse, opts: RequestOptions) {
    this.req = req;
    this.res = res;
    this.url = parseRequestURL(req.url ?? '/');
    this.info = requestInfoFor(req, this.url);
    this.user = opts.user;
    this.#given = opts.signal;
  }

  get signal(): AbortSignal {
    return (this.#signal ??= signalFor(this.res, this.#given));
  }
}

/** What a handler gets; the signal stays unmade until a handler or the storage reads it. */
function handlerRequest(ex: Exchange, r: APIRequest, info: RequestInfo): HandlerRequest {
  return new APIHandlerRequest(ex, r, info);
}

// A class, not an object literal with a getter: see HandlerContext.
class APIHandlerRequest implements HandlerRequest {
  readonly ex: Exchange;
  readonly info: RequestInfo;
  readonly user: UserInfo;
  readonly audit?: RequestAuditRecord;
  readonly #r: APIRequest;

  constructor(ex: Exchange, r: APIRequest, info: RequestInfo) {
    this.ex = ex;
    this.info = info;
    this.user = r.user ?? anonymousUser;
    if (r.audit !== undefined) this.audit = r.audit;
    this.#r = r;
  }

  get signal(): AbortSignal {
    return this.#r.signal;
  }

  get latency(): LatencyTrackers | undefined {
    return this.#r.latency;
  }
}

/** Throws (synchronously) what the route refuses; the caller awaits it inside its try. */
function serveAPI(
  ctx: { table: RouteTable; discovery: DiscoveryHandler },
  ex: Exchange,
  opts: { segments: readonly string[]; r: APIRequest },
): Promise<void> {
  const method = (ex.req.method ?? 'GET').toUpperCase();
  const { segments } = opts;
  const isDiscoveryPath = segments.length <= (segments[0] === 'api' ? 2 : 3);
  if (isDiscoveryPath) {
    if (method !== 'GET' && method !== 'HEAD') throw routeMethodNotAllowed();
    if (!ctx.discovery.serve(ex, segments)) throw routeNotFound();
    return Promise.resolve();
  }
  const match = matchRoute(ctx.table, {
    method,
    segments,
    accept: header(ex.req, 'accept'),
    contentType: header(ex.req, 'content-type'),
  });
  if (!match.ok) throw match.error;
  // A routed path always names a resource; were it refused, resolving it again says why.
  const info = opts.r.info.isResourceRequest ? opts.r.info : resolveRequestInfo(ex.req, ex.url);
  const { scope } = match.routes;
  // kube's installer wraps every handler of a deprecated kind in AddWarningsHandler.
  if (scope.deprecationWarning !== undefined) ex.warnings.add(scope.deprecationWarning);
  return match.handler(scope, handlerRequest(ex, opts.r, info));
}

/** The built-in routes with the dynamic ones merged in, recomputed when those change. */
function currentTable(builtin: RouteTable, dynamic: DynamicRoutes | undefined): () => RouteTable {
  if (dynamic === undefined) return () => builtin;
  let from: RouteTable | undefined;
  let merged = builtin;
  return () => {
    const extra = dynamic.table;
    if (extra === from) return merged;
    const names = new Set(builtin.groups.map((g) => g.name));
    merged = {
      groupVersions: new Map([...extra.groupVersions, ...builtin.groupVersions]),
      groups: [...builtin.groups, ...extra.groups.filter((g) => !names.has(g.name))],
    };
    from = extra;
    return merged;
  };
}

export function createAPIHandler(options: APIHandlerOptions): APIHandler {
  const fieldManagers = new FieldManagers(options.scheme, (type) => goZeroObject(options.scheme, type));
  const config: HandlerConfig = {
    maxRequestBodyBytes: options.maxRequestBodyBytes ?? defaultMaxRequestBodyBytes,
    minRequestTimeoutSeconds: options.minRequestTimeoutSeconds ?? 1800,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    kinds: options.scheme,
    structural: structuralDecoderFor(options.scheme, new SchemaDecoder(options.scheme)),
    protobuf: new ProtobufDecoder(options.scheme),
    patchMechanisms: {
      'application/strategic-merge-patch+json': strategicMergePatchMechanism(options.scheme),
      'application/apply-patch+yaml': applyPatchMechanism(fieldManagers),
      ...options.patchMechanisms,
    },
    fieldManagers,
    admission: options.admission,
  };
  const table = installAPIGroups(options.groups, config);
  const current = currentTable(table, options.dynamicRoutes);
  const discovery = new DiscoveryHandler(current);
  const logError = options.logError ?? defaultLogError;
  const serve = async (r: APIRequest): Promise<boolean> => {
    const { req, res, url } = r;
    // Only /openapi/ paths wait on the OpenAPI service; API requests pay no extra await.
    if (
      options.openapi !== undefined &&
      url.pathname.startsWith('/openapi/') &&
      (await serveOpenAPIRequest(options.openapi, { req, res, url }))
    )
      return true;
    const segments = segmentsOf(url);
    if (segments === undefined || (segments[0] !== 'api' && segments[0] !== 'apis')) return false;
    const proxied = options.proxied;
    if (proxied !== undefined && segments[0] === 'apis' && segments.length >= 3) {
      if (proxied.has(segments[1] ?? '', segments[2] ?? '')) {
        await proxied.serve(r);
        return true;
      }
    }
    // A custom resource's routes may be moments away (its CRD was just created).
    const settling = segments[0] === 'apis' ? options.dynamicRoutes?.settled?.() : undefined;
    if (settling !== undefined) await settling;
    const ex: Exchange = {
      req,
      res,
      url,
      warnings: new WarningRecorder(),
      logError,
    };
    try {
      await serveAPI({ table: current(), discovery }, ex, { segments, r });
    } catch (err) {
      if (res.headersSent) res.end();
      else writeError(ex, err);
    }
    return true;
  };
  return {
    routes: table,
    serve,
    handle(req, res, opts = {}) {
      return serve(new UnparsedRequest(req, res, opts));
    },
  };
}
