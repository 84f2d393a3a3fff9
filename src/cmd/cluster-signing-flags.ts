// kube-controller-manager's CSR signing flags, for the csrsigning controller Capstan runs built in.
import { formatGoDuration } from '../machinery/time/go-duration.js';
import { flag, type Spec } from './flag-helpers.js';
import { parseDurationFlag } from './flag-values.js';

const section = 'CSR signing controller';

export const clusterSigningFlags: Spec[] = [
  flag(
    {
      section,
      name: 'cluster-signing-cert-file',
      kind: 'string',
      usage:
        "Filename containing a PEM-encoded X509 CA certificate used to issue cluster-scoped certificates. Without it and --cluster-signing-key-file, the CA this server made and --client-ca-file trusts (--pki-dir's) signs; else approved requests are not signed.",
    },
    (o, v) => (o.clusterSigning.certFile = v),
  ),
  flag(
    {
      section,
      name: 'cluster-signing-key-file',
      kind: 'string',
      usage:
        'Filename containing a PEM-encoded RSA or ECDSA private key used to sign cluster-scoped certificates.',
    },
    (o, v) => (o.clusterSigning.keyFile = v),
  ),
  flag(
    {
      section,
      name: 'cluster-signing-duration',
      kind: 'duration',
      usage:
        'The max length of duration signed certificates will be given. Individual CSRs may request shorter certs by setting spec.expirationSeconds.',
      def: formatGoDuration(365 * 24 * 3_600_000),
    },
    (o, v) => (o.clusterSigning.durationMs = parseDurationFlag(v)),
  ),
];
