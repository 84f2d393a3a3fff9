// Capstan's flags, named and defaulted like kube-apiserver's, each writing one ServerRunOptions field.
import { clockKinds, type ClockKind } from '../machinery/time/clock.js';
import { formatGoDuration } from '../machinery/time/go-duration.js';
import { logFormats, type LogFormat } from '../server/logging/logger.js';
import { flag, oneOf, type Spec } from './flag-helpers.js';
import { parseBoolFlag, parseDurationFlag, parseIntFlag, parseListFlag } from './flag-values.js';
import { simulateFlags } from './simulate-flags.js';
import { storageFlags } from './storage-flags.js';
import { parsePortRange } from '../registry/core/service/port-range.js';
import { allOrderedPlugins, enabledAdmissionPlugins } from '../admission/default-chain.js';

const serving = 'Secure serving';
const servingFlags: Spec[] = [
  flag(
    {
      section: serving,
      name: 'bind-address',
      kind: 'string',
      usage: 'The IP address on which to listen for the --secure-port port.',
      def: '0.0.0.0',
    },
    (o, v) => (o.bindAddress = v),
  ),
  flag(
    {
      section: serving,
      name: 'secure-port',
      kind: 'int',
      usage:
        'The port on which to serve HTTPS with authentication. It cannot be switched off with 0 unless --insecure-port is set.',
      def: '6443',
    },
    (o, v) => (o.securePort = parseIntFlag(v)),
  ),
  flag(
    {
      section: serving,
      name: 'tls-cert-file',
      kind: 'string',
      usage:
        'File containing the default x509 Certificate for HTTPS. If HTTPS serving is enabled, and --tls-cert-file and --tls-private-key-file are not provided, a self-signed CA and serving certificate are generated in <data-dir>/pki and reused.',
    },
    (o, v) => (o.tlsCertFile = v),
  ),
  flag(
    {
      section: serving,
      name: 'tls-private-key-file',
      kind: 'string',
      usage: 'File containing the default x509 private key matching --tls-cert-file.',
    },
    (o, v) => (o.tlsPrivateKeyFile = v),
  ),
  flag(
    {
      section: serving,
      name: 'insecure-port',
      kind: 'int',
      usage:
        'The port on which to serve plain HTTP on --insecure-bind-address, with the same authentication as the secure port. 0 turns it off.',
      def: '0',
    },
    (o, v) => (o.insecurePort = parseIntFlag(v)),
  ),
  flag(
    {
      section: serving,
      name: 'insecure-bind-address',
      kind: 'string',
      usage: 'The loopback address for --insecure-port; other addresses are refused.',
      def: '127.0.0.1',
    },
    (o, v) => (o.insecureBindAddress = v),
  ),
  flag(
    {
      section: serving,
      name: 'kubeconfig-out',
      kind: 'string',
      usage:
        'Where to write an admin kubeconfig (the CA embedded, a bearer token for a system:masters user).',
      def: '<data-dir>/kubeconfig',
    },
    (o, v) => (o.kubeconfigOut = v),
  ),
];

const authn = 'Authentication';
const authnFlags: Spec[] = [
  flag(
    {
      section: authn,
      name: 'anonymous-auth',
      kind: 'bool',
      usage:
        'Serves requests without credentials as system:anonymous on every path; when false they may reach only /healthz, /livez, /readyz and /version.',
      def: 'false',
    },
    (o, v) => (o.anonymousAuth = parseBoolFlag(v)),
  ),
  flag(
    {
      section: authn,
      name: 'token-auth-file',
      kind: 'string',
      usage:
        'If set, the file that will be used to secure the secure port of the API server via token authentication (CSV: token,user,uid,"group1,group2").',
    },
    (o, v) => (o.tokenAuthFile = v),
  ),
  flag(
    {
      section: authn,
      name: 'client-ca-file',
      kind: 'string',
      usage:
        'If set, any request presenting a client certificate signed by one of the authorities in the client-ca-file is authenticated with an identity corresponding to the CommonName of the client certificate.',
    },
    (o, v) => (o.clientCAFile = v),
  ),
  flag(
    {
      section: authn,
      name: 'requestheader-client-ca-file',
      kind: 'string',
      usage:
        'Root certificate bundle to use to verify client certificates on incoming requests before trusting usernames in headers specified by --requestheader-username-headers.',
    },
    (o, v) => (o.requestHeaderClientCAFile = v),
  ),
  flag(
    {
      section: authn,
      name: 'requestheader-allowed-names',
      kind: 'strings',
      usage:
        'List of client certificate common names to allow to provide usernames in headers specified by --requestheader-username-headers. If empty, any client certificate validated by the authorities in --requestheader-client-ca-file is allowed.',
    },
    (o, v) => o.requestHeaderAllowedNames.push(...parseListFlag(v)),
  ),
  flag(
    {
      section: authn,
      name: 'requestheader-username-headers',
      kind: 'strings',
      usage: 'List of request headers to inspect for usernames. X-Remote-User is common.',
    },
    (o, v) => o.requestHeaderUsernameHeaders.push(...parseListFlag(v)),
  ),
  flag(
    {
      section: authn,
      name: 'requestheader-group-headers',
      kind: 'strings',
      usage: 'List of request headers to inspect for groups. X-Remote-Group is suggested.',
    },
    (o, v) => o.requestHeaderGroupHeaders.push(...parseListFlag(v)),
  ),
  flag(
    {
      section: authn,
      name: 'requestheader-extra-headers-prefix',
      kind: 'strings',
      usage: 'List of request header prefixes to inspect. X-Remote-Extra- is suggested.',
    },
    (o, v) => o.requestHeaderExtraHeadersPrefix.push(...parseListFlag(v)),
  ),
  flag(
    {
      section: authn,
      name: 'authentication-token-webhook-config-file',
      kind: 'string',
      usage:
        'File with webhook configuration for token authentication in kubeconfig format. The API server will query the remote service to determine authentication for bearer tokens.',
    },
    (o, v) => (o.authenticationTokenWebhookConfigFile = v),
  ),
  flag(
    {
      section: authn,
      name: 'authentication-token-webhook-cache-ttl',
      kind: 'duration',
      usage: 'The duration to cache responses from the webhook token authenticator.',
      def: '2m0s',
    },
    (o, v) => (o.authenticationTokenWebhookCacheTTLMs = parseDurationFlag(v)),
  ),
  flag(
    {
      section: authn,
      name: 'service-account-issuer',
      kind: 'strings',
      usage:
        'Identifier of the service account token issuer: the "iss" claim of issued tokens. Repeatable: the first issues tokens, tokens of every one are accepted.',
      def: 'https://kubernetes.default.svc.cluster.local',
    },
    (o, v) => o.serviceAccountIssuers.push(...parseListFlag(v)),
  ),
  flag(
    {
      section: authn,
      name: 'service-account-key-file',
      kind: 'strings',
      usage:
        'File containing PEM-encoded x509 RSA or ECDSA private or public keys, used to verify ServiceAccount tokens. Repeatable. Defaults to the signing key.',
    },
    (o, v) => o.serviceAccountKeyFiles.push(...parseListFlag(v)),
  ),
  flag(
    {
      section: authn,
      name: 'service-account-signing-key-file',
      kind: 'string',
      usage:
        'Path to the file that contains the current private key of the service account token issuer. When unset, an EC P-256 key is generated in <data-dir>/pki/sa.key and reused.',
    },
    (o, v) => (o.serviceAccountSigningKeyFile = v),
  ),
  flag(
    {
      section: authn,
      name: 'api-audiences',
      kind: 'strings',
      usage:
        'Identifiers of the API. Service account tokens must carry one of them; TokenRequests without audiences get them. Defaults to the service account issuers.',
    },
    (o, v) => o.apiAudiences.push(...parseListFlag(v)),
  ),
];

const authz = 'Authorization';
const authzFlags: Spec[] = [
  flag(
    {
      section: authz,
      name: 'authorization-mode',
      kind: 'strings',
      usage:
        'Ordered list of plug-ins to do authorization on secure port. Comma-delimited list of: AlwaysAllow,AlwaysDeny,RBAC.',
      def: 'AlwaysAllow',
    },
    (o, v) => o.authorizationModes.push(...parseListFlag(v)),
  ),
];

// kube's AdmissionOptions.AddFlags texts, listing the plugins Capstan has.
const admission = 'Admission';
const admissionPluginList = (): string =>
  `(${enabledAdmissionPlugins().join(', ')}). Comma-delimited list of admission plugins: ${[...allOrderedPlugins].sort().join(', ')}. The order of plugins in this flag does not matter.`;
const admissionFlags: Spec[] = [
  flag(
    {
      section: admission,
      name: 'enable-admission-plugins',
      kind: 'strings',
      usage: `admission plugins that should be enabled in addition to default enabled ones ${admissionPluginList()}`,
    },
    (o, v) => o.enableAdmissionPlugins.push(...parseListFlag(v)),
  ),
  flag(
    {
      section: admission,
      name: 'disable-admission-plugins',
      kind: 'strings',
      usage: `admission plugins that should be disabled although they are in the default enabled plugins list ${admissionPluginList()}`,
    },
    (o, v) => o.disableAdmissionPlugins.push(...parseListFlag(v)),
  ),
];

const api = 'API enablement';
const generic = 'Generic';
const otherFlags: Spec[] = [
  flag(
    {
      section: generic,
      name: 'service-cluster-ip-range',
      kind: 'string',
      usage:
        'A CIDR notation IP range from which to assign service cluster IPs. This must not overlap with any IP ranges assigned to nodes or pods. Max of two dual-stack CIDRs is allowed. Defaults to 10.0.0.0/24.',
    },
    (o, v) => (o.serviceClusterIPRange = v),
  ),
  flag(
    {
      section: generic,
      name: 'service-node-port-range',
      kind: 'string',
      usage:
        "A port range to reserve for services with NodePort visibility. This must not overlap with the ephemeral port range on nodes. Example: '30000-32767'. Inclusive at both ends of the range.",
      def: '30000-32767',
    },
    (o, v) => {
      parsePortRange(v);
      o.serviceNodePortRange = v;
    },
  ),
  flag(
    {
      section: api,
      name: 'runtime-config',
      kind: 'map',
      usage:
        'A set of key=value pairs that enable or disable built-in APIs: api/all=true|false, api/ga, api/beta, api/alpha, <group>/<version>.',
    },
    (o, v) => o.runtimeConfig.push(v),
  ),
  flag(
    {
      section: generic,
      name: 'max-requests-inflight',
      kind: 'int',
      usage:
        'The maximum number of non-mutating requests in flight at a given time. When the server exceeds this, it rejects requests. Zero for no limit.',
      def: '400',
    },
    (o, v) => (o.maxRequestsInflight = parseIntFlag(v)),
  ),
  flag(
    {
      section: generic,
      name: 'max-mutating-requests-inflight',
      kind: 'int',
      usage:
        'The maximum number of mutating requests in flight at a given time. When the server exceeds this, it rejects requests. Zero for no limit.',
      def: '200',
    },
    (o, v) => (o.maxMutatingRequestsInflight = parseIntFlag(v)),
  ),
  flag(
    {
      section: generic,
      name: 'event-ttl',
      kind: 'duration',
      usage: 'Amount of time to retain events.',
      def: formatGoDuration(3_600_000),
    },
    (o, v) => (o.eventTTLMs = parseDurationFlag(v)),
  ),
  flag(
    {
      section: generic,
      name: 'clock',
      kind: 'string',
      usage:
        "The cluster's clock: 'real' (the system's) or 'virtual', which stands still until a test advances it (Capstan only).",
      def: 'real',
    },
    (o, v) => (o.clockKind = oneOf<ClockKind>(clockKinds, v)),
  ),
  flag(
    {
      section: generic,
      name: 'request-timeout',
      kind: 'duration',
      usage:
        'The duration a handler must keep a request open before timing it out. Watches and other long-running requests are not affected.',
      def: formatGoDuration(60_000),
    },
    (o, v) => (o.requestTimeoutMs = parseDurationFlag(v)),
  ),
  flag(
    {
      section: generic,
      name: 'shutdown-timeout',
      kind: 'duration',
      usage: 'How long a graceful shutdown waits for requests in flight before cutting them.',
      def: formatGoDuration(60_000),
    },
    (o, v) => (o.shutdownTimeoutMs = parseDurationFlag(v)),
  ),
  flag(
    {
      section: generic,
      name: 'config',
      kind: 'string',
      usage:
        'A YAML or JSON file of flags: a map of flag names without dashes to values (lists and maps for list and map flags). Flags on the command line override it.',
    },
    (o, v) => (o.configFile = v),
  ),
  flag(
    {
      section: generic,
      name: 'version',
      kind: 'bool',
      usage: 'Print version information and quit; --version=raw prints more detail.',
      def: 'false',
    },
    (o, v) => (o.printVersion = v === 'raw' ? 'raw' : parseBoolFlag(v) ? 'true' : 'false'),
  ),
];

const logging = 'Logs';
const audit = 'Auditing';
const auditFlags: Spec[] = [
  flag(
    {
      section: audit,
      name: 'audit-policy-file',
      kind: 'string',
      usage: 'Path to the file that defines the audit policy configuration.',
    },
    (o, v) => (o.auditPolicyFile = v),
  ),
  flag(
    {
      section: audit,
      name: 'audit-log-path',
      kind: 'string',
      usage:
        "If set, all requests coming to the apiserver will be logged to this file.  '-' means standard out.",
    },
    (o, v) => (o.auditLogPath = v),
  ),
  flag(
    {
      section: audit,
      name: 'audit-log-maxsize',
      kind: 'int',
      usage: 'The maximum size in megabytes of the audit log file before it gets rotated.',
    },
    (o, v) => (o.auditLogMaxSize = parseIntFlag(v)),
  ),
  flag(
    {
      section: audit,
      name: 'audit-log-maxbackup',
      kind: 'int',
      usage:
        "The maximum number of old audit log files to retain. Setting a value of 0 will mean there's no restriction on the number of files.",
    },
    (o, v) => (o.auditLogMaxBackup = parseIntFlag(v)),
  ),
  flag(
    {
      section: audit,
      name: 'audit-log-maxage',
      kind: 'int',
      usage:
        'The maximum number of days to retain old audit log files based on the timestamp encoded in their filename.',
    },
    (o, v) => (o.auditLogMaxAge = parseIntFlag(v)),
  ),
];

const loggingFlags: Spec[] = [
  flag(
    {
      section: logging,
      name: 'log-format',
      kind: 'string',
      usage: `Sets the log format. Permitted formats: ${logFormats.map((f) => JSON.stringify(f)).join(', ')}.`,
      def: '"text"',
    },
    (o, v) => (o.logFormat = oneOf<LogFormat>(logFormats, v)),
  ),
  {
    ...flag(
      {
        section: logging,
        name: 'v',
        kind: 'int',
        usage: 'number for the log level verbosity (3 logs every request)',
        def: '0',
      },
      (o, v) => (o.verbosity = parseIntFlag(v)),
    ),
    short: 'v',
  },
];

export const capstanFlags: readonly Spec[] = [
  ...servingFlags,
  ...authnFlags,
  ...authzFlags,
  ...admissionFlags,
  ...storageFlags,
  ...otherFlags,
  ...simulateFlags,
  ...auditFlags,
  ...loggingFlags,
];
