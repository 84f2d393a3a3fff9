// ServerRunOptions → validate → complete(): reads or makes what the flags point at (certificates,
// tokens, the data dir) once, before anything listens, into a frozen, branded value.
import type { KubeObject } from '../../api/meta.js';
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { adminUser, ensureAdminToken } from '../authn/admin-token.js';
import {
  defaultServiceAccountIssuer,
  loadServiceAccountKeys,
  type ServiceAccountKeys,
} from '../authn/service-account-keys.js';
import { loadTokenFile, type TokenTable } from '../authn/token-auth.js';
import { loadEncryptionConfig, type LoadedEncryptionConfig } from '../encryption/load-config.js';
import { loadWebhookTarget, type WebhookTarget } from '../authn/webhook-client.js';
import { loadAuthorization } from '../authorization/load-authorization.js';
import type { AuthorizerConfig } from '../authorization/authorizer-config.js';
import { loadPolicyFile } from '../audit/policy.js';
import type {
  AuthenticationConfiguration,
  JWTAuthenticatorConfig,
} from '../authn/jwt/authentication-config.js';
import {
  jwtAuthenticatorFromOidcFlags,
  loadAuthenticationConfig,
} from '../authn/jwt/load-authentication-config.js';
import type { AuditPolicy } from '../audit/types.js';
import type { TlsMaterial } from '../http/serving-listener.js';
import { errorText } from '../logging/error-text.js';
import { Logger, type LogSink } from '../logging/logger.js';
import { newClock, type Clock } from '../../machinery/time/clock.js';
import {
  defaultAPIResourceConfigSource,
  mergeAPIResourceConfigs,
  parseRuntimeConfig,
  registryOf,
  validateRuntimeConfig,
} from '../resource-config.js';
import { defaultAltNames, ensureServingCertificates, type ServingCertificates } from '../tls/self-signed.js';
import {
  anonymousAuthResetWarning,
  oidcFlagsOf,
  validateServerRunOptions,
  type ServerRunOptions,
} from './server-run-options.js';
import { withCertDir } from './cert-dir.js';
import { pkiFiles, withPKIDir } from './replica-options.js';
import { clusterSigningOf, type ClusterSigning } from './cluster-signing.js';
import { CacheSeeds } from '../../storage/cacher/cache-seeds.js';
import { serverRecentWrites, type RecentWrites } from '../../storage/cacher/recent-writes.js';

/** Invalid flag values; the CLI prints each and exits 1, as kube-apiserver does. */
export class OptionsError extends Error {
  readonly errors: readonly string[];
  constructor(errors: readonly string[]) {
    super(errors.join('\n'));
    this.name = 'OptionsError';
    this.errors = errors;
  }
}

declare const completedOptions: unique symbol;

export type CompletedServerRunOptions = Readonly<ServerRunOptions> & {
  /** --data-dir made absolute; it exists. */
  readonly dataDir: string;
  readonly kubeconfigPath: string;
  /** Absent when only plain HTTP is served. */
  readonly tls: TlsMaterial | undefined;
  /** The CA a client should trust (embedded in the kubeconfig). */
  readonly caPem: string | undefined;
  /** Certificate files made this start ([] when reused or given). */
  readonly certificatesGenerated: readonly string[];
  readonly adminToken: string;
  readonly tokens: TokenTable;
  /** Signs and verifies service account tokens. */
  readonly serviceAccountKeys: ServiceAccountKeys;
  readonly logger: Logger;
  /** The server's one clock (--clock). */
  readonly clock: Clock;
  /** The server's watch caches for test snapshots, with the seeds of a fork's. */
  readonly cacheSeeds: CacheSeeds;
  /** The objects of the server's recent handed-over writes, for the next update of each (its caches share it). */
  readonly recentWrites: RecentWrites<KubeObject>;
  /** The PEM of --client-ca-file and of --requestheader-client-ca-file ('' when not given). */
  readonly clientCAPem: string;
  readonly requestHeaderCAPem: string;
  /** --proxy-client-cert-file and --proxy-client-key-file read; absent without them. */
  readonly proxyClientCert: { readonly cert: string; readonly key: string } | undefined;
  /** The authorizer chain (--authorization-mode and the webhook flags, or --authorization-config). */
  readonly authorizers: readonly AuthorizerConfig[];
  /** --authentication-token-webhook-config-file read; absent without it. */
  readonly webhookTarget: WebhookTarget | undefined;
  /** The JWT authenticators of --authentication-config, or the one the --oidc-* flags make. */
  readonly jwtAuthenticators: readonly JWTAuthenticatorConfig[];
  /** --authentication-config's anonymous section, when it has one. */
  readonly anonymousConfig: AuthenticationConfiguration['anonymous'];
  /** --audit-webhook-config-file read; absent without it. */
  readonly auditWebhookTarget: WebhookTarget | undefined;
  /** --audit-policy-file read and checked; absent without it or without a backend (log or webhook). */
  readonly auditPolicy: AuditPolicy | undefined;
  /** The CA the csrsigning controller issues certificates with, or why it is off. */
  readonly signingCA: ClusterSigning;
  /** --encryption-provider-config, read and checked; absent without the flag. */
  readonly encryptionConfig: LoadedEncryptionConfig | undefined;
  readonly [completedOptions]: true;
};

/** A CA file that holds no certificate stops the start (kube's dynamic CA loader). */
/** The aggregator's client certificate: both files or neither. */
async function proxyClientCertOf(
  o: ServerRunOptions,
): Promise<{ readonly cert: string; readonly key: string } | undefined> {
  const { proxyClientCertFile: certFile, proxyClientKeyFile: keyFile } = o;
  if (certFile === '' && keyFile === '') return undefined;
  if (certFile === '' || keyFile === '')
    throw new OptionsError(['--proxy-client-cert-file and --proxy-client-key-file must be given together']);
  try {
    const [cert, key] = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')]);
    return { cert, key };
  } catch (err) {
    throw new OptionsError([`failed to load the proxy client certificate: ${errorText(err)}`]);
  }
}

export async function readClientCA(flag: string, path: string): Promise<string> {
  let pem: string;
  try {
    pem = await readFile(path, 'utf8');
  } catch (err) {
    throw new OptionsError([`failed to load --${flag} ${JSON.stringify(path)}: ${errorText(err)}`]);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----'))
    throw new OptionsError([
      `failed to load --${flag} ${JSON.stringify(path)}: data does not contain any valid RSA or ECDSA certificates`,
    ]);
  return pem;
}

async function webhookTargetOf(path: string): Promise<WebhookTarget | undefined> {
  if (path === '') return undefined;
  try {
    return await loadWebhookTarget(path);
  } catch (err) {
    throw new OptionsError([`invalid authentication config: ${errorText(err)}`]);
  }
}

/** kube's ValidateAuthenticationConfiguration: a JWT issuer may not be a service account issuer. */
function disallowedIssuerErrors(config: AuthenticationConfiguration, o: ServerRunOptions): string[] {
  const saIssuers =
    o.serviceAccountIssuers.length > 0 ? o.serviceAccountIssuers : [defaultServiceAccountIssuer];
  return config.jwt.flatMap((a, i) =>
    saIssuers.includes(a.issuer.url)
      ? [
          `jwt[${i}].issuer.url: Invalid value: ${JSON.stringify(a.issuer.url)}: URL must not overlap with disallowed issuers: [${[...saIssuers].sort().join(' ')}]`,
        ]
      : [],
  );
}

async function jwtAuthenticatorsOf(o: ServerRunOptions): Promise<AuthenticationConfiguration | undefined> {
  const checked = (config: AuthenticationConfiguration): AuthenticationConfiguration => {
    const errs = disallowedIssuerErrors(config, o);
    if (errs.length > 0) throw new Error(errs.length === 1 ? (errs[0] ?? '') : `[${errs.join(', ')}]`);
    return config;
  };
  try {
    if (o.authenticationConfigFile !== '')
      return checked(await loadAuthenticationConfig(o.authenticationConfigFile));
    if (o.oidc.issuerURL === '') return undefined;
    const jwt = await jwtAuthenticatorFromOidcFlags(oidcFlagsOf(o));
    return checked({
      apiVersion: 'apiserver.config.k8s.io/v1beta1',
      kind: 'AuthenticationConfiguration',
      jwt: [jwt],
    });
  } catch (err) {
    const source =
      o.authenticationConfigFile !== ''
        ? `--authentication-config ${JSON.stringify(o.authenticationConfigFile)}`
        : 'the --oidc-* flags';
    throw new OptionsError([`failed to load ${source}: ${errorText(err)}`]);
  }
}

async function auditWebhookTargetOf(path: string): Promise<WebhookTarget | undefined> {
  if (path === '') return undefined;
  try {
    return await loadWebhookTarget(path);
  } catch (err) {
    throw new OptionsError([`initializing audit webhook: ${errorText(err)}`]);
  }
}

/** Auditing needs a policy and a backend (kube's AuditOptions: no backend, no events). */
async function auditPolicyOf(o: ServerRunOptions): Promise<AuditPolicy | undefined> {
  if (o.auditPolicyFile === '' || (o.auditLogPath === '' && o.auditWebhookConfigFile === ''))
    return undefined;
  try {
    return await loadPolicyFile(o.auditPolicyFile);
  } catch (err) {
    throw new OptionsError([`loading audit policy file: ${errorText(err)}`]);
  }
}

/**
 * The CA and serving certificate Capstan makes in <data-dir>/pki when it serves TLS without
 * --tls-cert-file; made before the CA files are read, so that --client-ca-file may name this CA on
 * the first start too.
 */
async function generatedServing(
  o: ServerRunOptions,
  dataDir: string,
): Promise<ServingCertificates | undefined> {
  if (o.securePort < 0 || o.tlsCertFile !== '') return undefined;
  return ensureServingCertificates(join(dataDir, 'pki'), defaultAltNames(o.bindAddress));
}

async function servingMaterial(
  o: ServerRunOptions,
  made: { generated: ServingCertificates | undefined; trustedCAs: readonly string[] },
): Promise<{ tls?: TlsMaterial; caPem?: string; generated: readonly string[] }> {
  const { trustedCAs } = made;
  if (o.securePort < 0) return { generated: [] };
  const trusted = trustedCAs.filter((b) => b !== '').join('\n');
  // The handshake trusts both bundles; each authenticator then checks its own.
  const clientCA = trusted === '' ? {} : { clientCAPem: trusted };
  if (o.tlsCertFile !== '') {
    const [certPem, keyPem] = await Promise.all([
      readFile(o.tlsCertFile, 'utf8'),
      readFile(o.tlsPrivateKeyFile, 'utf8'),
    ]);
    // A shared PKI directory's CA is what clients trust; a given certificate alone is its own.
    const caPem =
      o.replicas.pkiDir === '' ? certPem : await readFile(pkiFiles(o.replicas.pkiDir).caCert, 'utf8');
    return { tls: { certPem, keyPem, ...clientCA }, caPem, generated: [] };
  }
  const certs = made.generated;
  if (certs === undefined) return { generated: [] };
  return {
    tls: { certPem: certs.certPem, keyPem: certs.keyPem, ...clientCA },
    caPem: certs.caPem,
    generated: certs.generated,
  };
}

/** --runtime-config checked against what the server serves (kube's APIEnablementOptions.Validate). */
function runtimeConfigErrors(values: readonly string[]): string[] {
  try {
    const defaults = defaultAPIResourceConfigSource();
    const overrides = parseRuntimeConfig(values);
    const errs = validateRuntimeConfig(overrides, registryOf(defaults));
    if (errs.length === 0) mergeAPIResourceConfigs(defaults, overrides);
    return errs.map((e) => e.message);
  } catch (err) {
    return [errorText(err)];
  }
}

/** EtcdOptions.Complete: an encryption config that does not load stops the start. */
async function encryptionConfigOf(path: string): Promise<LoadedEncryptionConfig | undefined> {
  if (path === '') return undefined;
  try {
    return await loadEncryptionConfig(path);
  } catch (err) {
    throw new OptionsError([errorText(err)]);
  }
}

/** A generated key lives beside the data it signs for: in memory for the memory backend. */
async function serviceAccountKeysFor(o: ServerRunOptions, dataDir: string): Promise<ServiceAccountKeys> {
  try {
    return await loadServiceAccountKeys({
      signingKeyFile: o.serviceAccountSigningKeyFile,
      keyFiles: o.serviceAccountKeyFiles,
      issuers: o.serviceAccountIssuers,
      apiAudiences: o.apiAudiences,
      generatedKeyPath: o.storage.backend === 'memory' ? undefined : join(dataDir, 'pki', 'sa.key'),
    });
  } catch (err) {
    throw new OptionsError([`failed to load service account keys: ${errorText(err)}`]);
  }
}

export async function completeServerRunOptions(
  given: ServerRunOptions,
  opts: { logSink?: LogSink } = {},
): Promise<CompletedServerRunOptions> {
  const o = await withCertDir(withPKIDir(given));
  const errs = [...validateServerRunOptions(o), ...runtimeConfigErrors(o.runtimeConfig)];
  if (errs.length > 0) throw new OptionsError(errs);
  const logger = new Logger({
    format: o.logFormat,
    verbosity: o.verbosity,
    ...(opts.logSink === undefined ? {} : { sink: opts.logSink }),
  });
  // Under --authorization-config the modes are the file's authorizer types.
  const authorization = await loadAuthorization(o).catch((err: unknown) => {
    // kube reports a bad --authorization-config as it is, a webhook it cannot build with a prefix.
    const prefix = o.authorization.configFile === '' ? 'invalid authorization config: ' : '';
    throw new OptionsError([`${prefix}${errorText(err)}`]);
  });
  const anonymousReset = anonymousAuthResetWarning({ ...o, authorizationModes: [...authorization.modes] });
  if (anonymousReset !== undefined) logger.warn(anonymousReset);
  for (const warning of o.featureGates.warnings()) logger.warn(warning);
  const dataDir = resolve(o.storage.dataDir);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const encryptionConfig = await encryptionConfigOf(o.storage.encryptionProviderConfigFilepath);
  const auditPolicy = await auditPolicyOf(o);
  const webhookTarget = await webhookTargetOf(o.authenticationTokenWebhookConfigFile);
  const authenticationConfig = await jwtAuthenticatorsOf(o);
  if (authenticationConfig?.anonymous !== undefined && o.anonymousAuth !== undefined)
    throw new OptionsError([
      // kube's text, its typo included.
      'anonymous: Forbidden: --anonynous-auth flag cannot be set when anonymous field is configured in authentication configuration file',
    ]);
  const auditWebhookTarget = await auditWebhookTargetOf(o.auditWebhookConfigFile);
  const generated = await generatedServing(o, dataDir);
  const [clientCAPem, requestHeaderCAPem] = await Promise.all([
    // Without --client-ca-file, the CA this server made trusts the client certificates it signs for
    // CSRs, as kubeadm's --client-ca-file names the cluster CA (--pki-dir's does the same).
    o.clientCAFile === '' ? (generated?.caPem ?? '') : readClientCA('client-ca-file', o.clientCAFile),
    o.requestHeaderClientCAFile === ''
      ? ''
      : readClientCA('requestheader-client-ca-file', o.requestHeaderClientCAFile),
  ]);
  const proxyClientCert = await proxyClientCertOf(o);
  const [serving, adminToken, fileTokens, serviceAccountKeys] = await Promise.all([
    servingMaterial(o, { generated, trustedCAs: [clientCAPem, requestHeaderCAPem] }),
    ensureAdminToken(join(dataDir, 'pki', 'admin.token')),
    o.tokenAuthFile === '' ? new Map() : loadTokenFile(o.tokenAuthFile, logger),
    serviceAccountKeysFor(o, dataDir),
  ]);
  const signingCA = await clusterSigningOf({
    signing: o.clusterSigning,
    pkiDir: o.replicas.pkiDir,
    generatedCA: o.securePort >= 0 && o.tlsCertFile === '',
    dataDir,
    clientCAPem,
  });
  if ('error' in signingCA) throw new OptionsError([signingCA.error]);
  const tokens = new Map(fileTokens);
  tokens.set(adminToken, adminUser);
  const completed: Omit<CompletedServerRunOptions, typeof completedOptions> = {
    ...o,
    storage: { ...o.storage, dataDir },
    authorizationModes: [...authorization.modes],
    authorizers: authorization.authorizers,
    dataDir,
    kubeconfigPath: o.kubeconfigOut === '' ? join(dataDir, 'kubeconfig') : resolve(o.kubeconfigOut),
    tls: serving.tls,
    caPem: serving.caPem,
    certificatesGenerated: serving.generated,
    adminToken,
    tokens,
    serviceAccountKeys,
    logger,
    clock: newClock(o.clockKind),
    cacheSeeds: new CacheSeeds(o.storage.seedCaches),
    recentWrites: serverRecentWrites(o.checkSharing),
    encryptionConfig,
    auditPolicy,
    auditWebhookTarget,
    webhookTarget,
    jwtAuthenticators: authenticationConfig?.jwt ?? [],
    anonymousConfig: authenticationConfig?.anonymous,
    clientCAPem,
    requestHeaderCAPem,
    proxyClientCert,
    signingCA,
  };
  return Object.freeze(completed) as CompletedServerRunOptions;
}
