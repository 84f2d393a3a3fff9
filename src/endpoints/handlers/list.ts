// LIST and WATCH of a collection (handlers/get.go ListResource): a named watch route or a
// `metadata.name` field selector narrows it to one object.
import { newBadRequest, newMethodNotSupported } from '../../machinery/errors/index.js';
import { asUnstructuredList } from '../../machinery/json/unstructured-list.js';
import { objectWithoutTypeMeta } from '../../machinery/json/without-type-meta.js';
import { isEncodedLister, isLister, isWatcher } from '../../registry/rest/capabilities.js';
import { header } from '../http-types.js';
import { negotiateOutputMediaType } from '../negotiation/negotiate.js';
import { decodeListOptions, nameFieldSelector } from '../request/list-options.js';
import { servesEncoded, writeEncodedList } from '../responsewriters/write-encoded.js';
import {
  qualifiedResource,
  requestContext,
  requestNamespace,
  type HandlerRequest,
  type RequestScope,
} from './request-scope.js';
import { writeResult } from './transform.js';
import { serveWatch } from './watch.js';

async function listOrWatch(scope: RequestScope, hr: HandlerRequest, forceWatch: boolean): Promise<void> {
  const ctx = requestContext(hr, requestNamespace(scope, hr.info));
  const media = negotiateOutputMediaType(header(hr.ex.req, 'accept'), scope.restrictions);
  const decoded = decodeListOptions(hr.ex.url.searchParams, forceWatch);
  const options = decoded.options;
  const name = hr.info.name;
  if (name !== '') {
    const selector = decoded.fieldSelector;
    if (!selector.empty()) {
      if (selector.requiresExactMatch('metadata.name') !== name) {
        throw newBadRequest("fieldSelector metadata.name doesn't match requested name");
      }
    } else {
      options.fieldSelector = nameFieldSelector(name).toString();
    }
  }
  const storage = scope.storage;
  if (decoded.watch) {
    if (!isWatcher(storage)) throw newMethodNotSupported(qualifiedResource(scope), 'watch');
    await serveWatch(scope, hr, { ctx, media, options, storage });
    return;
  }
  if (!isLister(storage)) throw new Error('route installed without a lister');
  if (isEncodedLister(storage) && servesEncoded(hr.ex, media)) {
    // Custom resources (typed items) are listed as kube's UnstructuredList, a map.
    const unstructured = scope.config.listItemsTyped === true;
    await writeEncodedList(hr.ex, 200, {
      ...(await storage.listEncoded(ctx, options)),
      omitItemTypeMeta: !unstructured,
      unstructured,
    });
    return;
  }
  const list = await storage.list(ctx, options);
  // Converted answers (Table, PartialObjectMetadataList) build their own items.
  const result =
    media.convert !== null
      ? list
      : scope.config.listItemsTyped === true
        ? asUnstructuredList(list)
        : { ...list, items: list.items.map(objectWithoutTypeMeta) };
  writeResult(scope, hr, { code: 200, media, ctx, result });
}

export const listResource = (scope: RequestScope, hr: HandlerRequest): Promise<void> =>
  listOrWatch(scope, hr, false);

/** The deprecated `/watch/` paths, which watch whatever `?watch` says. */
export const watchResource = (scope: RequestScope, hr: HandlerRequest): Promise<void> =>
  listOrWatch(scope, hr, true);
