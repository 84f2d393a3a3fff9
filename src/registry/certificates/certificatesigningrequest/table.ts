// `kubectl get certificatesigningrequests` columns: NAME AGE SIGNERNAME REQUESTOR REQUESTEDDURATION
// CONDITION (printCertificateSigningRequest and extractCSRStatus in
// pkg/printers/internalversion/printers.go).
import type { CertificateSigningRequest } from '../../../api/certificates/v1/certificate-signing-request.js';
import { humanDuration, translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

const column = (name: string, description: string) =>
  ({ name, type: 'string', format: '', description, priority: 0 }) as const;

/** Denied over Approved over Pending, then ",Failed" and ",Issued". */
export function csrCondition(csr: CertificateSigningRequest): string {
  const types = new Set((csr.status?.conditions ?? []).map((c) => c.type));
  let status = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) status += ',Failed';
  if ((csr.status?.certificate ?? '') !== '') status += ',Issued';
  return status;
}

export const csrTableConvertor: TableConvertor = tableConvertorFor<CertificateSigningRequest>({
  columns: [
    nameColumn,
    ageColumn,
    column('SignerName', 'signerName indicates the requested signer, and is a qualified name.'),
    column(
      'Requestor',
      'request contains an x509 certificate signing request encoded in a "CERTIFICATE REQUEST" PEM block.',
    ),
    column(
      'RequestedDuration',
      'expirationSeconds is the requested duration of validity of the issued certificate.',
    ),
    column(
      'Condition',
      'conditions applied to the request. Known conditions are "Approved", "Denied", and "Failed".',
    ),
  ],
  cells: (csr, now) => {
    const seconds = csr.spec?.expirationSeconds;
    return [
      csr.metadata?.name ?? '',
      translateTimestampSince(csr.metadata?.creationTimestamp, now),
      (csr.spec?.signerName ?? '') === '' ? '<none>' : (csr.spec?.signerName ?? ''),
      csr.spec?.username ?? '',
      seconds === undefined ? '<none>' : humanDuration(seconds * 1000),
      csrCondition(csr),
    ];
  },
});
