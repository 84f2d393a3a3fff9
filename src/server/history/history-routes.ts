// GET /capstan/v1/history/<api/v1|apis/GROUP/VERSION>/[namespaces/NS/]RESOURCE/NAME: every stored
// revision of one object that compaction has left, oldest first (history-wire.ts). A Capstan-owned
// path with errors as Status; the authorization filter has authorized it as a get of that object
// (history-path.ts), so whoever may get the object may read its past.
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import { isHistoryReader, isScoper, type Storage } from '../../registry/rest/capabilities.js';
import type { RequestContext } from '../../registry/rest/context.js';
import type { DynamicRoutes } from '../../endpoints/api-handler.js';
import { groupVersionKey } from '../../endpoints/route-table.js';
import {
  isStatusError,
  newInternalError,
  newMethodNotSupported,
  statusError,
  type StatusError,
} from '../../machinery/errors/index.js';
import type { FilterScope, Handler } from '../filters/filter-scope.js';
import { writeJson, writeStatus } from '../http/respond.js';
import { historyPrefix, parseHistoryPath } from './history-path.js';
import { historyJson } from './history-wire.js';

/** The storage serving a group/version/resource: built-in groups first, then custom resources. */
export type StorageResolver = (t: {
  group: string;
  version: string;
  resource: string;
}) => Storage | undefined;

export function storageResolver(api: {
  readonly groups: readonly APIGroupInfo[];
  readonly dynamicRoutes?: DynamicRoutes;
}): StorageResolver {
  return ({ group, version, resource }) => {
    for (const g of api.groups) {
      if (g.group !== group) continue;
      const s = g.versionedResourcesStorageMap[version]?.[resource];
      if (s !== undefined) return s;
    }
    const gv = api.dynamicRoutes?.table.groupVersions.get(groupVersionKey(group, version));
    return gv?.resources.get(resource)?.scope.storage;
  };
}

const notFound = (pathname: string): StatusError =>
  statusError({ reason: 'NotFound', message: `the history API has no ${pathname}`, details: {} });

function contextOf(scope: FilterScope, namespace: string): RequestContext {
  return {
    signal: scope.signal,
    namespace,
    user: scope.user ?? { name: '', groups: [] },
    addWarning: () => undefined,
  };
}

const scopeMatches = (storage: Storage, namespace: string): boolean =>
  (isScoper(storage) ? storage.namespaceScoped() : true) === (namespace !== '');

async function serve(resolve: StorageResolver, scope: FilterScope): Promise<unknown> {
  const { url } = scope;
  const method = scope.req.method ?? 'GET';
  if (method !== 'GET')
    throw statusError({
      reason: 'MethodNotAllowed',
      message: `${method} is not supported on ${url.pathname}`,
      details: {},
    });
  const target = parseHistoryPath(url.pathname);
  if (target === undefined) throw notFound(url.pathname);
  const storage = resolve(target);
  // Only the paths the API itself has: a cluster-scoped object named under a namespace would be
  // authorized by a namespace's Role while its key ignores the namespace.
  if (storage === undefined || !scopeMatches(storage, target.namespace)) throw notFound(url.pathname);
  if (!isHistoryReader(storage))
    throw newMethodNotSupported({ group: target.group, resource: target.resource }, 'history');
  return historyJson(await storage.history(contextOf(scope, target.namespace), target.name));
}

/** The history path's handler. */
export function historyRoutes(resolve: StorageResolver): Handler {
  return async (scope) => {
    try {
      writeJson(scope.res, 200, await serve(resolve, scope));
    } catch (err) {
      writeStatus(scope.res, (isStatusError(err) ? err : newInternalError(err)).status);
    }
  };
}

/** Capstan's own paths: history here, the rest to the test API when it is served. */
export function capstanRoutes(parts: { history: Handler; testAPI: Handler | undefined }): Handler {
  return (scope) => {
    if (scope.url.pathname.startsWith(historyPrefix)) return parts.history(scope);
    if (parts.testAPI !== undefined) return parts.testAPI(scope);
    // Without the test API its paths are not found, as if nothing were served under the prefix.
    writeStatus(
      scope.res,
      statusError({
        reason: 'NotFound',
        message: 'the server could not find the requested resource',
        details: {},
      }).status,
    );
    return Promise.resolve();
  };
}
