// DELETE of a collection (handlers/delete.go DeleteCollection): list options from the query,
// delete options from the body (or the query when the body is empty); 200 with the deleted list.
import { isCollectionDeleter } from '../../registry/rest/capabilities.js';
import { header } from '../http-types.js';
import { negotiateOutputMediaType } from '../negotiation/negotiate.js';
import { decodeDeleteOptions } from '../request/delete-options.js';
import { decodeListOptions } from '../request/list-options.js';
import { readBody } from '../request/read-body.js';
import { admittedDelete } from './delete.js';
import { requestContext, requestNamespace, type Handler } from './request-scope.js';
import { writeResult } from './transform.js';

export const deleteCollection: Handler = async (scope, hr) => {
  const storage = scope.storage;
  if (!isCollectionDeleter(storage)) throw new Error('route installed without a collection deleter');
  const { ex, info } = hr;
  const ctx = requestContext(hr, requestNamespace(scope, info));
  const media = negotiateOutputMediaType(header(ex.req, 'accept'), scope.restrictions);
  const { options: listOptions } = decodeListOptions(ex.url.searchParams);
  const body = await readBody(ex.req, scope.config.maxRequestBodyBytes);
  const options = decodeDeleteOptions(body, {
    contentType: header(ex.req, 'content-type'),
    query: ex.url.searchParams,
    protobuf: scope.config.protobuf,
  });
  // kube's LogRequestObject of the options a body carried, as a single delete logs them.
  if (body.length > 0) {
    const apiVersion = info.apiGroup === '' ? info.apiVersion : `${info.apiGroup}/${info.apiVersion}`;
    hr.audit?.logRequestObject?.({ kind: 'DeleteOptions', apiVersion, ...options });
  }
  // Each item is admitted as it is deleted, under the collection's name: ''.
  const result = await storage.deleteCollection(ctx, {
    options,
    listOptions,
    ...admittedDelete(scope.admission, { name: '', options }),
  });
  writeResult(scope, hr, { code: 200, media, ctx, result });
};
