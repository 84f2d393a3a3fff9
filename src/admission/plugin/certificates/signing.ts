// CertificateSigning (plugin/pkg/admission/certificates/signing), on by default: an update of a
// CertificateSigningRequest's `status` that changes the issued certificate or the conditions needs
// `sign` on the stored request's signer.
import type { CertificateSigningRequest } from '../../../api/certificates/v1/certificate-signing-request.js';
import { jsonEqual } from '../../../machinery/patch/json.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import type { AdmissionResult } from '../../interfaces.js';
import { isCsrSubresource, requireSignerVerb, SignerUpdateCheck } from './signer-authorization.js';

export const certificateSigningPluginName = 'CertificateSigning';

export class CertificateSigning extends SignerUpdateCheck {
  validate(_ctx: RequestContext, a: Attributes): AdmissionResult {
    if (!isCsrSubresource(a, 'status')) return undefined;
    const old = a.oldObject as CertificateSigningRequest | null;
    const csr = a.object as CertificateSigningRequest | null;
    if (old === null || csr === null) return undefined;
    if (
      (old.status?.certificate ?? '') === (csr.status?.certificate ?? '') &&
      jsonEqual(old.status?.conditions ?? [], csr.status?.conditions ?? [])
    )
      return undefined;
    const signerName = old.spec?.signerName ?? '';
    return requireSignerVerb(this.authorizer, a, { verb: 'sign', signerName });
  }
}
