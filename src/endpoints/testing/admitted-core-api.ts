// The real configmap, secret and namespace storages on an in-memory SQLite store, served through
// the endpoints' API handler whose handlers run NamespaceLifecycle admission, driven without sockets;
// and the same storages admitted as the built-in controllers see them.
import { inject, type InjectOptions, type Response } from 'light-my-request';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { createAPIHandler, type APIHandler } from '../api-handler.js';
import { newConfigMapREST } from '../../registry/core/configmap/storage.js';
import { newNamespaceREST, type NamespaceStorage } from '../../registry/core/namespace/storage.js';
import { newSecretREST } from '../../registry/core/secret/storage.js';
import { memoryRESTOptions } from '../../registry/generic/testing/memory-rest-options.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import type { Storage } from '../../registry/rest/capabilities.js';
import type { UserInfo } from '../../registry/rest/context.js';
import { admittedGroups } from '../../admission/admitted-storage.js';
import { AdmissionChain } from '../../admission/chain.js';
import {
  NamespaceLifecycle,
  namespaceLifecyclePluginName,
} from '../../admission/plugin/namespace/lifecycle.js';

export interface AdmittedCoreAPI {
  /** The storages as the registry built them, without admission. */
  readonly raw: APIGroupInfo;
  /** The same storages admitted as the built-in controllers write through them. */
  readonly admitted: APIGroupInfo;
  readonly namespaces: NamespaceStorage;
  readonly chain: AdmissionChain;
  request(opts: InjectOptions): Promise<Response>;
  close(): Promise<void>;
}

export const admissionTestUser: UserInfo = { name: 'tester', groups: ['system:authenticated'] };

export async function admittedCoreAPI(): Promise<AdmittedCoreAPI> {
  const rest = await memoryRESTOptions();
  const opts = { restOptionsGetter: rest.getter };
  const namespaces = await newNamespaceREST(opts);
  const storages: Record<string, Storage> = {
    configmaps: await newConfigMapREST(opts),
    secrets: await newSecretREST(opts),
    namespaces: namespaces.namespaces,
    'namespaces/status': namespaces.status,
    'namespaces/finalize': namespaces.finalize,
  };
  const raw: APIGroupInfo = {
    group: '',
    prioritizedVersions: ['v1'],
    versionedResourcesStorageMap: { v1: storages },
  };
  const chain = new AdmissionChain([
    {
      name: namespaceLifecyclePluginName,
      plugin: new NamespaceLifecycle({ namespaces: namespaces.namespaces }),
    },
  ]);
  const [admitted] = admittedGroups([raw], chain);
  if (admitted === undefined) throw new Error('no admitted group');
  const handler = createAPIHandler({
    groups: [raw],
    admission: chain,
    scheme: builtinScheme(),
    minRequestTimeoutSeconds: 2,
  });
  const dispatch = (
    req: Parameters<APIHandler['handle']>[0],
    res: Parameters<APIHandler['handle']>[1],
  ): void => {
    void handler.handle(req, res, { user: admissionTestUser }).then((served) => {
      if (!served) {
        res.statusCode = 404;
        res.end('404 page not found\n');
      }
    });
  };
  return {
    raw,
    admitted,
    namespaces,
    chain,
    request: (o) => inject(dispatch, o),
    async close() {
      chain.close();
      await rest.close();
    },
  };
}
