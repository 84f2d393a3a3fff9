// CertificateSubjectRestriction (plugin/pkg/admission/certificates/subjectrestriction), on by
// default: a new CertificateSigningRequest for the kube-apiserver-client signer may not ask for the
// system:masters organization, which would make its holder a cluster admin past RBAC.
import type { CertificateSigningRequest } from '../../../api/certificates/v1/certificate-signing-request.js';
import { certificateRequestOrganizations } from '../../../registry/certificates/certificatesigningrequest/request.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { newAdmissionForbidden } from '../../errors.js';
import { handlesOnly, type AdmissionResult, type ValidationInterface } from '../../interfaces.js';
import { isCsrSubresource } from './signer-authorization.js';

export const certificateSubjectRestrictionPluginName = 'CertificateSubjectRestriction';
const kubeAPIServerClientSigner = 'kubernetes.io/kube-apiserver-client';

export class CertificateSubjectRestriction implements ValidationInterface {
  readonly handles = handlesOnly('CREATE');
  readonly resources: ReadonlySet<string> = new Set(['certificatesigningrequests.certificates.k8s.io']);

  validate(_ctx: RequestContext, a: Attributes): AdmissionResult {
    if (!isCsrSubresource(a, '') || a.object === null) return undefined;
    const csr = a.object as CertificateSigningRequest;
    if (csr.spec?.signerName !== kubeAPIServerClientSigner) return undefined;
    const orgs = certificateRequestOrganizations(csr.spec.request);
    if (!Array.isArray(orgs))
      return Promise.reject(newAdmissionForbidden(a, `failed to parse CSR: ${orgs.error}`));
    if (!orgs.includes('system:masters')) return undefined;
    return Promise.reject(
      newAdmissionForbidden(
        a,
        `use of ${kubeAPIServerClientSigner} signer with system:masters group is not allowed`,
      ),
    );
  }
}
