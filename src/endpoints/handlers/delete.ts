// DELETE of one object (handlers/delete.go DeleteResource): 200 with what storage returned, 202
// only when the object was merely marked for deletion and orphanDependents=false was asked.
import { deleteValidation, type RouteAdmission } from '../../admission/route-admission.js';
import type { VerbOptions } from '../../admission/attributes.js';
import { isGracefulDeleter, type ValidateObjectFunc } from '../../registry/rest/capabilities.js';
import { header } from '../http-types.js';
import { negotiateOutputMediaType } from '../negotiation/negotiate.js';
import { decodeDeleteOptions } from '../request/delete-options.js';
import { readBody } from '../request/read-body.js';
import { requestContext, requestNamespace, type Handler } from './request-scope.js';
import { writeResult } from './transform.js';

/**
 * kube admits a delete only inside the Store's delete (rest.AdmissionToValidateObjectDeleteFunc):
 * mutating then validating, with the stored object as oldObject.
 */
export function admittedDelete(
  admission: RouteAdmission | undefined,
  call: { name: string; options: VerbOptions },
): { validate?: ValidateObjectFunc } {
  const validate = admission === undefined ? undefined : deleteValidation(admission, call);
  return validate === undefined ? {} : { validate };
}

export const deleteResource: Handler = async (scope, hr) => {
  const storage = scope.storage;
  if (!isGracefulDeleter(storage)) throw new Error('route installed without a deleter');
  const { ex, info } = hr;
  const ctx = requestContext(hr, requestNamespace(scope, info));
  const media = negotiateOutputMediaType(header(ex.req, 'accept'), scope.restrictions);
  const body = await readBody(ex.req, scope.config.maxRequestBodyBytes);
  const options = decodeDeleteOptions(body, {
    contentType: header(ex.req, 'content-type'),
    query: ex.url.searchParams,
    protobuf: scope.config.protobuf,
  });
  // kube's LogRequestObject of the options a body carried, in the request's group version.
  if (body.length > 0) {
    const apiVersion = info.apiGroup === '' ? info.apiVersion : `${info.apiGroup}/${info.apiVersion}`;
    hr.audit?.logRequestObject?.({ kind: 'DeleteOptions', apiVersion, ...options });
  }
  const { object, deleted } = await storage.delete(ctx, info.name, {
    options,
    ...admittedDelete(scope.admission, { name: info.name, options }),
  });
  const code = !deleted && options.orphanDependents === false ? 202 : 200;
  writeResult(scope, hr, { code, media, ctx, result: object });
};
