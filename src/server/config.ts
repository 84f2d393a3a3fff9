// The generic server's configuration: Config → completeConfig() → CompletedConfig → new server.
// Completion checks what can be checked before any socket opens and freezes the result.
import type { OpenIDMetadataInput } from './authn/openid-metadata.js';
import type { Faults } from './test-api/faults.js';
import type { ConsoleHandler } from './console/console-handler.js';
import type { RequestLog } from './test-api/request-log.js';
import type { Handler } from './filters/filter-scope.js';
import { isIP } from 'node:net';
import { alwaysAllowAuthorizer, type Authorizer } from '../registry/rest/authorizer.js';
import type { AuditSink, AuditPolicy } from './audit/types.js';
import type { RequestHeaderConfig } from './authn/request-header-authenticator.js';
import type { TokenTable } from './authn/token-auth.js';
import type { TokenAuthenticator } from './authn/token-authenticator.js';
import type { HealthChecker } from './healthz/health-checker.js';
import type { ClassifierSource } from './filters/priority-and-fairness.js';
import type { ListenerConfig } from './http/serving-listener.js';
import { Logger } from './logging/logger.js';
import { capstanVersionInfo, type VersionInfo } from './version/version.js';

export interface Config {
  readonly listeners: readonly ListenerConfig[];
  readonly tokens?: TokenTable;
  /** Asked in turn about a bearer token the static tokens do not know (service account tokens). */
  readonly tokenAuthenticators?: readonly TokenAuthenticator[];
  /** --api-audiences: the target audiences of every request's token (kube's WithAuthentication). */
  readonly apiAudiences?: readonly string[];
  readonly anonymousAuth?: boolean;
  /** --authentication-config's anonymous.conditions: the only paths anonymous requests reach (absent: all). */
  readonly anonymousPaths?: readonly string[] | undefined;
  /** --client-ca-file's bundle: client certificates it signed authenticate (CN, O's). */
  readonly clientCA?: string | undefined;
  /** --requestheader-*: a front proxy's certificate vouches for the user in its headers. */
  readonly requestHeader?: RequestHeaderConfig | undefined;
  /** --audit-policy-file with a backend: the audit filter is installed only with it. */
  readonly audit?: { readonly policy: AuditPolicy; readonly sink: AuditSink } | undefined;
  /** --authorization-mode's chain; alwaysAllowAuthorizer (the default) means no authorization filter. */
  readonly authorizer?: Authorizer;
  /** --max-requests-inflight (default 400; 0 = no limit). */
  readonly maxRequestsInFlight?: number;
  /** --max-mutating-requests-inflight (default 200; 0 = no limit). */
  readonly maxMutatingRequestsInFlight?: number;
  /** --request-timeout in milliseconds (default 60 000). */
  readonly requestTimeoutMs?: number;
  /** How long shutdown waits for requests in flight (default 60 000, kube's drain limit). */
  readonly shutdownTimeoutMs?: number;
  readonly logger?: Logger;
  readonly version?: VersionInfo;
  /** Checks served on /healthz, /livez and /readyz after ping and log (the storage's `etcd`). */
  readonly healthChecks?: readonly HealthChecker[];
  /** Records every request served, for tests (startCapstan's `requests()`); null: none. */
  readonly requestLog?: RequestLog | null;
  /** Faults injected into requests, for tests (startCapstan's `faults`); null: none. */
  readonly faults?: Faults | null;
  /** API Priority and Fairness' request classification (the flowcontrol config controller); null: none. */
  readonly flowControl?: ClassifierSource | null;
  /** --apf-fair-queuing: fair queuing by priority level replaces the max-in-flight limits (default false). */
  readonly fairQueuing?: boolean;
  /** Serves the test API's paths (--enable-test-api); null: they are not found. */
  readonly testAPI?: Handler | null;
  /** Serves /console/ before the filters (public files and the login exchange); null: not served. */
  readonly console?: ConsoleHandler | null;
  /** The service account issuer's OIDC discovery documents; null: not served. */
  readonly issuerDiscovery?: OpenIDMetadataInput | null;
}

declare const completed: unique symbol;

export type CompletedConfig = Readonly<Required<Config>> & { readonly [completed]: true };

const loopbackHosts = new Set(['localhost', '127.0.0.1', '::1']);

export function isLoopback(address: string): boolean {
  return loopbackHosts.has(address) || (isIP(address) === 4 && address.startsWith('127.'));
}

function validate(config: Config): string[] {
  const errs: string[] = [];
  if (config.listeners.length === 0)
    errs.push('at least one of --secure-port and --insecure-port must be set');
  for (const l of config.listeners) {
    if (!Number.isInteger(l.port) || l.port < 0 || l.port > 65535)
      errs.push(`port ${l.port} must be between 0 and 65535, inclusive`);
    if (l.tls === undefined && !isLoopback(l.bindAddress)) {
      errs.push(`plain HTTP is served on loopback addresses only, not ${JSON.stringify(l.bindAddress)}`);
    }
  }
  const counts = [config.maxRequestsInFlight, config.maxMutatingRequestsInFlight, config.requestTimeoutMs];
  if (counts.some((n) => n !== undefined && (!Number.isFinite(n) || n < 0))) {
    errs.push(
      '--max-requests-inflight, --max-mutating-requests-inflight and --request-timeout must not be negative',
    );
  }
  return errs;
}

export function completeConfig(config: Config): CompletedConfig {
  const errs = validate(config);
  if (errs.length > 0) throw new Error(errs.join('; '));
  const full: Required<Config> = {
    listeners: Object.freeze([...config.listeners]),
    tokens: config.tokens ?? new Map(),
    tokenAuthenticators: Object.freeze([...(config.tokenAuthenticators ?? [])]),
    apiAudiences: Object.freeze([...(config.apiAudiences ?? [])]),
    anonymousAuth: config.anonymousAuth ?? false,
    anonymousPaths: config.anonymousPaths,
    audit: config.audit,
    clientCA: config.clientCA,
    requestHeader: config.requestHeader,
    authorizer: config.authorizer ?? alwaysAllowAuthorizer,
    maxRequestsInFlight: config.maxRequestsInFlight ?? 400,
    maxMutatingRequestsInFlight: config.maxMutatingRequestsInFlight ?? 200,
    requestTimeoutMs: config.requestTimeoutMs ?? 60_000,
    shutdownTimeoutMs: config.shutdownTimeoutMs ?? 60_000,
    logger: config.logger ?? new Logger(),
    version: config.version ?? capstanVersionInfo(),
    healthChecks: Object.freeze([...(config.healthChecks ?? [])]),
    requestLog: config.requestLog ?? null,
    faults: config.faults ?? null,
    flowControl: config.flowControl ?? null,
    fairQueuing: config.fairQueuing ?? false,
    testAPI: config.testAPI ?? null,
    console: config.console ?? null,
    issuerDiscovery: config.issuerDiscovery ?? null,
  };
  return Object.freeze(full) as CompletedConfig;
}
