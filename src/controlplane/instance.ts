// The control plane assembly (kube's CreateServerChain → CreateKubeAPIServerConfig → New): from the
// completed flags to a GenericAPIServer serving the built-in API, with the bootstrap hook, the
// storage readiness check and the admin kubeconfig.
import type { Creater } from '../registry/rest/capabilities.js';
import { completeConfig } from '../server/config.js';
import { auditBackendsOf } from '../server/options/audit-options.js';
import { ForwardingAuditMetrics } from '../server/audit/metrics.js';
import { AdmissionMetrics } from '../admission/metrics/admission-metrics.js';
import { WebhookTokenAuthenticator } from '../server/authn/webhook-token-authenticator.js';
import { JWTAuthenticator } from '../server/authn/jwt/jwt-authenticator.js';
import type { APIGroupsInstall } from '../server/api-install.js';
import { GenericAPIServer } from '../server/generic-api-server.js';
import { ForwardingEncryptionMetrics } from '../server/encryption/forwarding-metrics.js';
import type { EncryptionMetrics } from '../server/encryption/metrics.js';
import type { HealthChecker } from '../server/healthz/health-checker.js';
import type { ListenerConfig } from '../server/http/serving-listener.js';
import { adminKubeConfig, writeKubeConfig, type KubeConfig } from '../server/kubeconfig.js';
import type {
  APIServiceAvailabilityMetric,
  ObjectCountMetric,
  StorageSizeMetric,
} from '../server/metrics/apiserver-metrics.js';
import type { Logger } from '../server/logging/logger.js';
import { WorkqueueMetrics, type WorkqueueMetricsProvider } from '../server/metrics/workqueue-metrics.js';
import type { CompletedServerRunOptions } from '../server/options/complete.js';
import { anonymousAuthOf } from '../server/options/server-run-options.js';
import { systemNamespacesHook, systemNamespacesHookName } from './bootstrap/system-namespaces.js';
import type { PostStartHook, PreShutdownHook } from '../server/lifecycle/hooks.js';
import { audienceAgnostic, type TokenAuthenticator } from '../server/authn/token-authenticator.js';
import { tokenReviewAuthenticator } from '../server/authn/token-review-authenticator.js';
import type { TokenReviewAuthenticator } from '../registry/authentication/token-review.js';
import type { Authorizer } from '../registry/rest/authorizer.js';
import type { Backend } from '../storage/kv/backend.js';
import type { ClassifierSource } from '../server/filters/priority-and-fairness.js';
import type { RequestLogOptions } from '../server/test-api/request-log.js';
import { TestAPI } from '../server/test-api/test-api.js';
import { testAPIRoutes } from '../server/test-api/http-routes.js';
import { consoleEnabled, consolePrefix } from '../server/console/console-options.js';
import { consoleHandler } from '../server/console/console-handler.js';
import { LoginCodes } from '../server/console/login-codes.js';
import { capstanRoutes, historyRoutes, storageResolver } from '../server/history/history-routes.js';
import { openIDMetadataRefusal, type OpenIDMetadataInput } from '../server/authn/openid-metadata.js';

/** What the API assembly hands the server: the groups it serves under /api and /apis, and what it owns. */
export interface APIAssembly {
  readonly api: APIGroupsInstall;
  /** The namespaces storage, for the bootstrap hook (absent when core/v1 is turned off). */
  readonly namespaces?: Creater;
  /** The storage readiness checks (`etcd`). */
  readonly healthChecks: readonly HealthChecker[];
  /** Hooks to run once the server serves (built-in controllers), by name. */
  readonly postStartHooks?: Readonly<Record<string, PostStartHook>>;
  /** Hooks to run when shutdown begins, before the listeners close, by name. */
  readonly preShutdownHooks?: Readonly<Record<string, PreShutdownHook>>;
  /** Bearer token authenticators over the served API (service account tokens). */
  readonly tokenAuthenticators?: readonly TokenAuthenticator[];
  /** --authorization-mode's chain (absent: AlwaysAllow, no authorization filter). */
  readonly authorizer?: Authorizer;
  /** The storage backends in use (test snapshots copy and restore them). */
  readonly storageBackends?: () => Promise<readonly Backend[]>;
  /** API Priority and Fairness' request classification (absent when flowcontrol is not served). */
  readonly flowControl?: ClassifierSource;
  /** Releases storage: the last step of shutdown. */
  close(): Promise<void>;
}

export type AssembleAPI = (input: {
  options: CompletedServerRunOptions;
  objectCountMetric: ObjectCountMetric;
  /** Where the storage size monitor reports (`apiserver_storage_size_bytes`). */
  storageSizeMetric?: StorageSizeMetric;
  /** Encryption at rest's transformation and reload metrics. */
  encryptionMetrics?: EncryptionMetrics;
  /** Where the aggregator reports its APIServices' availability. */
  apiServiceMetric?: APIServiceAvailabilityMetric;
  /** Where the admission chain counts its steps, plugins and webhooks. */
  admissionMetrics?: AdmissionMetrics;
  /** Where the built-in controllers' work queues count (workqueue_*). */
  workqueueMetrics?: WorkqueueMetricsProvider;
  /** The port the server listens on; read it only once it does (post-start hooks). */
  boundPort?: () => number;
  /** The server's bearer token chain for tokenreviews; answers once the server is built. */
  tokenReview?: TokenReviewAuthenticator;
}) => Promise<APIAssembly>;

/** The listeners the flags ask for: HTTPS on --secure-port, plain HTTP on --insecure-port. */
export function listenersFor(o: CompletedServerRunOptions): ListenerConfig[] {
  const listeners: ListenerConfig[] = [];
  if (o.securePort >= 0 && o.tls !== undefined)
    listeners.push({ bindAddress: o.bindAddress, port: o.securePort, tls: o.tls });
  if (o.insecurePort > 0) listeners.push({ bindAddress: o.insecureBindAddress, port: o.insecurePort });
  return listeners;
}

export interface ControlPlaneInit {
  readonly options: CompletedServerRunOptions;
  readonly assemble: AssembleAPI;
  /** Listeners other than the flags' (startCapstan's port 0). */
  readonly listeners?: readonly ListenerConfig[];
  /**
   * The test API in process (startCapstan's snapshots, request log, faults and clock), with the
   * request log's options. Without it the test API exists only with --enable-test-api.
   */
  readonly testAPI?: { readonly requestLog?: RequestLogOptions | false };
}

export class ControlPlane {
  readonly #options: CompletedServerRunOptions;
  readonly #server: GenericAPIServer;
  readonly #assembly: APIAssembly;
  readonly #testAPI: TestAPI | undefined;
  readonly #loginCodes: LoginCodes | undefined;
  #kubeConfig: KubeConfig | undefined;
  #closed: Promise<void> | undefined;

  private constructor(parts: {
    options: CompletedServerRunOptions;
    server: GenericAPIServer;
    assembly: APIAssembly;
    testAPI: TestAPI | undefined;
    loginCodes: LoginCodes | undefined;
  }) {
    this.#loginCodes = parts.loginCodes;
    this.#options = parts.options;
    this.#server = parts.server;
    this.#assembly = parts.assembly;
    this.#testAPI = parts.testAPI;
  }

  static async create(init: ControlPlaneInit): Promise<ControlPlane> {
    const o = init.options;
    let server: GenericAPIServer | undefined;
    let metricSink: ObjectCountMetric | undefined;
    // Stores report counts from their first poll on: forward to the server's metrics once it exists.
    const objectCountMetric: ObjectCountMetric = {
      set: (resource, count) => metricSink?.set(resource, count),
      delete: (resource) => metricSink?.delete(resource),
    };
    let sizeSink: StorageSizeMetric | undefined;
    const storageSizeMetric: StorageSizeMetric = {
      set: (id, bytes) => sizeSink?.set(id, bytes),
      delete: (id) => sizeSink?.delete(id),
    };
    let apiServiceSink: APIServiceAvailabilityMetric | undefined;
    const apiServiceMetric: APIServiceAvailabilityMetric = {
      set: (name, available) => apiServiceSink?.set(name, available),
      delete: (name) => apiServiceSink?.delete(name),
      becameUnavailable: (name, reason) => apiServiceSink?.becameUnavailable(name, reason),
    };
    const encryptionMetrics = new ForwardingEncryptionMetrics();
    const auditMetrics = new ForwardingAuditMetrics();
    // Counted by the admission chain the assembly builds; shown by the server's metrics.
    const admissionMetrics = new AdmissionMetrics();
    // Counted by the controllers' work queues; shown by the server's metrics.
    const workqueueMetrics = new WorkqueueMetrics();
    // The token chain needs the assembly's authenticators: tokenreviews reach it once it exists.
    let reviewSink: TokenReviewAuthenticator | undefined;
    const tokenReview: TokenReviewAuthenticator = (token, audiences, signal) =>
      reviewSink === undefined
        ? Promise.reject(new Error('the token authenticators are not ready yet'))
        : reviewSink(token, audiences, signal);
    const assembly = await init.assemble({
      tokenReview,
      options: o,
      objectCountMetric,
      storageSizeMetric,
      encryptionMetrics,
      apiServiceMetric,
      admissionMetrics,
      workqueueMetrics,
      boundPort: () => {
        if (server === undefined) throw new Error('the server is not listening yet');
        const url = new URL(server.url);
        return url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
      },
    });
    const testAPI =
      init.testAPI === undefined && !o.enableTestAPI
        ? undefined
        : new TestAPI({
            clock: o.clock,
            backends: () => assembly.storageBackends?.() ?? Promise.resolve([]),
            caches: o.cacheSeeds,
            ...(init.testAPI?.requestLog === undefined ? {} : { requestLog: init.testAPI.requestLog }),
          });
    const loginCodes = consoleEnabled(o) ? new LoginCodes() : undefined;
    try {
      const jwt = await Promise.all(o.jwtAuthenticators.map((config) => JWTAuthenticator.create({ config })));
      const apiAudiences = o.serviceAccountKeys.apiAudiences;
      const tokenAuthenticators: TokenAuthenticator[] = [
        ...(assembly.tokenAuthenticators ?? []),
        // kube wraps the JWT authenticators audience agnostic; the webhook is audience aware.
        ...jwt.map((a) => audienceAgnostic(apiAudiences, a.authenticate)),
        ...(o.webhookTarget === undefined
          ? []
          : [
              new WebhookTokenAuthenticator({
                target: o.webhookTarget,
                cacheTTLMs: o.authenticationTokenWebhookCacheTTLMs,
                version: o.authenticationTokenWebhookVersion === 'v1' ? 'v1' : 'v1beta1',
                implicitAudiences: apiAudiences,
              }).authenticate,
            ]),
      ];
      reviewSink = tokenReviewAuthenticator({
        tokens: o.tokens,
        authenticators: tokenAuthenticators,
        apiAudiences,
      });
      const config = completeConfig({
        listeners: init.listeners ?? listenersFor(o),
        tokens: o.tokens,
        tokenAuthenticators,
        apiAudiences,
        anonymousAuth: anonymousAuthOf(o, o.anonymousConfig),
        anonymousPaths: o.anonymousConfig?.conditions?.map((c) => c.path),
        audit: auditBackendsOf(o, auditMetrics),
        clientCA: o.clientCAPem === '' ? undefined : o.clientCAPem,
        requestHeader:
          o.requestHeaderCAPem === ''
            ? undefined
            : {
                caPem: o.requestHeaderCAPem,
                allowedNames: o.requestHeaderAllowedNames,
                usernameHeaders: o.requestHeaderUsernameHeaders,
                groupHeaders: o.requestHeaderGroupHeaders,
                extraHeaderPrefixes: o.requestHeaderExtraHeadersPrefix,
              },
        ...(assembly.authorizer === undefined ? {} : { authorizer: assembly.authorizer }),
        maxRequestsInFlight: o.maxRequestsInflight,
        maxMutatingRequestsInFlight: o.maxMutatingRequestsInflight,
        fairQueuing: o.apfFairQueuing,
        requestTimeoutMs: o.requestTimeoutMs,
        shutdownTimeoutMs: o.shutdownTimeoutMs,
        logger: o.logger,
        healthChecks: assembly.healthChecks,
        ...(assembly.flowControl === undefined ? {} : { flowControl: assembly.flowControl }),
        ...(testAPI === undefined
          ? {}
          : {
              faults: testAPI.faults,
              ...(testAPI.requestLog === undefined ? {} : { requestLog: testAPI.requestLog }),
            }),
        issuerDiscovery: issuerDiscoveryOf(o),
        ...(loginCodes === undefined
          ? {}
          : {
              console: consoleHandler({
                codes: loginCodes,
                logError: (msg, err) => {
                  o.logger.error(msg, err);
                },
              }),
            }),
        ...(o.enableTestAPI || consoleEnabled(o)
          ? {
              testAPI: capstanRoutes({
                history: historyRoutes(storageResolver(assembly.api)),
                testAPI: o.enableTestAPI && testAPI !== undefined ? testAPIRoutes(testAPI) : undefined,
              }),
            }
          : {}),
      });
      server = new GenericAPIServer(config);
      server.installAPIGroups(assembly.api);
      metricSink = server.metrics.objectCountMetric;
      sizeSink = server.metrics.storageSizeMetric;
      apiServiceSink = server.metrics.apiServiceAvailabilityMetric;
      encryptionMetrics.attach(server.metrics.encryptionMetrics);
      auditMetrics.attach(server.metrics.auditMetrics);
      server.metrics.attachAdmission(admissionMetrics);
      server.metrics.attachWorkqueues(workqueueMetrics);
      if (assembly.namespaces !== undefined)
        server.addPostStartHook(systemNamespacesHookName, systemNamespacesHook(assembly.namespaces));
      for (const [name, hook] of Object.entries(assembly.postStartHooks ?? {}))
        server.addPostStartHook(name, hook);
      for (const [name, hook] of Object.entries(assembly.preShutdownHooks ?? {}))
        server.addPreShutdownHook(name, hook);
    } catch (err) {
      await assembly.close();
      throw err;
    }
    return new ControlPlane({ options: o, server, assembly, testAPI, loginCodes });
  }

  get logger(): Logger {
    return this.#options.logger;
  }

  get server(): GenericAPIServer {
    return this.#server;
  }

  /** Snapshots, request log, faults and clock; absent unless asked for (in process or by flag). */
  get testAPI(): TestAPI | undefined {
    return this.#testAPI;
  }

  get url(): string {
    return this.#server.url;
  }

  /**
   * A new one-time link to the console that logs in as the admin (the kubeconfig's token, handed
   * over once); undefined when the console is off.
   */
  consoleLoginURL(): string | undefined {
    const code = this.#loginCodes?.issue(this.#options.adminToken);
    return code === undefined ? undefined : `${this.url}${consolePrefix}#login=${code}`;
  }

  get kubeconfigPath(): string {
    return this.#options.kubeconfigPath;
  }

  get kubeConfig(): KubeConfig {
    if (this.#kubeConfig === undefined) throw new Error('the control plane has not been started');
    return this.#kubeConfig;
  }

  /** Listens, writes the admin kubeconfig and starts the post-start hooks. */
  async start(): Promise<void> {
    await this.#server.start();
    const o = this.#options;
    this.#kubeConfig = adminKubeConfig({
      server: this.url,
      token: o.adminToken,
      ...(o.caPem === undefined ? {} : { caPem: o.caPem }),
    });
    await writeKubeConfig(o.kubeconfigPath, this.#kubeConfig);
  }

  /** The storage backends in use; none when the assembly does not say. */
  storageBackends(): Promise<readonly Backend[]> {
    return this.#assembly.storageBackends?.() ?? Promise.resolve([]);
  }

  /** Resolves when the post-start hooks are done (the server is ready unless storage is down). */
  get ready(): Promise<void> {
    return this.#server.ready;
  }

  /** Graceful shutdown of the server, then storage. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      try {
        await this.#server.shutdown();
      } finally {
        await this.#assembly.close();
      }
    })();
    return this.#closed;
  }
}

/**
 * The issuer discovery documents' input (kube installs them when the first issuer is an https URL
 * and logs why not otherwise).
 */
function issuerDiscoveryOf(o: CompletedServerRunOptions): OpenIDMetadataInput | null {
  const { issuers, publicKeys } = o.serviceAccountKeys;
  const issuer = issuers[0] ?? '';
  const refusal = openIDMetadataRefusal(issuer);
  const jwksURI = o.serviceAccountJWKSURI;
  if (refusal === undefined) return { issuer, publicKeys, ...(jwksURI === '' ? {} : { jwksURI }) };
  o.logger.error(
    'Could not construct pre-rendered responses for ServiceAccountIssuerDiscovery endpoints. Endpoints will not be enabled.',
    new Error(refusal),
  );
  return null;
}
