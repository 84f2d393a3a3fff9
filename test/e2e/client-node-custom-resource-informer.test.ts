// The real @kubernetes/client-node used as an operator uses it (2/2): JSON patch and finalizers,
// an informer over a custom resource, label selectors and paging, and the Status errors (422, 404,
// 409) a reconcile loop tells apart.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  ApiextensionsV1Api,
  CustomObjectsApi,
  KubeConfig,
  makeInformer,
  type KubernetesListObject,
} from '@kubernetes/client-node';
import { eventually } from './support/client-node-helpers.js';
import {
  apply,
  database,
  databases,
  failure,
  group,
  installCRDs,
  merge,
  names,
  ns,
  version,
  type Database,
  type DatabaseList,
  databaseCalls,
  startOperatorServer,
  type OperatorServer,
} from './support/custom-resource-fixtures.js';

describe('@kubernetes/client-node against capstan: custom resource informers, paging and errors', () => {
  let server: OperatorServer;
  let custom: CustomObjectsApi;
  let crds: ApiextensionsV1Api;
  const { get, list, create } = databaseCalls(() => custom);
  // The informer below is made while the suite is defined, before the server starts.
  const kc = new KubeConfig();

  before(async () => {
    server = await startOperatorServer();
    ({ custom, crds } = server);
    kc.loadFromFile(server.capstan.kubeconfigPath);
    await installCRDs(crds);
  });

  after(async () => {
    await server.capstan.stop();
  });

  it('JSON-patches by default, applies status, holds a finalized object, deletes a labelled collection', async () => {
    await create(database('payments', { engine: 'mysql' }, { app: 'pay' }));
    // Without options the library sends a JSON patch, the first type its patch calls accept.
    const jsonPatched = (await custom.patchNamespacedCustomObject({
      ...databases,
      namespace: ns,
      name: 'payments',
      body: [
        { op: 'add', path: '/metadata/finalizers', value: ['ops.example.com/cleanup'] },
        { op: 'replace', path: '/spec/engine', value: 'postgres' },
      ],
    })) as Database;
    assert.equal(jsonPatched.spec?.engine, 'postgres');
    assert.deepEqual(jsonPatched.metadata.finalizers, ['ops.example.com/cleanup']);

    // An operator reports status with server-side apply on /status.
    const statusApplied = (await custom.patchNamespacedCustomObjectStatus(
      {
        ...databases,
        namespace: ns,
        name: 'payments',
        body: {
          apiVersion: `${group}/${version}`,
          kind: 'Database',
          metadata: { name: 'payments' },
          status: { phase: 'Ready' },
        },
        fieldManager: 'db-operator',
        force: true,
      },
      apply,
    )) as Database;
    assert.deepEqual(statusApplied.status, { phase: 'Ready' });
    assert.equal(statusApplied.spec?.engine, 'postgres');
    const statusManagers = (statusApplied.metadata.managedFields ?? [])
      .filter((m) => m.subresource === 'status')
      .map((m) => [m.manager, m.operation]);
    assert.deepEqual(statusManagers, [['db-operator', 'Apply']]);

    // A finalizer holds the object: delete only marks it, until the operator removes the finalizer.
    const marked = (await custom.deleteNamespacedCustomObject({
      ...databases,
      namespace: ns,
      name: 'payments',
    })) as Database;
    assert.equal(marked.kind, 'Database', 'a delete that is not finished answers the object');
    assert.match(marked.metadata.deletionTimestamp?.toString() ?? '', /\d{4}-\d\d-\d\dT/);
    const held = await get('payments');
    assert.ok(held.metadata.deletionTimestamp, 'still there, marked for deletion');
    await custom.patchNamespacedCustomObject(
      { ...databases, namespace: ns, name: 'payments', body: { metadata: { finalizers: null } } },
      merge,
    );
    assert.equal((await failure(get('payments'))).code, 404, 'gone once its finalizers are removed');

    await create(database('keeper', { engine: 'mysql' }));
    for (const name of ['tmp-a', 'tmp-b']) await create(database(name, { engine: 'mysql' }, { tmp: 'yes' }));
    const swept = (await custom.deleteCollectionNamespacedCustomObject({
      ...databases,
      namespace: ns,
      labelSelector: 'tmp=yes',
    })) as DatabaseList;
    // Like kube's generic store, deletecollection answers the list of the objects it deleted.
    assert.equal(swept.kind, 'DatabaseList');
    assert.deepEqual(names(swept), ['tmp-a', 'tmp-b']);
    assert.deepEqual(names(await list(ns, { labelSelector: 'tmp=yes' })), []);
    assert.ok(names(await list(ns)).includes('keeper'), 'objects outside the selector stay');
  });

  describe('an informer over a custom resource', () => {
    const path = `/apis/${group}/${version}/namespaces/informed/databases`;
    const events: string[] = [];
    const errors: unknown[] = [];
    let lists = 0;
    const informer = makeInformer<Database>(kc, path, () => {
      lists++;
      return custom.listNamespacedCustomObject({ ...databases, namespace: 'informed' }) as Promise<
        KubernetesListObject<Database>
      >;
    });
    for (const type of ['add', 'update', 'delete'] as const) {
      informer.on(type, (obj: Database) => {
        events.push(`${type} ${obj.metadata.name ?? ''} ${obj.spec?.storage ?? '-'}`);
      });
    }
    informer.on('error', (err: unknown) => {
      // stop() aborts the watch request, and client-node reports that abort as an error.
      if (!(err instanceof Error && err.name === 'AbortError')) errors.push(err);
    });
    /** Waits until exactly `expected` has been reported, in that order, then forgets it. */
    const settled = async (expected: readonly string[]): Promise<void> => {
      await eventually(() => events.length >= expected.length, `events ${expected.join(', ')}`, {
        seen: () => events,
      });
      await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(events, expected);
      events.length = 0;
    };
    const cacheState = (): string[] =>
      informer
        .list('informed')
        .map((o) => `${o.metadata.name ?? ''}@${o.metadata.resourceVersion ?? ''}`)
        .sort();
    const serverState = async (): Promise<string[]> =>
      (await list('informed')).items
        .map((o) => `${o.metadata.name ?? ''}@${o.metadata.resourceVersion ?? ''}`)
        .sort();
    const patchStorage = (name: string, storage: string): Promise<unknown> =>
      custom.patchNamespacedCustomObject(
        { ...databases, namespace: 'informed', name, body: { spec: { storage } } },
        merge,
      );
    const remove = (name: string): Promise<unknown> =>
      custom.deleteNamespacedCustomObject({ ...databases, namespace: 'informed', name });

    after(async () => {
      await informer.stop();
    });

    it('lists, then sees add, update and delete events in order', async () => {
      await create(database('listed', { engine: 'mysql', storage: '1Gi' }), 'informed');
      await create(database('elsewhere', { engine: 'mysql' }), ns);
      await informer.start();
      await settled(['add listed 1Gi']);

      await create(database('watched', { engine: 'postgres', storage: '2Gi' }), 'informed');
      await patchStorage('watched', '3Gi');
      await patchStorage('listed', '4Gi');
      await remove('watched');
      await settled(['add watched 2Gi', 'update watched 3Gi', 'update listed 4Gi', 'delete watched 3Gi']);
      assert.deepEqual(cacheState(), await serverState());
      assert.equal(lists, 1);
      assert.deepEqual(errors, []);
    });

    it('resumes from its last resourceVersion after stop and start, without listing again', async () => {
      await informer.stop();
      await create(database('missed', { engine: 'mysql', storage: '5Gi' }), 'informed');
      await patchStorage('listed', '6Gi');
      await remove('missed');
      await informer.start();
      await settled(['add missed 5Gi', 'update listed 6Gi', 'delete missed 5Gi']);
      assert.equal(lists, 1, 'the watch resumed where it stopped');

      await patchStorage('listed', '7Gi');
      await settled(['update listed 7Gi']);
      assert.deepEqual(cacheState(), await serverState());
      assert.deepEqual(errors, []);
    });
  });

  it('lists by label selector, and in pages with limit and continue from one snapshot', async () => {
    for (const [i, tier] of ['gold', 'silver', 'gold', 'bronze', 'gold'].entries()) {
      await create(database(`db-${String(i)}`, { engine: 'postgres' }, { tier, app: 'shop' }), 'paged');
    }
    assert.deepEqual(names(await list('paged', { labelSelector: 'tier=gold' })), ['db-0', 'db-2', 'db-4']);
    assert.deepEqual(names(await list('paged', { labelSelector: 'tier in (silver,bronze)' })), [
      'db-1',
      'db-3',
    ]);
    assert.deepEqual(names(await list('paged', { labelSelector: 'app=shop,tier!=gold' })), ['db-1', 'db-3']);
    assert.deepEqual(names(await list('paged', { labelSelector: 'tier=platinum' })), []);

    const first = await list('paged', { limit: 2 });
    assert.deepEqual(names(first), ['db-0', 'db-1']);
    assert.equal(first.metadata.remainingItemCount, 3);
    assert.ok(first.metadata.continue, 'a continue token');
    // Created after the first page: later pages come from the first page's snapshot and omit it.
    await create(database('db-5', { engine: 'postgres' }), 'paged');
    const second = await list('paged', { limit: 2, _continue: first.metadata.continue });
    assert.deepEqual(names(second), ['db-2', 'db-3']);
    assert.equal(second.metadata.resourceVersion, first.metadata.resourceVersion);
    const third = await list('paged', { limit: 2, _continue: second.metadata.continue ?? '' });
    assert.deepEqual(names(third), ['db-4']);
    // The last page: kube's UnstructuredList always carries continue, empty here.
    assert.equal(third.metadata.continue, '');
    assert.deepEqual(names(await list('paged')), ['db-0', 'db-1', 'db-2', 'db-3', 'db-4', 'db-5']);

    const gold = await list('paged', { labelSelector: 'tier=gold', limit: 2 });
    assert.deepEqual(names(gold), ['db-0', 'db-2']);
    const goldRest = await list('paged', {
      labelSelector: 'tier=gold',
      limit: 2,
      _continue: gold.metadata.continue ?? '',
    });
    assert.deepEqual(names(goldRest), ['db-4']);
    assert.equal(goldRest.metadata.continue, '');
  });

  it('refuses an object outside the schema with 422 Invalid and one cause per field', async () => {
    const invalid = await failure(create(database('bad', { storage: '1Gi', replicas: 9 })));
    assert.equal(invalid.code, 422);
    assert.equal(invalid.status.reason, 'Invalid');
    assert.equal(
      invalid.status.message,
      // kube-openapi's object validator checks the properties first, then the required ones.
      `Database.${group} "bad" is invalid: [spec.replicas: Invalid value: 9: ` +
        'spec.replicas in body should be less than or equal to 5, spec.engine: Required value]',
    );
    assert.deepEqual(
      [invalid.status.details?.name, invalid.status.details?.group, invalid.status.details?.kind],
      ['bad', group, 'Database'],
    );
    assert.deepEqual(invalid.status.details?.causes, [
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: 9: spec.replicas in body should be less than or equal to 5',
        field: 'spec.replicas',
      },
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.engine' },
    ]);

    const unsupported = await failure(create(database('bad', { engine: 'oracle' })));
    assert.equal(unsupported.code, 422);
    assert.deepEqual(unsupported.status.details?.causes, [
      {
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: "oracle": supported values: "postgres", "mysql"',
        field: 'spec.engine',
      },
    ]);
    assert.equal((await failure(get('bad'))).code, 404, 'nothing was stored');
  });

  it('answers 404 for a missing object, 409 for a duplicate name and for a stale resourceVersion', async () => {
    const missing = await failure(get('nope'));
    assert.equal(missing.code, 404);
    assert.equal(missing.status.reason, 'NotFound');
    assert.equal(missing.status.message, `databases.${group} "nope" not found`);
    assert.deepEqual(
      [missing.status.details?.name, missing.status.details?.group, missing.status.details?.kind],
      ['nope', group, 'databases'],
    );
    const deleteMissing = await failure(
      custom.deleteNamespacedCustomObject({ ...databases, namespace: ns, name: 'nope' }),
    );
    assert.equal(deleteMissing.code, 404);

    const original = await create(database('ledger', { engine: 'postgres' }));
    const duplicate = await failure(create(database('ledger', { engine: 'mysql' })));
    assert.equal(duplicate.code, 409);
    assert.equal(duplicate.status.reason, 'AlreadyExists');
    assert.equal(duplicate.status.message, `databases.${group} "ledger" already exists`);

    await custom.patchNamespacedCustomObject(
      { ...databases, namespace: ns, name: 'ledger', body: { spec: { storage: '1Gi' } } },
      merge,
    );
    const stale = await failure(
      custom.replaceNamespacedCustomObject({
        ...databases,
        namespace: ns,
        name: 'ledger',
        body: { ...original, spec: { engine: 'mysql' } },
      }),
    );
    assert.equal(stale.code, 409);
    assert.equal(stale.status.reason, 'Conflict');
    assert.equal(
      stale.status.message,
      `Operation cannot be fulfilled on databases.${group} "ledger": the object has been modified; ` +
        'please apply your changes to the latest version and try again',
    );
    assert.equal((await get('ledger')).spec?.storage, '1Gi', 'the stale update changed nothing');
  });
});
