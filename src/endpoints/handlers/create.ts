// POST of a new object (handlers/create.go createHandler): always 201, dry runs too. Admission as
// kube's handler runs it: mutating here, validating inside the Store's create.
import {
  admitMutation,
  createValidation,
  type AdmissionCall,
  type RouteAdmission,
} from '../../admission/route-admission.js';
import { isCreater, isNamedCreater, type ValidateObjectFunc } from '../../registry/rest/capabilities.js';
import type { RequestContext } from '../../registry/rest/context.js';
import {
  ensureObjectNamespaceMatchesRequestNamespace,
  expectedNamespaceForResource,
} from '../../registry/rest/meta.js';
import { header } from '../http-types.js';
import { negotiateInputSerializer, negotiateOutputMediaType } from '../negotiation/negotiate.js';
import { readBody } from '../request/read-body.js';
import { decodeWriteOptions } from '../request/write-options.js';
import { fieldManagerFor, requestManager } from '../fieldmanager/request-field-manager.js';
import { decodeBody } from './decode-body.js';
import { metaOf, wipeObjectMetaSystemFields } from './object-meta.js';
import { requestContext, requestNamespace, type Handler } from './request-scope.js';
import { writeResult } from './transform.js';

/**
 * Mutating admission now, on the object about to be created (a promise only when a plugin had to
 * wait); validating admission as the Store's validation hook (none when no plugin of the route
 * validates creates).
 */
function admitCreate(
  admission: RouteAdmission | undefined,
  ctx: RequestContext,
  call: AdmissionCall,
): { validate?: ValidateObjectFunc } | Promise<{ validate?: ValidateObjectFunc }> {
  if (admission === undefined) return {};
  const hooks = (): { validate?: ValidateObjectFunc } => {
    const validate = createValidation(admission, call);
    return validate === undefined ? {} : { validate };
  };
  const admitted = admitMutation(admission, ctx, call);
  return admitted === undefined ? hooks() : admitted.then(hooks);
}

export const createResource: Handler = async (scope, hr) => {
  const storage = scope.storage;
  if (!isCreater(storage) && !isNamedCreater(storage)) throw new Error('route installed without a creater');
  const { ex, info } = hr;
  let namespace = requestNamespace(scope, info);
  const media = negotiateOutputMediaType(header(ex.req, 'accept'), scope.restrictions);
  const serializer = negotiateInputSerializer(header(ex.req, 'content-type'));
  const body = await readBody(ex.req, scope.config.maxRequestBodyBytes);
  const { options, fieldValidation } = decodeWriteOptions(ex.url.searchParams, 'CreateOptions');
  let obj = decodeBody(scope, hr, { body, serializer, fieldValidation });
  const meta = metaOf(obj);
  const name = info.name !== '' ? info.name : (meta.name ?? '');
  // A namespace is created in the context of itself (kube's namespaceGVR special case).
  if (namespace === '' && scope.resource.group === '' && scope.resource.resource === 'namespaces')
    namespace = name;
  wipeObjectMetaSystemFields(meta);
  ensureObjectNamespaceMatchesRequestNamespace(expectedNamespaceForResource(namespace, scope.resource), meta);
  const ctx = requestContext(hr, namespace);
  const fieldManager = fieldManagerFor(scope);
  if (fieldManager !== undefined)
    obj = fieldManager.createNoErrors(obj, requestManager(hr, options), body.length);
  // A named creater (pods/binding, serviceaccounts/token) takes the name from the URL.
  const named = isNamedCreater(storage);
  const admitted = admitCreate(scope.admission, ctx, {
    operation: 'CREATE',
    name: named ? name : (obj.metadata?.name ?? ''),
    object: obj,
    oldObject: null,
    options,
  });
  const validate = admitted instanceof Promise ? await admitted : admitted;
  const result = named
    ? await storage.createNamed(ctx, name, { obj, options, ...validate })
    : await storage.create(ctx, obj, { options, ...validate });
  if (result.kind === 'Status' && (result['code'] === undefined || result['code'] === 0))
    result['code'] = 201;
  writeResult(scope, hr, { code: 201, media, ctx, result });
};
