// The states of a CertificateSigningRequest its controllers act on
// (pkg/controller/certificates/certificate_controller_utils.go).
import type { CertificateSigningRequest } from '../../../api/certificates/v1/certificate-signing-request.js';

/** GetCertApprovalCondition: whether an Approved and a Denied condition are present, whatever their status. */
export function approvalOf(csr: CertificateSigningRequest): { approved: boolean; denied: boolean } {
  const conditions = csr.status?.conditions ?? [];
  return {
    approved: conditions.some((c) => c.type === 'Approved'),
    denied: conditions.some((c) => c.type === 'Denied'),
  };
}

/** IsCertificateRequestApproved: approved and not denied. */
export function isApproved(csr: CertificateSigningRequest): boolean {
  const { approved, denied } = approvalOf(csr);
  return approved && !denied;
}

/** HasTrueCondition: a condition of the type whose status is True or empty. */
export const hasTrueCondition = (csr: CertificateSigningRequest, type: string): boolean =>
  (csr.status?.conditions ?? []).some((c) => c.type === type && (c.status === '' || c.status === 'True'));

/** Whether a certificate has been issued. */
export const isIssued = (csr: CertificateSigningRequest): boolean => (csr.status?.certificate ?? '') !== '';
