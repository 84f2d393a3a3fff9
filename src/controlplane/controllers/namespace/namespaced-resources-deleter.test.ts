import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Namespace } from '../../../api/core/v1/namespace.js';
import type { KubeObject } from '../../../api/meta.js';
import { newConfigMapREST } from '../../../registry/core/configmap/storage.js';
import { memoryRESTOptions } from '../../../registry/generic/testing/memory-rest-options.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import { isCreater, type GracefulDeleter } from '../../../registry/rest/capabilities.js';
import { internalContext } from '../../../registry/rest/context.js';
import { admittedCoreAPI, type AdmittedCoreAPI } from '../../../endpoints/testing/admitted-core-api.js';
import { Logger, memorySink } from '../../../server/logging/logger.js';
import {
  deleteNamespace,
  ResourcesRemainingError,
  type NamespacedResourcesDeleter,
} from './namespaced-resources-deleter.js';
import { deletableResources, namespaceClient, type DeletableResource } from './served-resources.js';

describe('namespaced resources deleter', () => {
  let api: AdmittedCoreAPI;
  let deleter: NamespacedResourcesDeleter;
  let resources: readonly DeletableResource[] = [];
  const signal = new AbortController().signal;
  const ctx = internalContext();

  const configmaps = (): DeletableResource => {
    const found = resources.find((r) => r.resource.resource === 'configmaps');
    assert.ok(found);
    return found;
  };
  const seed = async (ns: string, names: readonly string[]): Promise<void> => {
    await api.namespaces.namespaces.create(
      ctx,
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
      { options: {} },
    );
    const storage = api.raw.versionedResourcesStorageMap['v1']?.['configmaps'];
    assert.ok(storage !== undefined && isCreater(storage));
    for (const name of names)
      await storage.create(
        internalContext({ namespace: ns }),
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } },
        { options: {} },
      );
    await api.namespaces.namespaces.delete(ctx, ns, { options: {} });
  };
  const get = (name: string): Promise<Namespace> => api.namespaces.namespaces.get(ctx, name, {});

  before(async () => {
    api = await admittedCoreAPI();
    const client = namespaceClient([api.raw]);
    assert.ok(client !== undefined);
    deleter = {
      client,
      resources: () => resources,
      finalizerToken: 'kubernetes',
      logger: new Logger({ sink: memorySink() }),
    };
  });
  after(() => api.close());

  it('finds the namespaced resources that can be listed and deleted, once per group', async () => {
    const env = await memoryRESTOptions();
    try {
      const older = await newConfigMapREST({ restOptionsGetter: env.getter });
      const groups: APIGroupInfo[] = [
        api.raw,
        {
          group: 'example.com',
          prioritizedVersions: ['v2', 'v1'],
          versionedResourcesStorageMap: {
            v1: { things: older, 'things/status': older },
            v2: { things: older },
          },
        },
      ];
      assert.deepEqual(
        deletableResources(groups).map(
          (r) =>
            `${r.resource.group}/${r.resource.version}/${r.resource.resource} ${r.collectionDeleter === undefined ? 'one-by-one' : 'collection'}`,
        ),
        ['/v1/configmaps collection', '/v1/secrets collection', 'example.com/v2/things collection'],
      );
    } finally {
      await env.close();
    }
  });

  it('deletes item by item where there is no deletecollection, then finalizes', async () => {
    resources = [
      {
        ...deletableResources([api.raw]).filter((r) => r.resource.resource === 'configmaps')[0]!,
        collectionDeleter: undefined,
      },
    ];
    await seed('one-by-one', ['a', 'b']);
    await deleteNamespace(deleter, signal, 'one-by-one');
    assert.equal(
      (await configmaps().lister.list(internalContext({ namespace: 'one-by-one' }), {})).items.length,
      0,
    );
    await assert.rejects(get('one-by-one'), /namespaces "one-by-one" not found/);
  });

  it('does nothing for namespaces that are not being deleted or are gone', async () => {
    resources = deletableResources([api.raw]);
    await api.namespaces.namespaces.create(
      ctx,
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'alive' } },
      { options: {} },
    );
    await deleteNamespace(deleter, signal, 'alive');
    assert.equal((await get('alive')).status?.phase, 'Active');
    await deleteNamespace(deleter, signal, 'never-was');
  });

  it('reports leftovers without finalizers as a content failure and keeps the namespace', async () => {
    const stubborn: GracefulDeleter = {
      delete: (_c, _n) => Promise.resolve({ object: {}, deleted: false }),
    };
    resources = [{ ...configmaps(), deleter: stubborn, collectionDeleter: undefined }];
    await seed('stuck', ['x']);
    const want = 'unexpected items still remain in namespace: stuck for gvr: /v1, Resource=configmaps';
    await assert.rejects(deleteNamespace(deleter, signal, 'stuck'), (err: Error) => err.message === want);
    const ns = await get('stuck');
    const failure = ns.status?.conditions?.find((c) => c.type === 'NamespaceDeletionContentFailure');
    assert.equal(failure?.status, 'True');
    assert.equal(failure.message, `Failed to delete all resource types, 1 remaining: ${want}`);
    assert.deepEqual(ns.spec?.finalizers, ['kubernetes']);
  });

  it('throws ResourcesRemainingError with kube estimate while finalizers hold objects', async () => {
    resources = deletableResources([api.raw]);
    await api.namespaces.namespaces.create(
      ctx,
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'pinned' } },
      { options: {} },
    );
    const storage = api.raw.versionedResourcesStorageMap['v1']?.['configmaps'];
    assert.ok(storage !== undefined && isCreater(storage));
    await storage.create(
      internalContext({ namespace: 'pinned' }),
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p', finalizers: ['example.com/x'] } },
      { options: {} },
    );
    await api.namespaces.namespaces.delete(ctx, 'pinned', { options: {} });
    await assert.rejects(
      deleteNamespace(deleter, signal, 'pinned'),
      (err: unknown) =>
        err instanceof ResourcesRemainingError &&
        err.estimate === 15 &&
        err.message === 'some content remains in the namespace, estimate 15 seconds before it is removed',
    );
  });

  it('waits out the grace period of running pods, as kube estimates it', async () => {
    const pod = (name: string, phase: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name },
      spec: { terminationGracePeriodSeconds: 30 },
      status: { phase },
    });
    let items: KubeObject[] = [pod('web', 'Running'), pod('done', 'Succeeded')];
    const pods: DeletableResource = {
      resource: { group: '', version: 'v1', resource: 'pods' },
      lister: {
        ...configmaps().lister,
        list: () => Promise.resolve({ apiVersion: 'v1', kind: 'PodList', metadata: {}, items }),
      },
      deleter: { delete: () => Promise.resolve({ object: {}, deleted: false }) },
      collectionDeleter: undefined,
    };
    resources = [pods];
    await seed('pods', []);
    await assert.rejects(
      deleteNamespace(deleter, signal, 'pods'),
      (err: unknown) => err instanceof ResourcesRemainingError && err.estimate === 30,
    );
    items = [pod('done', 'Succeeded')];
    await assert.rejects(
      deleteNamespace(deleter, signal, 'pods'),
      /unexpected items still remain in namespace: pods for gvr: \/v1, Resource=pods/,
    );
  });
});
