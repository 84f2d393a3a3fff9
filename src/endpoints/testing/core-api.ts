// An API handler over the real configmap, secret and namespace storages on an in-memory SQLite
// store, driven with light-my-request (no sockets), for the endpoints' HTTP-level tests.
import { inject, type InjectOptions, type Response } from 'light-my-request';
import { builtinScheme } from '../../api/builtin-scheme.js';
import type { KubeList } from '../../api/meta.js';
import { newConfigMapREST } from '../../registry/core/configmap/storage.js';
import { newNamespaceREST } from '../../registry/core/namespace/storage.js';
import { newSecretREST } from '../../registry/core/secret/storage.js';
import { memoryRESTOptions } from '../../registry/generic/testing/memory-rest-options.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import type { Lister, Storage } from '../../registry/rest/capabilities.js';
import { internalContext, type UserInfo } from '../../registry/rest/context.js';
import { createAPIHandler, type APIHandler, type APIHandlerOptions } from '../api-handler.js';

export interface CoreAPI {
  readonly handler: APIHandler;
  readonly group: APIGroupInfo;
  request(opts: InjectOptions): Promise<Response>;
  /** The current revision of the store and what it holds, to tell whether a request wrote anything. */
  snapshot(): Promise<string>;
  close(): Promise<void>;
}

export const testUser: UserInfo = { name: 'tester', groups: ['system:authenticated'] };

export async function coreAPI(extra: Partial<APIHandlerOptions> = {}): Promise<CoreAPI> {
  const rest = await memoryRESTOptions();
  const opts = { restOptionsGetter: rest.getter };
  const configmaps = await newConfigMapREST(opts);
  const secrets = await newSecretREST(opts);
  const ns = await newNamespaceREST(opts);
  const storages: Record<string, Storage> = {
    configmaps,
    secrets,
    namespaces: ns.namespaces,
    'namespaces/status': ns.status,
    'namespaces/finalize': ns.finalize,
  };
  const group: APIGroupInfo = {
    group: '',
    prioritizedVersions: ['v1'],
    versionedResourcesStorageMap: { v1: storages },
  };
  const handler = createAPIHandler({
    groups: [group],
    scheme: builtinScheme(),
    minRequestTimeoutSeconds: 2,
    ...extra,
  });
  const dispatch = (
    req: Parameters<APIHandler['handle']>[0],
    res: Parameters<APIHandler['handle']>[1],
  ): void => {
    void handler.handle(req, res, { user: testUser }).then((served) => {
      if (!served) {
        res.statusCode = 404;
        res.end('404 page not found\n');
      }
    });
  };
  const listers: Lister[] = [configmaps, secrets, ns.namespaces];
  return {
    handler,
    group,
    request: (o) => inject(dispatch, o),
    async snapshot() {
      const ctx = internalContext();
      const lists: KubeList[] = [];
      for (const l of listers) lists.push(await l.list(ctx, {}));
      return JSON.stringify(lists);
    },
    async close() {
      await rest.close();
    },
  };
}
