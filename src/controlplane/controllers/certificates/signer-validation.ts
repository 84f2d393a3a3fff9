// What kube's signers accept (pkg/controller/certificates/signer/signer.go's isRequestForSigner
// functions and pkg/apis/certificates/helpers.go's ValidateKubelet*CSR), with their error texts:
// a request one of these refuses is marked Failed with reason SignerValidationFailure.
import {
  builtinSignerNames,
  kubeAPIServerClientSignerName,
  kubeletClientSignerName,
  kubeletServingSignerName,
  legacyUnknownSignerName,
  type BuiltinSignerName,
} from '../../../api/certificates/v1/certificate-signing-request.js';
import type { CertificateRequest } from '../../../server/tls/certificate-request.js';

export const isBuiltinSigner = (name: string): name is BuiltinSignerName =>
  (builtinSignerNames as readonly string[]).includes(name);

const sameSet = (a: ReadonlySet<string>, b: readonly string[]): boolean =>
  a.size === b.length && b.every((u) => a.has(u));

const servingUsages = ['digital signature', 'key encipherment', 'server auth'];
const servingUsagesNoRSA = ['digital signature', 'server auth'];
const clientUsages = ['client auth', 'digital signature', 'key encipherment'];
const clientUsagesNoRSA = ['digital signature', 'client auth'];

const nodesOnly = (req: CertificateRequest): boolean =>
  req.subject.organization?.length === 1 && req.subject.organization[0] === 'system:nodes';
const nodeName = (req: CertificateRequest): boolean =>
  (req.subject.commonName ?? '').startsWith('system:node:');

/** ValidateKubeletServingCSR: undefined when the request is one. */
export function kubeletServingError(
  req: CertificateRequest,
  usages: ReadonlySet<string>,
): string | undefined {
  if (!nodesOnly(req)) return 'subject organization is not system:nodes';
  if (req.dnsNames.length === 0 && req.ipAddresses.length === 0)
    return 'DNS or IP subjectAltName is required';
  if (req.emailAddresses.length > 0) return 'Email subjectAltNames are not allowed';
  if (req.uris.length > 0) return 'URI subjectAltNames are not allowed';
  if (!sameSet(usages, servingUsages) && !sameSet(usages, servingUsagesNoRSA))
    return `usages did not match [${servingUsages.join(' ')}]`;
  if (!nodeName(req)) return 'subject common name does not begin with system:node:';
  return undefined;
}

/** ValidateKubeletClientCSR: undefined when the request is one. */
export function kubeletClientError(req: CertificateRequest, usages: ReadonlySet<string>): string | undefined {
  if (!nodesOnly(req)) return 'subject organization is not system:nodes';
  if (req.dnsNames.length > 0) return 'DNS subjectAltNames are not allowed';
  if (req.emailAddresses.length > 0) return 'Email subjectAltNames are not allowed';
  if (req.ipAddresses.length > 0) return 'IP subjectAltNames are not allowed';
  if (req.uris.length > 0) return 'URI subjectAltNames are not allowed';
  if (!nodeName(req)) return 'subject common name does not begin with system:node:';
  if (!sameSet(usages, clientUsages) && !sameSet(usages, clientUsagesNoRSA))
    return `usages did not match [${clientUsages.join(' ')}]`;
  return undefined;
}

/** validAPIServerClientUsages: client auth required, digital signature and key encipherment allowed. */
function apiServerClientError(usages: readonly string[]): string | undefined {
  let clientAuth = false;
  for (const u of usages) {
    if (u === 'client auth') clientAuth = true;
    else if (u !== 'digital signature' && u !== 'key encipherment')
      return `invalid usage for client certificate: ${u}`;
  }
  return clientAuth ? undefined : 'missing required usage for client certificate: client auth';
}

/** Why the signer refuses the request, or undefined when it signs it (legacy-unknown signs anything). */
export function signerValidationError(
  signerName: BuiltinSignerName,
  req: CertificateRequest,
  usages: readonly string[],
): string | undefined {
  const set = new Set(usages);
  switch (signerName) {
    case kubeletServingSignerName:
      return kubeletServingError(req, set);
    case kubeletClientSignerName:
      return kubeletClientError(req, set);
    case kubeAPIServerClientSignerName:
      return apiServerClientError(usages);
    case legacyUnknownSignerName:
      return undefined;
  }
}
