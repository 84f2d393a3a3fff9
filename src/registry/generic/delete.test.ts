import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import type { UpdateRequest } from '../rest/capabilities.js';
import type { Store } from './store.js';
import { rejectsWithStatus } from './testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from './testing/memory-rest-options.js';
import {
  gracefulWidgetDeleteStrategy,
  newWidgetStore,
  testContext,
  widget,
  type Widget,
} from './testing/widgets.js';

const put = (obj: KubeObject): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});

describe('Store.delete', () => {
  let env: MemoryRESTOptions;
  let store: Store<Widget>;
  const ctx = testContext('ns');
  const withFinalizers = (name: string, finalizers: string[]): Widget => ({
    ...widget(name),
    metadata: { name, finalizers },
  });
  before(async () => {
    env = await memoryRESTOptions();
    store = await newWidgetStore({ restOptions: env.getter });
  });
  after(() => env.close());

  it('deletes and answers a Success Status naming the resource', async () => {
    const created = await store.create(ctx, widget('d1'), { options: {} });
    const { object, deleted } = await store.delete(ctx, 'd1', { options: {} });
    assert.equal(deleted, true);
    assert.deepEqual(object, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'd1', group: 'example.com', kind: 'widgets', uid: created.metadata?.uid },
    });
    await rejectsWithStatus(store.delete(ctx, 'd1', { options: {} }), {
      code: 404,
      reason: 'NotFound',
      message: 'widgets.example.com "d1" not found',
    });
  });

  it('answers the deleted object when the store says so', async () => {
    const returning = await newWidgetStore({ restOptions: env.getter }, { returnDeletedObject: true });
    await returning.create(ctx, widget('d2'), { options: {} });
    const { object } = await returning.delete(ctx, 'd2', { options: {} });
    assert.equal(object.kind, 'Widget');
    assert.equal(object.metadata?.name, 'd2');
  });

  it('checks preconditions with kube texts', async () => {
    const created = await store.create(ctx, widget('p1'), { options: {} });
    await rejectsWithStatus(store.delete(ctx, 'p1', { options: { preconditions: { uid: 'x' } } }), {
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on Widget.example.com "p1": the UID in the precondition (x) does not match the UID in record (${created.metadata?.uid ?? ''}). The object might have been deleted and then recreated`,
    });
    await rejectsWithStatus(
      store.delete(ctx, 'p1', { options: { preconditions: { resourceVersion: '1' } } }),
      {
        code: 409,
        reason: 'Conflict',
        message: `Operation cannot be fulfilled on Widget.example.com "p1": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${created.metadata?.resourceVersion ?? ''}). The object might have been modified`,
      },
    );
    const ok = await store.delete(ctx, 'p1', {
      options: {
        preconditions: {
          uid: created.metadata?.uid ?? '',
          resourceVersion: created.metadata?.resourceVersion ?? '',
        },
      },
    });
    assert.equal(ok.deleted, true);
  });

  it('validates DeleteOptions', async () => {
    await store.create(ctx, widget('opts'), { options: {} });
    await rejectsWithStatus(
      store.delete(ctx, 'opts', { options: { orphanDependents: true, propagationPolicy: 'Orphan' } }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
      },
    );
  });

  it('marks an object with finalizers and deletes it when the last finalizer goes', async () => {
    await store.create(ctx, withFinalizers('f1', ['example.com/hold']), { options: {} });
    const { object, deleted } = await store.delete(ctx, 'f1', { options: {} });
    assert.equal(deleted, false);
    assert.match(object.metadata?.deletionTimestamp ?? '', /Z$/);
    assert.equal(object.metadata?.deletionGracePeriodSeconds, 0);
    assert.equal(object.metadata.generation, 2);
    // A second delete changes nothing and still answers with the object.
    const again = await store.delete(ctx, 'f1', { options: {} });
    assert.equal(again.deleted, false);
    assert.equal(again.object.metadata?.deletionTimestamp, object.metadata.deletionTimestamp);

    await rejectsWithStatus(store.create(ctx, widget('f1'), { options: {} }), {
      code: 409,
      reason: 'AlreadyExists',
      message: 'object is being deleted: widgets.example.com "f1" already exists',
    });
    const current = await store.get(ctx, 'f1', {});
    await rejectsWithStatus(
      store.update(
        ctx,
        'f1',
        put({
          ...current,
          metadata: { ...current.metadata, finalizers: ['example.com/hold', 'example.com/new'] },
        }),
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'Widget.example.com "f1" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/new"}',
      },
    );
    const { object: last } = await store.update(
      ctx,
      'f1',
      put({ ...current, metadata: { ...current.metadata, finalizers: [] } }),
    );
    assert.deepEqual(last.metadata?.finalizers, []);
    await rejectsWithStatus(store.get(ctx, 'f1', {}), { code: 404, reason: 'NotFound' });
  });

  it('adds the garbage collector finalizers the propagation policy asks for', async () => {
    await store.create(ctx, widget('orphan'), { options: {} });
    const orphan = await store.delete(ctx, 'orphan', { options: { propagationPolicy: 'Orphan' } });
    assert.equal(orphan.deleted, false);
    assert.deepEqual(orphan.object.metadata?.finalizers, ['orphan']);
    await store.create(ctx, widget('fg'), { options: {} });
    const fg = await store.delete(ctx, 'fg', { options: { propagationPolicy: 'Foreground' } });
    assert.deepEqual(fg.object.metadata?.finalizers, ['foregroundDeletion']);
    await store.create(ctx, widget('bg'), { options: {} });
    const bg = await store.delete(ctx, 'bg', { options: { propagationPolicy: 'Background' } });
    assert.equal(bg.deleted, true);
  });

  it('adds no finalizers when garbage collection is off', async () => {
    const noGC = await memoryRESTOptions({ enableGarbageCollection: false });
    try {
      const s = await newWidgetStore({ restOptions: noGC.getter });
      await s.create(ctx, widget('orphan'), { options: {} });
      const res = await s.delete(ctx, 'orphan', { options: { propagationPolicy: 'Orphan' } });
      assert.equal(res.deleted, true);
    } finally {
      await noGC.close();
    }
  });

  it('deletes gracefully when the strategy says so', async () => {
    const graceful = await newWidgetStore(
      { restOptions: env.getter },
      { deleteStrategy: gracefulWidgetDeleteStrategy },
    );
    await graceful.create(ctx, widget('g1'), { options: {} });
    const first = await graceful.delete(ctx, 'g1', { options: {} });
    assert.equal(first.deleted, false);
    assert.equal(first.object.metadata?.deletionGracePeriodSeconds, 30);
    const pending = await graceful.delete(ctx, 'g1', { options: { gracePeriodSeconds: 60 } });
    assert.equal(pending.deleted, false);
    const now = await graceful.delete(ctx, 'g1', { options: { gracePeriodSeconds: 0 } });
    assert.equal(now.deleted, true);
    await rejectsWithStatus(graceful.get(ctx, 'g1', {}), { code: 404, reason: 'NotFound' });
  });

  it('dry run deletes nothing', async () => {
    await store.create(ctx, widget('dry'), { options: {} });
    await store.create(ctx, withFinalizers('dryf', ['example.com/x']), { options: {} });
    const rev = await env.backend.currentRevision();
    const res = await store.delete(ctx, 'dry', { options: { dryRun: ['All'] } });
    assert.equal(res.deleted, true);
    const marked = await store.delete(ctx, 'dryf', { options: { dryRun: ['All'] } });
    assert.equal(marked.deleted, false);
    assert.notEqual(marked.object.metadata?.deletionTimestamp, undefined);
    assert.equal(await env.backend.currentRevision(), rev);
    assert.equal((await store.get(ctx, 'dryf', {})).metadata?.deletionTimestamp, undefined);
  });
});

describe('Store.deleteCollection', () => {
  it('deletes what the selectors pick with parallel workers and returns the list', async () => {
    const env = await memoryRESTOptions({ deleteCollectionWorkers: 3 });
    try {
      const store = await newWidgetStore({ restOptions: env.getter });
      const ctx = testContext('ns');
      for (let i = 0; i < 7; i++) {
        await store.create(
          ctx,
          { ...widget(`w${i}`), metadata: { name: `w${i}`, labels: { even: String(i % 2 === 0) } } },
          { options: {} },
        );
      }
      await store.create(testContext('other'), widget('w0'), { options: {} });
      const res = await store.deleteCollection(ctx, {
        options: {},
        listOptions: { labelSelector: 'even=true' },
      });
      assert.equal(res.kind, 'WidgetList');
      assert.deepEqual(
        res.items.map((w) => w.metadata?.name),
        ['w0', 'w2', 'w4', 'w6'],
      );
      const left = await store.list(testContext(''), {});
      assert.deepEqual(
        left.items.map((w) => `${w.metadata?.namespace}/${w.metadata?.name}`),
        ['ns/w1', 'ns/w3', 'ns/w5', 'other/w0'],
      );
      const limited = await store.deleteCollection(ctx, { options: {}, listOptions: { limit: 2 } });
      assert.equal(limited.items.length, 2);
      assert.equal((await store.list(ctx, {})).items.length, 1);
    } finally {
      await env.close();
    }
  });
});
