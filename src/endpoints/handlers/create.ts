// POST of a new object (handlers/create.go createHandler): always 201, dry runs too.
import { isCreater, isNamedCreater } from '../../registry/rest/capabilities.js';
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
    obj = fieldManager.updateNoErrors(storage.newObject(), obj, requestManager(hr, options));
  // A named creater (pods/binding, serviceaccounts/token) takes the name from the URL.
  const result = isNamedCreater(storage)
    ? await storage.createNamed(ctx, name, { obj, options })
    : await storage.create(ctx, obj, { options });
  if (result.kind === 'Status' && (result['code'] === undefined || result['code'] === 0))
    result['code'] = 201;
  writeResult(scope, hr, { code: 201, media, ctx, result });
};
