// kube-controller-manager's CSR signing flags, for the csrsigning controller Capstan runs built in.
import {
  builtinSignerNames,
  type BuiltinSignerName,
} from '../api/certificates/v1/certificate-signing-request.js';
import { formatGoDuration } from '../machinery/time/go-duration.js';
import { signerFlagNames, type SigningFiles } from '../server/options/cluster-signing.js';
import { flag, type Spec } from './flag-helpers.js';
import { parseDurationFlag } from './flag-values.js';

const section = 'CSR signing controller';

/** --cluster-signing-<signer>-cert-file and -key-file: one signer's CA, instead of the shared pair. */
function signerFlags(signer: BuiltinSignerName): Spec[] {
  const name = signerFlagNames[signer];
  const only =
    'Once any of the per-signer files are given, signers given none sign nothing, and --cluster-signing-cert-file and --cluster-signing-key-file must be left out.';
  const files = (
    part: keyof SigningFiles,
    what: string,
  ): [name: string, usage: string, apply: Spec['apply']] => [
    `cluster-signing-${name}-${part === 'certFile' ? 'cert' : 'key'}-file`,
    `Path to the PEM-encoded ${what} the ${signer} signer issues certificates with. ${only}`,
    (o, v) => (o.clusterSigning.signers[signer][part] = v),
  ];
  return [
    files('certFile', 'X509 CA certificate'),
    files('keyFile', 'RSA or ECDSA private key of the CA'),
  ].map(([flagName, usage, apply]) => flag({ section, name: flagName, kind: 'string', usage }, apply));
}

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
  ...builtinSignerNames.flatMap(signerFlags),
];
