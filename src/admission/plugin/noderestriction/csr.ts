// NodeRestriction for CertificateSigningRequests (admission.go admitCSR, with
// AllowInsecureKubeletCertificateSigningRequests off as in 1.33): a node's request to a kubelet
// signer must carry CN=system:node:<its own name>, so one kubelet cannot get another's certificate.
import type { CertificateSigningRequest } from '../../../api/certificates/v1/certificate-signing-request.js';
import {
  children,
  DerError,
  directoryString,
  oidText,
  readTlv,
  tags,
} from '../../../machinery/der/der-reader.js';
import { pemBlocks, wireBytes } from '../../../registry/certificates/certificatesigningrequest/pem.js';
import type { Attributes } from '../../attributes.js';
import { newAdmissionForbidden } from '../../errors.js';

const kubeletSigners: ReadonlySet<string> = new Set([
  'kubernetes.io/kubelet-serving',
  'kubernetes.io/kube-apiserver-client-kubelet',
]);
const malformed = 'x509: malformed certificate request';
const commonNameOid = '2.5.4.3';

/** The subject's common name (the last CN, as Go's pkix.Name keeps it), or the parse failure. */
export function certificateRequestCommonName(
  request: string | undefined,
): string | { readonly error: string } {
  const block = pemBlocks(wireBytes(request).toString('latin1'))[0];
  if (block?.type !== 'CERTIFICATE REQUEST') return { error: 'PEM block type must be CERTIFICATE REQUEST' };
  const der = block.bytes;
  try {
    const top = readTlv(der, 0, { limit: der.length, malformed });
    const [info] = children(der, top, malformed);
    if (info?.tag !== tags.SEQUENCE) throw new DerError(malformed);
    const [, subject] = children(der, info, malformed);
    if (subject?.tag !== tags.SEQUENCE) throw new DerError(malformed);
    let cn = '';
    for (const rdn of children(der, subject, malformed)) {
      for (const atv of children(der, rdn, malformed)) {
        const [oid, value] = children(der, atv, malformed);
        if (oid?.tag !== tags.OID || value === undefined) throw new DerError(malformed);
        if (oidText(der.subarray(oid.start, oid.end)) === commonNameOid) cn = directoryString(der, value);
      }
    }
    return cn;
  } catch (err) {
    if (err instanceof DerError) return { error: err.message };
    throw err;
  }
}

export function admitCSR(a: Attributes, nodeName: string): void {
  if (a.operation !== 'CREATE') return;
  const csr = a.object as CertificateSigningRequest;
  if (!kubeletSigners.has(csr.spec?.signerName ?? '')) return;
  const cn = certificateRequestCommonName(csr.spec?.request);
  if (typeof cn !== 'string') throw newAdmissionForbidden(a, `unable to parse csr: ${cn.error}`);
  if (cn !== `system:node:${nodeName}`)
    throw newAdmissionForbidden(a, `can only create a node CSR with CN=system:node:${nodeName}`);
}
