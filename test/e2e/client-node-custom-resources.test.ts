// The real @kubernetes/client-node used as an operator uses it (1/2): CRDs created with
// ApiextensionsV1Api and waited for until Established, then CustomObjectsApi on namespaced and
// cluster-scoped objects (merge patch and server-side apply included) and the status and scale
// subresources. The rest: client-node-custom-resource-informer.test.ts.
/* eslint-disable @typescript-eslint/no-misused-spread --
   client-node's models are generated data-only classes; its API is meant to take plain object literals. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiextensionsV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { eventually } from './support/client-node-helpers.js';
import {
  apply,
  database,
  databaseCRD,
  databases,
  failure,
  group,
  merge,
  names,
  ns,
  tenantCRD,
  tenants,
  version,
  type Database,
  type DatabaseList,
  type KubeStatus,
  type Scale,
  databaseCalls,
  startOperatorServer,
  type OperatorServer,
} from './support/custom-resource-fixtures.js';

describe('@kubernetes/client-node against capstan: custom resources', () => {
  let server: OperatorServer;
  let custom: CustomObjectsApi;
  let crds: ApiextensionsV1Api;
  const { get, list, create } = databaseCalls(() => custom);

  before(async () => {
    server = await startOperatorServer();
    ({ custom, crds } = server);
  });

  after(async () => {
    await server.capstan.stop();
  });

  it('creates CRDs with ApiextensionsV1Api and waits until they are Established and served', async () => {
    for (const body of [databaseCRD, tenantCRD]) {
      const created = await crds.createCustomResourceDefinition({ body });
      assert.equal(created.metadata?.name, body.metadata?.name);
      await eventually(
        async () => {
          const crd = await crds.readCustomResourceDefinition({ name: body.metadata?.name ?? '' });
          return (crd.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');
        },
        `${body.metadata?.name ?? ''} Established`,
      );
    }
    const crd = await crds.readCustomResourceDefinition({ name: `databases.${group}` });
    const conditions = (crd.status?.conditions ?? []).map((c) => `${c.type}=${c.status}`).sort();
    assert.deepEqual(conditions, ['Established=True', 'NamesAccepted=True']);
    assert.deepEqual(crd.status?.acceptedNames?.kind, 'Database');
    assert.deepEqual(crd.status.storedVersions, [version]);

    const resources = await custom.getAPIResources({ group, version });
    assert.equal(resources.groupVersion, `${group}/${version}`);
    assert.deepEqual(resources.resources.map((r) => [r.name, r.kind, r.namespaced]).sort(), [
      ['databases', 'Database', true],
      ['databases/scale', 'Scale', true],
      ['databases/status', 'Database', true],
      ['tenants', 'Tenant', false],
    ]);
  });

  it('creates, reads, lists, merge-patches, replaces and deletes a namespaced custom object', async () => {
    const body = { ...database('orders', { engine: 'postgres' }), extra: 'pruned' };
    const created = (await custom.createNamespacedCustomObject({
      ...databases,
      namespace: ns,
      body,
    })) as Database;
    assert.equal(created.kind, 'Database');
    assert.equal(created.apiVersion, `${group}/${version}`);
    assert.equal(created.metadata.namespace, ns);
    assert.equal(created.metadata.generation, 1);
    assert.match(created.metadata.uid ?? '', /^[0-9a-f-]{36}$/);
    assert.deepEqual(created.spec, { engine: 'postgres', replicas: 1 }, 'defaulted');
    assert.equal('extra' in created, false, 'unknown fields are pruned');

    const read = await get('orders');
    assert.deepEqual(read, created);
    assert.deepEqual(names(await list(ns)), ['orders']);
    assert.equal((await list(ns)).kind, 'DatabaseList');

    const patched = (await custom.patchNamespacedCustomObject(
      { ...databases, namespace: ns, name: 'orders', body: { spec: { storage: '10Gi' } } },
      merge,
    )) as Database;
    assert.deepEqual(patched.spec, { engine: 'postgres', replicas: 1, storage: '10Gi' });
    assert.equal(patched.metadata.generation, 2);

    const replaced = (await custom.replaceNamespacedCustomObject({
      ...databases,
      namespace: ns,
      name: 'orders',
      body: { ...patched, metadata: { ...patched.metadata, labels: { team: 'a' } } },
    })) as Database;
    assert.deepEqual(replaced.metadata.labels, { team: 'a' });
    assert.notEqual(replaced.metadata.resourceVersion, patched.metadata.resourceVersion);
    assert.equal(replaced.metadata.generation, 2, 'a metadata-only change keeps the generation');

    const deleted = (await custom.deleteNamespacedCustomObject({
      ...databases,
      namespace: ns,
      name: 'orders',
    })) as KubeStatus;
    assert.equal(deleted.kind, 'Status');
    assert.equal(deleted.status, 'Success');
    assert.deepEqual(
      [deleted.details?.name, deleted.details?.group, deleted.details?.kind],
      ['orders', group, 'databases'],
    );
    assert.deepEqual(names(await list(ns)), []);
  });

  it('applies server-side with a field manager: creates, conflicts without force, takes over with force', async () => {
    const applied = await custom.patchNamespacedCustomObjectWithHttpInfo(
      {
        ...databases,
        namespace: ns,
        name: 'billing',
        body: database('billing', { engine: 'mysql', storage: '1Gi' }),
        fieldManager: 'db-operator',
      },
      apply,
    );
    assert.equal(applied.httpStatusCode, 201);
    const first = applied.data as Database;
    assert.deepEqual(first.spec, { engine: 'mysql', storage: '1Gi', replicas: 1 });
    assert.deepEqual(
      (first.metadata.managedFields ?? []).map((m) => [m.manager, m.operation]),
      [['db-operator', 'Apply']],
    );

    const other = database('billing', { engine: 'mysql', storage: '5Gi' });
    const conflict = await failure(
      custom.patchNamespacedCustomObject(
        { ...databases, namespace: ns, name: 'billing', body: other, fieldManager: 'admin' },
        apply,
      ),
    );
    assert.equal(conflict.code, 409);
    assert.equal(conflict.status.reason, 'Conflict');
    assert.equal(
      conflict.status.message,
      'Apply failed with 1 conflict: conflict with "db-operator": .spec.storage',
    );
    assert.deepEqual(conflict.status.details?.causes, [
      { reason: 'FieldManagerConflict', message: 'conflict with "db-operator"', field: '.spec.storage' },
    ]);

    const forced = (await custom.patchNamespacedCustomObject(
      { ...databases, namespace: ns, name: 'billing', body: other, fieldManager: 'admin', force: true },
      apply,
    )) as Database;
    assert.equal(forced.spec?.storage, '5Gi');
    assert.deepEqual((forced.metadata.managedFields ?? []).map((m) => [m.manager, m.operation]).sort(), [
      ['admin', 'Apply'],
      ['db-operator', 'Apply'],
    ]);
    // The forced manager now owns .spec.storage: db-operator's next apply without it does not remove it.
    const again = (await custom.patchNamespacedCustomObject(
      {
        ...databases,
        namespace: ns,
        name: 'billing',
        body: database('billing', { engine: 'mysql' }),
        fieldManager: 'db-operator',
      },
      apply,
    )) as Database;
    assert.deepEqual(again.spec, { engine: 'mysql', storage: '5Gi', replicas: 1 });
  });

  it('creates, reads, lists, patches, replaces and deletes a cluster-scoped custom object', async () => {
    const body = {
      apiVersion: `${group}/${version}`,
      kind: 'Tenant',
      metadata: { name: 'acme' },
      spec: { owner: 'ann' },
    };
    const created = (await custom.createClusterCustomObject({ ...tenants, body })) as Database;
    assert.equal(created.kind, 'Tenant');
    assert.equal(created.metadata.namespace, undefined);
    const read = (await custom.getClusterCustomObject({ ...tenants, name: 'acme' })) as Database;
    assert.equal(read.metadata.uid, created.metadata.uid);
    const listed = (await custom.listClusterCustomObject(tenants)) as DatabaseList;
    assert.deepEqual(names(listed), ['acme']);

    const patched = (await custom.patchClusterCustomObject(
      { ...tenants, name: 'acme', body: { spec: { quota: 3 } } },
      merge,
    )) as { spec: unknown } & Database;
    assert.deepEqual(patched.spec, { owner: 'ann', quota: 3 });
    const replaced = (await custom.replaceClusterCustomObject({
      ...tenants,
      name: 'acme',
      body: { ...patched, spec: { owner: 'bob' } },
    })) as { spec: unknown } & Database;
    assert.deepEqual(replaced.spec, { owner: 'bob' });

    const deleted = (await custom.deleteClusterCustomObject({ ...tenants, name: 'acme' })) as KubeStatus;
    assert.equal(deleted.status, 'Success');
    assert.deepEqual([deleted.details?.name, deleted.details?.kind], ['acme', 'tenants']);
    const gone = await failure(custom.getClusterCustomObject({ ...tenants, name: 'acme' }));
    assert.deepEqual(
      [gone.code, gone.status.reason, gone.status.message],
      [404, 'NotFound', `tenants.${group} "acme" not found`],
    );
  });

  it('keeps spec out of a status update and status out of a main update', async () => {
    const created = await create({
      ...database('inventory', { engine: 'postgres', replicas: 2 }),
      status: { phase: 'ignored on create' },
    });
    assert.equal(created.status, undefined, 'status is dropped on create');

    const withStatus = (await custom.replaceNamespacedCustomObjectStatus({
      ...databases,
      namespace: ns,
      name: 'inventory',
      body: {
        ...created,
        metadata: { ...created.metadata, labels: { ignored: 'true' } },
        spec: { engine: 'mysql', replicas: 4 },
        status: { phase: 'Ready', replicas: 2, selector: 'app=inventory' },
      },
    })) as Database;
    assert.deepEqual(withStatus.spec, { engine: 'postgres', replicas: 2 }, 'spec changes are ignored');
    assert.equal(withStatus.metadata.labels, undefined, 'metadata changes are ignored');
    assert.deepEqual(withStatus.status, { phase: 'Ready', replicas: 2, selector: 'app=inventory' });
    assert.equal(withStatus.metadata.generation, 1);
    const viaStatus = (await custom.getNamespacedCustomObjectStatus({
      ...databases,
      namespace: ns,
      name: 'inventory',
    })) as Database;
    assert.deepEqual(viaStatus.status, withStatus.status);

    const updated = (await custom.replaceNamespacedCustomObject({
      ...databases,
      namespace: ns,
      name: 'inventory',
      body: { ...withStatus, spec: { engine: 'postgres', replicas: 3 }, status: { phase: 'Overwritten' } },
    })) as Database;
    assert.deepEqual(updated.spec, { engine: 'postgres', replicas: 3 });
    assert.deepEqual(updated.status, withStatus.status, 'status is kept by a main update');
    assert.equal(updated.metadata.generation, 2);
  });

  it('reads and patches the scale subresource', async () => {
    const scale = (await custom.getNamespacedCustomObjectScale({
      ...databases,
      namespace: ns,
      name: 'inventory',
    })) as Scale;
    assert.equal(scale.apiVersion, 'autoscaling/v1');
    assert.equal(scale.kind, 'Scale');
    assert.equal(scale.metadata.name, 'inventory');
    assert.equal(scale.metadata.namespace, ns);
    assert.deepEqual(scale.spec, { replicas: 3 });
    assert.deepEqual(scale.status, { replicas: 2, selector: 'app=inventory' });

    const scaled = (await custom.patchNamespacedCustomObjectScale(
      { ...databases, namespace: ns, name: 'inventory', body: { spec: { replicas: 5 } } },
      merge,
    )) as Scale;
    assert.deepEqual(scaled.spec, { replicas: 5 });
    const db = await get('inventory');
    assert.equal(db.spec?.replicas, 5);
    assert.equal(db.metadata.resourceVersion, scaled.metadata.resourceVersion);
    assert.equal(db.metadata.generation, 3);

    // The custom resource's schema still applies through /scale: replicas has a maximum of 5.
    const tooMany = await failure(
      custom.patchNamespacedCustomObjectScale(
        { ...databases, namespace: ns, name: 'inventory', body: { spec: { replicas: 9 } } },
        merge,
      ),
    );
    assert.equal(tooMany.code, 422);
    assert.equal(tooMany.status.reason, 'Invalid');
    assert.equal(
      tooMany.status.message,
      `Database.${group} "inventory" is invalid: spec.replicas: Invalid value: 9: ` +
        'spec.replicas in body should be less than or equal to 5',
    );
  });
});
