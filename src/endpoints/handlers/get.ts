// GET of one object (handlers/get.go GetResource).
import { newBadRequest } from '../../machinery/errors/index.js';
import { isEncodedGetter, isGetter } from '../../registry/rest/capabilities.js';
import type { GetOptions } from '../../registry/rest/options.js';
import { header } from '../http-types.js';
import { negotiateOutputMediaType } from '../negotiation/negotiate.js';
import { goBool } from '../request/query-params.js';
import { servesEncoded, writeEncodedObject } from '../responsewriters/write-encoded.js';
import { requestContext, requestNamespace, type Handler } from './request-scope.js';
import { writeResult } from './transform.js';

function getOptions(query: URLSearchParams): GetOptions {
  const exported = query.get('export');
  if (exported !== null && goBool(exported)) {
    throw newBadRequest('the export parameter, deprecated since v1.14, is no longer supported');
  }
  const rv = query.get('resourceVersion');
  return rv === null || rv === '' ? {} : { resourceVersion: rv };
}

export const getResource: Handler = async (scope, hr) => {
  const storage = scope.storage;
  if (!isGetter(storage)) throw new Error('route installed without a getter');
  const ctx = requestContext(hr, requestNamespace(scope, hr.info));
  const media = negotiateOutputMediaType(header(hr.ex.req, 'accept'), scope.restrictions);
  const options = getOptions(hr.ex.url.searchParams);
  if (isEncodedGetter(storage) && servesEncoded(hr.ex, media)) {
    writeEncodedObject(hr.ex, 200, await storage.getEncoded(ctx, hr.info.name, options));
    return;
  }
  const result = await storage.get(ctx, hr.info.name, options);
  writeResult(scope, hr, { code: 200, media, ctx, result });
};
