// CertificateApproval (plugin/pkg/admission/certificates/approval), on by default: an update of a
// CertificateSigningRequest's `approval` subresource needs `approve` on the signer of the stored
// request (the old object's, so that a request cannot change its signer on the way).
import type { CertificateSigningRequest } from '../../../api/certificates/v1/certificate-signing-request.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import type { AdmissionResult } from '../../interfaces.js';
import { isCsrSubresource, requireSignerVerb, SignerUpdateCheck } from './signer-authorization.js';

export const certificateApprovalPluginName = 'CertificateApproval';

export class CertificateApproval extends SignerUpdateCheck {
  validate(_ctx: RequestContext, a: Attributes): AdmissionResult {
    if (!isCsrSubresource(a, 'approval')) return undefined;
    const old = a.oldObject as CertificateSigningRequest | null;
    if (old === null) return undefined;
    const signerName = old.spec?.signerName ?? '';
    return requireSignerVerb(this.authorizer, a, { verb: 'approve', signerName });
  }
}
