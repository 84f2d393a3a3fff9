// Capstan's flags, named and defaulted like kube-apiserver's, each writing one ServerRunOptions field.
import { FeatureGates } from '../machinery/featuregate/feature-gates.js';
import { clockKinds, type ClockKind } from '../machinery/time/clock.js';
import { formatGoDuration } from '../machinery/time/go-duration.js';
import { logFormats, type LogFormat } from '../server/logging/logger.js';
import { flag, oneOf, type Spec } from './flag-helpers.js';
import { parseBoolFlag, parseDurationFlag, parseIntFlag, parseListFlag } from './flag-values.js';
import { auditFlags } from './audit-flags.js';
import { authnFlags } from './authn-flags.js';
import { authzFlags } from './authz-flags.js';
import { oidcFlags } from './oidc-flags.js';
import { simulateFlags } from './simulate-flags.js';
import { replicaFlags } from './replica-flags.js';
import { clusterSigningFlags } from './cluster-signing-flags.js';
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
        'The port on which to serve HTTPS with authentication; 0 picks a free port (the kubeconfig written and the log say which), -1 turns HTTPS off when --insecure-port is set.',
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
      name: 'cert-dir',
      kind: 'string',
      usage:
        'The directory holding apiserver.crt and apiserver.key, which serve HTTPS when --tls-cert-file and --tls-private-key-file are not given. Without them there, a CA and serving certificate are generated as without this flag. Without --data-dir, the files Capstan makes go here.',
    },
    (o, v) => (o.certDirectory = v),
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
      name: 'allow-privileged',
      kind: 'bool',
      usage:
        'If true, allow privileged containers. Capstan always allows them, as kubeadm and envtest configure kube-apiserver; false is refused.',
      def: 'true',
    },
    (_o, v) => {
      if (!parseBoolFlag(v)) throw new Error('Capstan always allows privileged containers');
    },
  ),
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
      name: 'apf-fair-queuing',
      kind: 'bool',
      usage:
        'Capstan only: queue requests fairly by API Priority and Fairness priority level, sharing --max-requests-inflight plus --max-mutating-requests-inflight by nominal concurrency shares (lent and borrowed by demand every 10 s within lendablePercent and borrowingLimitPercent), instead of the two max-in-flight limits. Requests are classified either way.',
      def: 'false',
    },
    (o, v) => (o.apfFairQueuing = parseBoolFlag(v)),
  ),
  flag(
    {
      section: generic,
      name: 'feature-gates',
      kind: 'mapStringBool',
      usage:
        'A set of key=value pairs that describe feature gates for alpha/experimental features: the gates of kube-apiserver 1.33, with AllAlpha and AllBeta. Capstan models ClusterTrustBundleProjection, ImageVolume, InPlacePodVerticalScaling and PodObservedGenerationTracking; the others are accepted and change nothing.',
      def: '',
    },
    (o, v) => (o.featureGates = FeatureGates.parse(v, o.featureGates)),
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
      name: 'enable-test-api',
      kind: 'bool',
      usage:
        "Serves the test API under /capstan/v1/ (snapshots, request log, faults, clock) to members of system:masters; the 'capstan snapshot|restore|requests|fault|clock' commands use it (Capstan only).",
      def: 'false',
    },
    (o, v) => (o.enableTestAPI = parseBoolFlag(v)),
  ),
  flag(
    {
      section: generic,
      name: 'console',
      kind: 'bool',
      usage:
        'Serves the web console at /console/ (on by default with the embedded store, off with etcd3) (Capstan only).',
      def: 'true',
    },
    (o, v) => (o.console = parseBoolFlag(v)),
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
  ...oidcFlags,
  ...authzFlags,
  ...admissionFlags,
  ...storageFlags,
  ...otherFlags,
  ...simulateFlags,
  ...replicaFlags,
  ...clusterSigningFlags,
  ...auditFlags,
  ...loggingFlags,
];
