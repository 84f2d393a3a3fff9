// plugin/pkg/admission/certificates/util.go IsAuthorizedForSignerName: may the user `verb` (approve,
// sign) the synthetic `signers` resource of certificates.k8s.io named by the signer, or by its
// domain's wildcard (`example.com/*` for `example.com/issuer`)? An authorizer error counts as a no.
import type { Authorizer } from '../../../registry/rest/authorizer.js';
import type { UserInfo } from '../../../registry/rest/context.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { newAdmissionForbidden } from '../../errors.js';
import { handlesOnly, type AdmissionResult, type ValidationInterface } from '../../interfaces.js';

interface SignerRequest {
  readonly verb: string;
  readonly signerName: string;
}

async function allowed(authorizer: Authorizer, user: UserInfo, request: SignerRequest): Promise<boolean> {
  const { verb, signerName: name } = request;
  try {
    const { decision } = await authorizer.authorize({
      user,
      verb,
      name,
      apiGroup: 'certificates.k8s.io',
      apiVersion: '*',
      resource: 'signers',
      resourceRequest: true,
    });
    return decision === 'Allow';
  } catch {
    return false;
  }
}

export async function isAuthorizedForSignerName(
  authorizer: Authorizer,
  user: UserInfo,
  request: SignerRequest,
): Promise<boolean> {
  if (await allowed(authorizer, user, request)) return true;
  const domain = request.signerName.split('/')[0] ?? '';
  return allowed(authorizer, user, { verb: request.verb, signerName: `${domain}/*` });
}

/** Resolves when the request's user may `verb` the signer; else rejects with kube's Forbidden. */
export async function requireSignerVerb(
  authorizer: Authorizer,
  a: Attributes,
  request: SignerRequest,
): Promise<void> {
  if (await isAuthorizedForSignerName(authorizer, a.userInfo, request)) return;
  const { verb, signerName } = request;
  throw newAdmissionForbidden(
    a,
    `user not permitted to ${verb} requests with signerName ${JSON.stringify(signerName)}`,
  );
}

/** The CertificateSigningRequest subresource `subresource` of certificates.k8s.io, nothing else. */
export const isCsrSubresource = (a: Attributes, subresource: string): boolean =>
  a.resource.group === 'certificates.k8s.io' &&
  a.resource.resource === 'certificatesigningrequests' &&
  a.subresource === subresource;

/** What CertificateApproval and CertificateSigning share: CSR updates judged by the authorizer. */
export abstract class SignerUpdateCheck implements ValidationInterface {
  readonly handles = handlesOnly('UPDATE');
  readonly resources: ReadonlySet<string> = new Set(['certificatesigningrequests.certificates.k8s.io']);
  protected readonly authorizer: Authorizer;

  constructor(authorizer: Authorizer) {
    this.authorizer = authorizer;
  }

  abstract validate(ctx: RequestContext, a: Attributes): AdmissionResult;
}
