// The generic API server (k8s.io/apiserver/pkg/server/genericapiserver.go): listeners, the filter
// chain, the non-API routes, lifecycle hooks and graceful shutdown. It parses each request's URL
// and RequestInfo once, for the filters and the API handler alike, and serves /api, /apis and
// /openapi with the endpoints' handler over the groups installed (installAPIGroups).
import { statusError } from '../machinery/errors/index.js';
import type { CompletedConfig } from './config.js';
import { alwaysAllowAuthorizer } from '../registry/rest/authorizer.js';
import { withAuthentication } from './filters/authentication.js';
import { auditFailedAuthentication, withAudit } from './filters/audit.js';
import { countingSink } from './audit/metrics.js';
import { withImpersonation } from './filters/impersonation.js';
import { RequestHeaderAuthenticator } from './authn/request-header-authenticator.js';
import { X509Authenticator } from './authn/x509-authenticator.js';
import { withAuthorization } from './filters/authorization.js';
import { withMaxInFlight } from './filters/max-in-flight.js';
import { withPriorityAndFairness } from './filters/priority-and-fairness.js';
import { FairQueuing } from './flowcontrol/fair-queuing.js';
import { withMetrics } from './filters/metrics.js';
import { withPanicRecovery } from './filters/panic-recovery.js';
import { isLongRunning } from './filters/request-info.js';
import { withRequestLogging } from './filters/request-logging.js';
import { isTestAPIPath } from './test-api/prefix.js';
import { isConsolePath } from './console/console-handler.js';
import { buildChain, FilterScope, type Handler } from './filters/filter-scope.js';
import { RequestTracker } from './filters/request-tracker.js';
import { withRequestTimeout } from './filters/timeout.js';
import { Deadlines } from './filters/deadlines.js';
import { writeStatus } from './http/respond.js';
import { ServingListener } from './http/serving-listener.js';
import { TurnPacer } from './http/turn-pacer.js';
import type { HttpRequest, HttpResponse } from './http/types.js';
import { LifecycleHooks, type PostStartHook, type PreShutdownHook } from './lifecycle/hooks.js';
import { ApiserverMetrics } from './metrics/apiserver-metrics.js';
import { nonApiRoutes } from './non-api-routes.js';
import { newAPIHandler, type APIGroupsInstall } from './api-install.js';
import { requestInfoFor } from '../endpoints/request/request-info.js';
import { parseRequestURL, type RequestURL } from '../endpoints/request/request-url.js';

/** Serves a request under /api, /apis or /openapi; false when the path is not its to serve. */
export type APIMount = (scope: FilterScope) => Promise<boolean>;

const notServed: APIMount = () => Promise.resolve(false);

/** Go's answer to a request line it cannot parse, before any handler runs. */
function badRequestTarget(req: HttpRequest, res: HttpResponse): void {
  res.statusCode = 400;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  if (req.httpVersionMajor < 2) res.setHeader('Connection', 'close');
  res.end('400 Bad Request');
}

const metricsLoadDelayMs = 1000;

// kube's NotFoundHandler body.
const notFound = statusError({
  reason: 'NotFound',
  message: 'the server could not find the requested resource',
  details: {},
});

export class GenericAPIServer {
  readonly #config: CompletedConfig;
  #api: APIMount = notServed;
  readonly #hooks = new LifecycleHooks();
  readonly #metrics: ApiserverMetrics;
  readonly #tracker = new RequestTracker();
  readonly #pacer = new TurnPacer();
  readonly #deadlines = new Deadlines();
  #routes = new Map<string, Handler>();
  #handler: Handler | undefined;
  #listeners: ServingListener[] = [];
  #postStart: Promise<void> | undefined;
  #shutdown: Promise<void> | undefined;
  #shuttingDown = false;
  #metricsTimer: NodeJS.Timeout | undefined;
  /** Fair queuing's periodic division of the seats among the priority levels. */
  #borrowingTimer: NodeJS.Timeout | undefined;

  constructor(config: CompletedConfig) {
    this.#config = config;
    this.#metrics = new ApiserverMetrics(config.version);
  }

  /** Serves `install`'s groups under /api and /apis, and their OpenAPI documents. */
  installAPIGroups(install: APIGroupsInstall): void {
    this.mountAPIHandler(newAPIHandler(install, this.#config.logger).serve);
  }

  /** What serves /api, /apis and /openapi: installAPIGroups' handler, or another (tests). */
  mountAPIHandler(mount: APIMount): void {
    this.#api = mount;
  }

  get metrics(): ApiserverMetrics {
    return this.#metrics;
  }

  /** The first listener's URL (HTTPS when there is one). */
  get url(): string {
    const first = this.#listeners.find((l) => l.secure) ?? this.#listeners[0];
    if (first === undefined) throw new Error('the server is not listening');
    return first.url;
  }

  get urls(): readonly string[] {
    return this.#listeners.map((l) => l.url);
  }

  addPostStartHook(name: string, hook: PostStartHook): void {
    this.#hooks.addPostStartHook(name, hook);
  }

  addPreShutdownHook(name: string, hook: PreShutdownHook): void {
    this.#hooks.addPreShutdownHook(name, hook);
  }

  /** Opens the listeners and starts the post-start hooks; `ready` tells when they are done. */
  async start(): Promise<void> {
    if (this.#listeners.length > 0 || this.#postStart !== undefined)
      throw new Error('the server has already been started');
    const onRequest = this.requestListener;
    try {
      for (const l of this.#config.listeners)
        this.#listeners.push(await ServingListener.listen(l, onRequest));
    } catch (err) {
      await Promise.all(this.#listeners.map((l) => l.close()));
      await this.#config.audit?.sink.close?.();
      throw err;
    }
    this.#postStart = this.#hooks.runPostStartHooks(this.#config.logger);
    // prom-client is loaded a second after the hooks, off the path to ready (see ApiserverMetrics);
    // a scrape before then loads it at once.
    const loadMetrics = (): void => {
      this.#metricsTimer = setTimeout(() => {
        this.#metrics.load().catch((err: unknown) => {
          this.#config.logger.error('unable to load the metrics library', err);
        });
      }, metricsLoadDelayMs);
    };
    this.#postStart.then(loadMetrics, loadMetrics);
  }

  /**
   * What the sockets call for each request; tests inject requests here without a socket. Fixes the
   * health checks: hooks added later would not be seen.
   */
  get requestListener(): (req: HttpRequest, res: HttpResponse) => void {
    if (this.#handler === undefined) {
      const { logger, version, healthChecks } = this.#config;
      this.#routes = nonApiRoutes({
        logger,
        version,
        metrics: this.#metrics,
        checks: [...healthChecks, ...this.#hooks.postStartChecks()],
        shuttingDown: () => this.#shuttingDown,
        issuerDiscovery:
          this.#config.issuerDiscovery === null
            ? null
            : { input: this.#config.issuerDiscovery, address: () => new URL(this.url).host },
      });
      this.#handler = this.#buildHandler();
    }
    return (req, res) => {
      this.#dispatch(req, res);
    };
  }

  /** Resolves when every post-start hook has finished; rejects with the first that failed. */
  get ready(): Promise<void> {
    return this.#postStart ?? Promise.reject(new Error('the server has not been started'));
  }

  #buildHandler(): Handler {
    const c = this.#config;
    // --apf-fair-queuing, with API Priority and Fairness served: queues replace max-in-flight.
    const fairQueuing =
      c.fairQueuing && c.flowControl !== null
        ? new FairQueuing({
            serverConcurrency: Math.max(1, c.maxRequestsInFlight + c.maxMutatingRequestsInFlight),
            waitLimitMs: c.requestTimeoutMs / 4,
          })
        : undefined;
    if (fairQueuing !== undefined) {
      // kube's borrowingAdjustmentPeriod.
      this.#borrowingTimer = setInterval(() => {
        fairQueuing.adjust();
      }, 10_000);
      this.#borrowingTimer.unref();
    }
    // Not an async function (nor are the filters in front): each would add its promise and turns of
    // the microtask queue to every request. A throw here reaches the panic-recovery filter.
    const route: Handler = (scope) => {
      const own = this.#routes.get(scope.url.pathname);
      if (own !== undefined) return own(scope);
      if (c.testAPI !== null && isTestAPIPath(scope.url.pathname)) return c.testAPI(scope);
      return this.#api(scope).then((served) => {
        if (!served) writeStatus(scope.res, notFound.status);
      });
    };
    // apiserver_audit_*: the events handed to the backends counted on their way.
    const auditMetrics = this.#metrics.auditMetrics;
    const audit =
      c.audit === undefined
        ? undefined
        : { ...c.audit, sink: countingSink(c.audit.sink, auditMetrics), metrics: auditMetrics };
    return buildChain(route, [
      withPanicRecovery(c.logger),
      withRequestLogging(c.logger),
      ...(c.requestLog === null ? [] : [c.requestLog.filter]),
      this.#tracker.filter,
      withMetrics(this.#metrics, (path) => this.#routes.has(path)),
      withRequestTimeout(c.requestTimeoutMs, this.#deadlines),
      withAuthentication({
        tokens: c.tokens,
        requestAuthenticators: [
          ...(c.requestHeader === undefined ? [] : [new RequestHeaderAuthenticator(c.requestHeader)]),
          ...(c.clientCA === undefined
            ? []
            : [
                new X509Authenticator(c.clientCA, {
                  observe: (seconds) => {
                    this.#metrics.observeClientCertificateExpiration(seconds);
                  },
                  // Certificates expire on the wall clock, whatever clock the controllers run on.
                  now: () => Date.now(),
                }),
              ]),
        ],
        tokenAuthenticators: c.tokenAuthenticators,
        apiAudiences: c.apiAudiences,
        anonymous: c.anonymousAuth,
        ...(c.anonymousPaths === undefined ? {} : { anonymousPaths: c.anonymousPaths }),
        logger: c.logger,
        ...(audit === undefined ? {} : { onUnauthorized: auditFailedAuthentication(audit) }),
      }),
      ...(audit === undefined ? [] : [withAudit(audit)]),
      withImpersonation({ authorizer: c.authorizer, logger: c.logger }),
      ...(fairQueuing === undefined
        ? [
            withMaxInFlight({
              readOnlyLimit: c.maxRequestsInFlight,
              mutatingLimit: c.maxMutatingRequestsInFlight,
              metrics: this.#metrics,
            }),
          ]
        : []),
      ...(c.flowControl === null
        ? []
        : [withPriorityAndFairness(c.flowControl, fairQueuing, this.#metrics.flowControlMetrics)]),
      // AlwaysAllow alone: no filter, no per-request cost.
      ...(c.authorizer === alwaysAllowAuthorizer
        ? []
        : [withAuthorization({ authorizer: c.authorizer, logger: c.logger })]),
      // Faults act on requests the server would have served, as the user they name.
      ...(c.faults === null ? [] : [c.faults.filter]),
    ]);
  }

  #dispatch(req: HttpRequest, res: HttpResponse): void {
    const handler = this.#handler;
    if (handler === undefined) return;
    let url: RequestURL;
    try {
      url = parseRequestURL(req.url ?? '/');
    } catch {
      badRequestTarget(req, res);
      return;
    }
    const console = this.#config.console;
    if (console !== null && isConsolePath(url.pathname)) {
      console(req, res, url);
      return;
    }
    const info = requestInfoFor(req, url);
    const scope = new FilterScope({ req, res, url, info, longRunning: isLongRunning(info) });
    res.once('close', () => {
      if (!res.writableFinished) scope.abort(new Error('client disconnected'));
    });
    this.#pacer.submit(() => {
      handler(scope).catch((err: unknown) => {
        this.#config.logger.error('unhandled error serving a request', err);
      });
    });
  }

  /**
   * Graceful shutdown: /readyz turns red, listeners stop accepting, watches end, pre-shutdown
   * hooks run, requests in flight drain (up to the shutdown timeout), the rest are cut.
   */
  shutdown(): Promise<void> {
    this.#shutdown ??= this.#runShutdown();
    return this.#shutdown;
  }

  async #runShutdown(): Promise<void> {
    const { logger, shutdownTimeoutMs } = this.#config;
    this.#shuttingDown = true;
    clearTimeout(this.#metricsTimer);
    clearInterval(this.#borrowingTimer);
    this.#hooks.close();
    for (const l of this.#listeners) l.stopAccepting();
    this.#tracker.endLongRunning();
    await this.#hooks.runPreShutdownHooks(logger);
    if (!(await this.#tracker.drain(shutdownTimeoutMs))) {
      logger.warn('requests still in flight at the end of the shutdown timeout', {
        inFlight: this.#tracker.inFlight,
      });
    }
    this.#tracker.close();
    this.#deadlines.close();
    // The last events (a webhook's batch) go out once no request can add one.
    await this.#config.audit?.sink.close?.();
    await Promise.all(this.#listeners.map((l) => l.close()));
    this.#metrics.close();
  }

  close(): Promise<void> {
    return this.shutdown();
  }
}
