// What the command line configures (kube-apiserver's ServerRunOptions, flattened to the flags
// Capstan has), with kube's defaults and its validation messages where kube has them.
import { defaultClusterSigningOptions, type ClusterSigningOptions } from './cluster-signing.js';
import { FeatureGates } from '../../machinery/featuregate/feature-gates.js';
import type { LogFormat } from '../logging/logger.js';
import { logFormats } from '../logging/logger.js';
import { clockKinds, type ClockKind } from '../../machinery/time/clock.js';
import { defaultStorageOptions, validateStorageOptions, type StorageOptions } from './storage-options.js';
import { parseServiceClusterIPRange } from '../../registry/core/service/service-ip-ranges.js';
import { modeAlwaysAllow } from '../authorization/modes.js';
import {
  defaultAuthorizationOptions,
  validateAuthorizationOptions,
  type AuthorizationOptions,
} from './authorization-options.js';
import { validateAdmissionPluginSelection } from '../../admission/default-chain.js';
import {
  defaultAuditWebhookInitialBackoffMs,
  defaultLogBatchOptions,
  defaultTruncateOptions,
  defaultWebhookBatchOptions,
  validateAuditOptions,
  type AuditBatchOptions,
  type AuditTruncateOptions,
} from './audit-options.js';
import { validateOidcFlags, type OidcFlags } from '../authn/jwt/load-authentication-config.js';
import { tokenReviewVersionError } from '../authn/webhook-token-authenticator.js';
import { defaultReplicaOptions, validateReplicaOptions, type ReplicaOptions } from './replica-options.js';

/**
 * Whether requests without credentials are served as system:anonymous. --anonymous-auth defaults to
 * true, but AlwaysAllow would then let anyone do anything, so under AlwaysAllow it is turned off,
 * whether given or defaulted (kube's BuiltInAuthenticationOptions.ApplyAuthorization, which warns:
 * see anonymousAuthResetWarning). --authentication-config's anonymous section decides when it has
 * one; kube does not reset that.
 */
export function anonymousAuthOf(
  o: Pick<ServerRunOptions, 'anonymousAuth' | 'authorizationModes'>,
  fromConfig?: { readonly enabled: boolean },
): boolean {
  if (fromConfig !== undefined) return fromConfig.enabled;
  return (o.anonymousAuth ?? true) && !authorizationModesOf(o).includes(modeAlwaysAllow);
}

/** kube's warning when AlwaysAllow turns --anonymous-auth off; undefined when it does not. */
export function anonymousAuthResetWarning(
  o: Pick<ServerRunOptions, 'anonymousAuth' | 'authorizationModes'>,
): string | undefined {
  return (o.anonymousAuth ?? true) && authorizationModesOf(o).includes(modeAlwaysAllow)
    ? 'AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to false. You should use a different authorizer'
    : undefined;
}

/** The --oidc-* flags with kube's default signing algorithm filled in. */
export function oidcFlagsOf(o: Pick<ServerRunOptions, 'oidc'>): OidcFlags {
  return { ...o.oidc, signingAlgs: o.oidc.signingAlgs.length === 0 ? ['RS256'] : o.oidc.signingAlgs };
}

/** --authorization-mode as given, or kube's default. */
export function authorizationModesOf(o: Pick<ServerRunOptions, 'authorizationModes'>): readonly string[] {
  return o.authorizationModes.length === 0 ? [modeAlwaysAllow] : o.authorizationModes;
}

export interface ServerRunOptions {
  /** --bind-address: where the secure port listens. */
  bindAddress: string;
  /** --secure-port: HTTPS; 0 picks a free port, -1 turns HTTPS off (with --insecure-port). */
  securePort: number;
  /** --insecure-port: plain HTTP on --insecure-bind-address (loopback only); 0, the default, is off. */
  insecurePort: number;
  insecureBindAddress: string;
  tlsCertFile: string;
  tlsPrivateKeyFile: string;
  /** --cert-dir: where apiserver.crt and apiserver.key serve HTTPS when --tls-cert-file is not given. */
  certDirectory: string;
  tokenAuthFile: string;
  /** --client-ca-file: PEM CA bundle that client certificates must chain to ('' off). */
  clientCAFile: string;
  /** --requestheader-client-ca-file ('' off) and the request-header flags that go with it. */
  requestHeaderClientCAFile: string;
  requestHeaderAllowedNames: string[];
  requestHeaderUsernameHeaders: string[];
  requestHeaderGroupHeaders: string[];
  requestHeaderExtraHeadersPrefix: string[];
  /** --proxy-client-cert-file and --proxy-client-key-file: what the aggregator proxies with ('' none). */
  proxyClientCertFile: string;
  proxyClientKeyFile: string;
  /** --authentication-token-webhook-config-file ('' off): a kubeconfig naming the TokenReview service. */
  authenticationTokenWebhookConfigFile: string;
  /** --authentication-token-webhook-cache-ttl (default 2m). */
  authenticationTokenWebhookCacheTTLMs: number;
  /** --authentication-token-webhook-version (default v1beta1, as kube). */
  authenticationTokenWebhookVersion: string;
  /** --authentication-config ('' none): AuthenticationConfiguration with JWT authenticators. */
  authenticationConfigFile: string;
  /** The --oidc-* flags (signingAlgs empty means kube's default, RS256). */
  oidc: {
    issuerURL: string;
    clientID: string;
    caFile: string;
    usernameClaim: string;
    usernamePrefix: string;
    groupsClaim: string;
    groupsPrefix: string;
    requiredClaims: Record<string, string>;
    signingAlgs: string[];
  };
  /** --audit-policy-file ('' no auditing). */
  auditPolicyFile: string;
  /** --audit-log-path: '' no log backend, '-' stdout. */
  auditLogPath: string;
  /** --audit-log-maxsize (MB), --audit-log-maxbackup, --audit-log-maxage (days); 0 = no limit. */
  auditLogMaxSize: number;
  auditLogMaxBackup: number;
  auditLogMaxAge: number;
  /** --audit-webhook-config-file ('' no webhook backend): a kubeconfig naming the audit service. */
  auditWebhookConfigFile: string;
  /** --audit-log-mode (default blocking) and --audit-log-batch-*. */
  auditLogBatch: AuditBatchOptions;
  /** --audit-webhook-mode (default batch) and --audit-webhook-batch-*. */
  auditWebhookBatch: AuditBatchOptions;
  /** --audit-log-truncate-* and --audit-webhook-truncate-*. */
  auditLogTruncate: AuditTruncateOptions;
  auditWebhookTruncate: AuditTruncateOptions;
  /** --audit-webhook-initial-backoff: the first wait before a failed batch is sent again. */
  auditWebhookInitialBackoffMs: number;
  /** --anonymous-auth; undefined when not given (kube's default, true); off under AlwaysAllow either way. */
  anonymousAuth: boolean | undefined;
  /** --authorization-mode: the ordered modes; empty means kube's default, AlwaysAllow. */
  authorizationModes: string[];
  /** The --authorization-webhook-* flags and --authorization-config. */
  authorization: AuthorizationOptions;
  /** --enable-admission-plugins: on top of the default-on plugins (all of Capstan's). */
  enableAdmissionPlugins: string[];
  /** --disable-admission-plugins: default-on plugins turned off. */
  disableAdmissionPlugins: string[];
  /** --service-account-issuer (repeatable): the first issues tokens; empty means kube's in-cluster URL. */
  serviceAccountIssuers: string[];
  /** --service-account-key-file (repeatable): PEM files of keys tokens may be signed with. */
  serviceAccountKeyFiles: string[];
  /** --service-account-jwks-uri: the discovery document's jwks_uri; '' means this server's address. */
  serviceAccountJWKSURI: string;
  /** --service-account-signing-key-file: '' makes an EC key in <data-dir>/pki/sa.key. */
  serviceAccountSigningKeyFile: string;
  /** --api-audiences: empty means the issuers. */
  apiAudiences: string[];
  /** --kubeconfig-out: '' means <data-dir>/kubeconfig. */
  kubeconfigOut: string;
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  /** --apf-fair-queuing: fair queuing by priority level instead of the max-in-flight limits. */
  apfFairQueuing: boolean;
  requestTimeoutMs: number;
  /** --shutdown-timeout: how long shutdown waits for requests in flight. */
  shutdownTimeoutMs: number;
  /** --event-ttl: how long an event is kept after its last write. */
  eventTTLMs: number;
  /** --feature-gates: kube 1.33's gates, of which Capstan models a few (modelledGates). */
  featureGates: FeatureGates;
  /** --clock: `real` (the system's) or `virtual` (stands still until a test advances it). */
  clockKind: ClockKind;
  /** --enable-test-api: serve /capstan/v1/ (snapshots, request log, faults, clock) to system:masters. */
  enableTestAPI: boolean;
  /**
   * Freeze what the watch caches hand to updates, past metadata, so that code changing it in place
   * throws (recent-writes.ts): a check for tests, not a flag (CAPSTAN_CHECK_SHARING=1 in the
   * environment of `capstan`, startCapstan's checkSharing).
   */
  checkSharing: boolean;
  /** --console: serve the web console at /console/; undefined: on for the embedded store only. */
  console: boolean | undefined;
  /** --service-cluster-ip-range: one CIDR, or two of different families; '' means 10.0.0.0/24. */
  serviceClusterIPRange: string;
  /** --service-node-port-range: `30000-32767` by default. */
  serviceNodePortRange: string;
  /** --runtime-config values as given (`api/all=false,apps/v1=true`), parsed by the resource config. */
  runtimeConfig: string[];
  logFormat: LogFormat;
  verbosity: number;
  /** --config: the file further flags were read from ('' none). */
  configFile: string;
  /** --version: print the version ('true' or Go's raw struct) and exit. */
  printVersion: 'false' | 'true' | 'raw';
  /** --simulate: run simulated nodes, kubelets, a scheduler and workload controllers in the server. */
  simulate: boolean;
  /** --simulate-nodes: how many nodes the simulated cluster registers. */
  simulateNodes: number;
  /** --simulate-stages: a pod stages file's path, or the stages themselves (startCapstan). */
  simulateStages?: unknown;
  /** --simulate-pod-stop-seconds: a deleted simulated pod's stop time without capstan.dev/stop-seconds. */
  simulatePodStopSeconds?: number;
  /** --simulate-metrics: with --simulate, serve metrics.k8s.io (kubectl top, CPU-based HPAs). */
  simulateMetrics: boolean;
  /**
   * --terminated-pod-gc-threshold: with --simulate, the terminated pods PodGC leaves (<= 0: off;
   * unset: kube-controller-manager's 12500, PodGC's default).
   */
  terminatedPodGCThreshold?: number;
  storage: StorageOptions;
  /** --pki-dir, --advertise-address, --endpoint-reconciler-type, --leader-elect-*: several replicas. */
  replicas: ReplicaOptions;
  /** --cluster-signing-cert-file, --cluster-signing-key-file, --cluster-signing-duration. */
  clusterSigning: ClusterSigningOptions;
}

export function defaultServerRunOptions(): ServerRunOptions {
  return {
    bindAddress: '0.0.0.0',
    securePort: 6443,
    insecurePort: 0,
    insecureBindAddress: '127.0.0.1',
    tlsCertFile: '',
    tlsPrivateKeyFile: '',
    certDirectory: '',
    tokenAuthFile: '',
    clientCAFile: '',
    requestHeaderClientCAFile: '',
    requestHeaderAllowedNames: [],
    requestHeaderUsernameHeaders: [],
    requestHeaderGroupHeaders: [],
    requestHeaderExtraHeadersPrefix: [],
    proxyClientCertFile: '',
    proxyClientKeyFile: '',
    authenticationTokenWebhookConfigFile: '',
    authenticationTokenWebhookCacheTTLMs: 120_000,
    authenticationTokenWebhookVersion: 'v1beta1',
    authenticationConfigFile: '',
    oidc: {
      issuerURL: '',
      clientID: '',
      caFile: '',
      usernameClaim: 'sub',
      usernamePrefix: '',
      groupsClaim: '',
      groupsPrefix: '',
      requiredClaims: {},
      signingAlgs: [],
    },
    auditPolicyFile: '',
    auditLogPath: '',
    auditLogMaxSize: 0,
    auditLogMaxBackup: 0,
    auditLogMaxAge: 0,
    auditWebhookConfigFile: '',
    auditLogBatch: defaultLogBatchOptions(),
    auditWebhookBatch: defaultWebhookBatchOptions(),
    auditWebhookInitialBackoffMs: defaultAuditWebhookInitialBackoffMs,
    auditLogTruncate: defaultTruncateOptions(),
    auditWebhookTruncate: defaultTruncateOptions(),
    anonymousAuth: undefined,
    authorizationModes: [],
    authorization: defaultAuthorizationOptions(),
    enableAdmissionPlugins: [],
    disableAdmissionPlugins: [],
    serviceAccountIssuers: [],
    serviceAccountKeyFiles: [],
    serviceAccountJWKSURI: '',
    serviceAccountSigningKeyFile: '',
    apiAudiences: [],
    kubeconfigOut: '',
    maxRequestsInflight: 400,
    maxMutatingRequestsInflight: 200,
    apfFairQueuing: false,
    requestTimeoutMs: 60_000,
    shutdownTimeoutMs: 60_000,
    eventTTLMs: 3_600_000,
    featureGates: FeatureGates.defaults(),
    clockKind: 'real',
    enableTestAPI: false,
    checkSharing: false,
    console: undefined,
    serviceClusterIPRange: '',
    serviceNodePortRange: '30000-32767',
    runtimeConfig: [],
    logFormat: 'text',
    verbosity: 0,
    configFile: '',
    printVersion: 'false',
    simulate: false,
    simulateNodes: 3,
    simulateMetrics: true,
    storage: defaultStorageOptions(),
    replicas: defaultReplicaOptions(),
    clusterSigning: defaultClusterSigningOptions(),
  };
}

const portError = (flag: string, port: number): string =>
  `--${flag} ${port} must be between 1 and 65535, inclusive. It cannot be turned off with 0`;

function validateServing(o: ServerRunOptions): string[] {
  const errs: string[] = [];
  if (!Number.isInteger(o.securePort) || o.securePort < -1 || o.securePort > 65535) {
    errs.push(
      `--secure-port ${o.securePort} must be between 0 and 65535, inclusive (0 picks a free port), or -1 for turning off secure port`,
    );
  }
  if (!Number.isInteger(o.insecurePort) || o.insecurePort < 0 || o.insecurePort > 65535)
    errs.push(portError('insecure-port', o.insecurePort));
  if (o.securePort === -1 && o.insecurePort === 0)
    errs.push('--secure-port -1 needs --insecure-port: nothing would be served');
  if ((o.tlsCertFile === '') !== (o.tlsPrivateKeyFile === '')) {
    errs.push('--tls-cert-file and --tls-private-key-file must be given together');
  }
  return errs;
}

/** ServiceAccountAuthenticationOptions.Validate's check of --service-account-jwks-uri. */
function validateJWKSURI(uri: string): string[] {
  if (uri === '') return [];
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return [`service-account-jwks-uri must be a valid URL: parse ${JSON.stringify(uri)}: invalid URI`];
  }
  return url.protocol === 'https:'
    ? []
    : [`service-account-jwks-uri requires https scheme, parsed as: ${uri}`];
}

export function validateServerRunOptions(o: ServerRunOptions): string[] {
  const errs = [
    ...validateServing(o),
    ...validateStorageOptions(o.storage),
    ...validateReplicaOptions(o.replicas),
  ];
  errs.push(...parseServiceClusterIPRange(o.serviceClusterIPRange).errors);
  errs.push(...validateJWKSURI(o.serviceAccountJWKSURI));
  errs.push(...validateAuthorizationOptions(o));
  errs.push(
    ...validateAdmissionPluginSelection({
      enable: o.enableAdmissionPlugins,
      disable: o.disableAdmissionPlugins,
    }),
  );
  errs.push(...validateOidcFlags(oidcFlagsOf(o), o.authenticationConfigFile));
  if (o.simulateNodes < 0 || o.simulateNodes > 65_000)
    errs.push('--simulate-nodes must be between 0 and 65000');
  if (o.simulatePodStopSeconds !== undefined && o.simulatePodStopSeconds < 0)
    errs.push('--simulate-pod-stop-seconds must not be negative');
  errs.push(...validateAuditOptions(o));
  const webhookVersion = tokenReviewVersionError(o.authenticationTokenWebhookVersion);
  if (o.authenticationTokenWebhookConfigFile !== '' && webhookVersion !== undefined)
    errs.push(webhookVersion);
  if (o.maxRequestsInflight < 0) errs.push('--max-requests-inflight can not be negative value');
  if (o.maxMutatingRequestsInflight < 0)
    errs.push('--max-mutating-requests-inflight can not be negative value');
  if (o.requestTimeoutMs < 0) errs.push('--request-timeout can not be negative value');
  if (o.shutdownTimeoutMs < 0) errs.push('--shutdown-timeout can not be negative value');
  if (!(clockKinds as readonly string[]).includes(o.clockKind))
    errs.push(`--clock: must be one of ${clockKinds.join(', ')}, got ${JSON.stringify(o.clockKind)}`);
  if (!(logFormats as readonly string[]).includes(o.logFormat))
    errs.push(`--log-format: unsupported format ${JSON.stringify(o.logFormat)}`);
  if (!Number.isInteger(o.verbosity) || o.verbosity < 0) errs.push('-v must be a non-negative integer');
  return errs;
}
