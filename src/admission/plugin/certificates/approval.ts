// CertificateApproval (plugin/pkg/admission/certificates/approval), on by default: an update of a
// CertificateSigningRequest's `approval` subresource needs `approve` on the signer of the stored
// request (the old object's, so that a request cannot change its signer on the way).
import type { CertificateSigningRequest } from '../../../api/certificates/v1/certificate-signing-request.js';
import type { Authorizer } from '../../../registry/rest/authorizer.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { handlesOnly, type AdmissionResult, type ValidationInterface } from '../../interfaces.js';
import { requireSignerVerb } from './signer-authorization.js';

export const certificateApprovalPluginName = 'CertificateApproval';

/** The CertificateSigningRequest subresource `subresource` of certificates.k8s.io, nothing else. */
export const isCsrSubresource = (a: Attributes, subresource: string): boolean =>
  a.resource.group === 'certificates.k8s.io' &&
  a.resource.resource === 'certificatesigningrequests' &&
  a.subresource === subresource;

export class CertificateApproval implements ValidationInterface {
  readonly handles = handlesOnly('UPDATE');
  readonly resources: ReadonlySet<string> = new Set(['certificatesigningrequests.certificates.k8s.io']);
  readonly #authorizer: Authorizer;

  constructor(authorizer: Authorizer) {
    this.#authorizer = authorizer;
  }

  validate(_ctx: RequestContext, a: Attributes): AdmissionResult {
    if (!isCsrSubresource(a, 'approval')) return undefined;
    const old = a.oldObject as CertificateSigningRequest | null;
    if (old === null) return undefined;
    const signerName = old.spec?.signerName ?? '';
    return requireSignerVerb(this.#authorizer, a, { verb: 'approve', signerName });
  }
}
