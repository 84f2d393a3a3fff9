import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject, Preconditions } from '../../api/meta.js';
import type { UpdatedObjectInfo, UpdateRequest } from '../rest/capabilities.js';
import type { Store } from './store.js';
import { rejectsWithStatus } from './testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from './testing/memory-rest-options.js';
import {
  newWidgetStore,
  testContext,
  widget,
  widgetStatusStrategy,
  widgetStrategy,
  type Widget,
} from './testing/widgets.js';

/** A PUT body (rest.DefaultUpdatedObjectInfo): the object, with a uid precondition when it has one. */
function put(obj: KubeObject, options: UpdateRequest['options'] = {}): UpdateRequest {
  const objInfo: UpdatedObjectInfo = {
    preconditions: (): Preconditions | undefined =>
      obj.metadata?.uid !== undefined ? { uid: obj.metadata.uid } : undefined,
    updatedObject: () => Promise.resolve(structuredClone(obj)),
  };
  return { objInfo, options };
}

describe('Store.update', () => {
  let env: MemoryRESTOptions;
  let store: Store<Widget>;
  const ctx = testContext('ns');
  before(async () => {
    env = await memoryRESTOptions();
    store = await newWidgetStore({ restOptions: env.getter });
  });
  after(() => env.close());

  it('updates at the current resourceVersion, keeping system fields and status', async () => {
    const created = await store.create(ctx, widget('u1'), { options: {} });
    const next = structuredClone(created);
    next.spec = { size: 2 };
    next.status = { phase: 'Hacked' };
    next.metadata = { ...next.metadata, creationTimestamp: '2000-01-01T00:00:00Z', generation: 99 };
    const { object, created: wasCreated } = await store.update(ctx, 'u1', put(next));
    assert.equal(wasCreated, false);
    assert.equal(object.metadata?.creationTimestamp, created.metadata?.creationTimestamp);
    assert.equal(object.metadata?.uid, created.metadata?.uid);
    assert.deepEqual(object.status, { phase: 'Pending' });
    assert.equal(object.metadata?.generation, 2);
    assert.notEqual(object.metadata.resourceVersion, created.metadata?.resourceVersion);
  });

  it('bumps generation only when something outside metadata and status changes', async () => {
    const created = await store.create(ctx, widget('gen'), { options: {} });
    const labelled = structuredClone(created);
    labelled.metadata = { ...labelled.metadata, labels: { a: 'b' } };
    const r1 = (await store.update(ctx, 'gen', put(labelled))).object;
    assert.equal(r1.metadata?.generation, 1);
    const status = store.withStrategies({ updateStrategy: widgetStatusStrategy });
    const st = structuredClone(r1);
    st.status = { phase: 'Running' };
    const r2 = (await status.update(ctx, 'gen', put(st))).object;
    assert.equal(r2.metadata?.generation, 1);
    assert.deepEqual(r2.status, { phase: 'Running' });
    const spec = structuredClone(r2);
    spec.spec = { size: 5 };
    const r3 = (await store.update(ctx, 'gen', put(spec))).object;
    assert.equal(r3.metadata?.generation, 2);
  });

  it("writes the stored object's own spec when the update leaves it equal, and the body's when not", async () => {
    // What validation sees is what is written: the stored spec itself when the body's equals it
    // (generation kept), the body's when it differs or is gone (generation moved).
    let shared: boolean | undefined;
    const watching = store.withStrategies({
      updateStrategy: {
        ...widgetStrategy,
        validateUpdate: (c, obj, old) => {
          shared = obj.spec !== undefined && obj.spec === old.spec;
          return widgetStrategy.validateUpdate(c, obj);
        },
      },
    });
    const created = await store.create(
      ctx,
      { ...widget('share'), spec: { size: 1, color: 'red' } },
      { options: {} },
    );
    const same = structuredClone(created);
    same.metadata = { ...same.metadata, labels: { a: 'b' } };
    const r1 = (await watching.update(ctx, 'share', put(same))).object;
    assert.equal(shared, true);
    assert.deepEqual(
      [r1.spec, r1.metadata?.generation, r1.metadata?.labels],
      [{ size: 1, color: 'red' }, 1, { a: 'b' }],
    );
    const other = structuredClone(r1);
    other.spec = { size: 1, color: 'blue' };
    const r2 = (await watching.update(ctx, 'share', put(other))).object;
    assert.equal(shared, false);
    assert.deepEqual([r2.spec, r2.metadata?.generation], [{ size: 1, color: 'blue' }, 2]);
    const gone = structuredClone(r2);
    delete gone.spec;
    const r3 = (await watching.update(ctx, 'share', put(gone))).object;
    assert.equal(shared, false);
    assert.deepEqual([r3.spec, r3.metadata?.generation], [undefined, 3]);
    const got = await store.get(ctx, 'share', {});
    assert.deepEqual([got.spec, got.metadata?.generation], [undefined, 3]);
  });

  it('answers Conflict for a stale resourceVersion', async () => {
    const created = await store.create(ctx, widget('c1'), { options: {} });
    await store.update(ctx, 'c1', put({ ...created, spec: { size: 3 } }));
    const st = await rejectsWithStatus(store.update(ctx, 'c1', put({ ...created, spec: { size: 4 } })), {
      code: 409,
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on widgets.example.com "c1": the object has been modified; please apply your changes to the latest version and try again',
    });
    assert.deepEqual(st.details, { name: 'c1', group: 'example.com', kind: 'widgets' });
  });

  it('fills in the resourceVersion when unconditional updates are allowed', async () => {
    await store.create(ctx, widget('uu'), { options: {} });
    const { object } = await store.update(ctx, 'uu', put(widget('uu', { size: 7 })));
    assert.deepEqual(object.spec, { size: 7 });
  });

  it('requires a resourceVersion when unconditional updates are not allowed', async () => {
    const strict = store.withStrategies({
      updateStrategy: { ...widgetStrategy, allowUnconditionalUpdate: false },
    });
    await store.create(ctx, widget('rv'), { options: {} });
    const st = await rejectsWithStatus(strict.update(ctx, 'rv', put(widget('rv'))), {
      code: 422,
      reason: 'Invalid',
      message:
        'widgets.example.com "rv" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    });
    assert.deepEqual(st.details, {
      name: 'rv',
      group: 'example.com',
      kind: 'widgets',
      causes: [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: 0x0: must be specified for an update',
          field: 'metadata.resourceVersion',
        },
      ],
    });
  });

  it('answers NotFound unless create on update is allowed', async () => {
    await rejectsWithStatus(store.update(ctx, 'missing', put(widget('missing'))), {
      code: 404,
      reason: 'NotFound',
      message: 'widgets.example.com "missing" not found',
    });
    const upsert = store.withStrategies({ updateStrategy: { ...widgetStrategy, allowCreateOnUpdate: true } });
    const { object, created } = await upsert.update(ctx, 'missing', put(widget('missing')));
    assert.equal(created, true);
    assert.equal(object.metadata?.generation, 1);
    assert.deepEqual(object.status, { phase: 'Pending' });
    const forced = await store.update(ctx, 'forced', { ...put(widget('forced')), forceAllowCreate: true });
    assert.equal(forced.created, true);
  });

  it('validates updates and refuses immutable metadata changes', async () => {
    const created = await store.create(ctx, widget('v1'), { options: {} });
    await rejectsWithStatus(store.update(ctx, 'v1', put({ ...created, spec: { size: -2 } })), {
      code: 422,
      reason: 'Invalid',
      message:
        'Widget.example.com "v1" is invalid: spec.size: Invalid value: -2: must be greater than or equal to 0',
    });
    const renamed = structuredClone(created);
    renamed.metadata = { ...renamed.metadata, uid: 'other' };
    await rejectsWithStatus(
      store.update(ctx, 'v1', {
        ...put(renamed),
        objInfo: { ...put(renamed).objInfo, preconditions: () => undefined },
      }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'Widget.example.com "v1" is invalid: metadata.uid: Invalid value: "other": field is immutable',
      },
    );
  });

  it('checks the uid precondition', async () => {
    const created = await store.create(ctx, widget('pre'), { options: {} });
    const other = structuredClone(created);
    other.metadata = { ...other.metadata, uid: 'not-it' };
    await rejectsWithStatus(store.update(ctx, 'pre', put(other)), {
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on widgets.example.com "pre": StorageError: invalid object, Code: 4, Key: /registry/widgets/ns/pre, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: not-it, UID in object meta: ${created.metadata?.uid ?? ''}`,
    });
  });

  it('refuses to move an object to another namespace', async () => {
    const created = await store.create(ctx, widget('mv'), { options: {} });
    const moved = structuredClone(created);
    moved.metadata = { ...moved.metadata, namespace: 'elsewhere' };
    await rejectsWithStatus(store.update(ctx, 'mv', put(moved)), {
      code: 400,
      reason: 'BadRequest',
      message: 'the namespace of the provided object does not match the namespace sent on the request',
    });
  });

  it('dry run answers with the update and writes nothing', async () => {
    const created = await store.create(ctx, widget('dry'), { options: {} });
    const rev = await env.backend.currentRevision();
    const { object } = await store.update(
      ctx,
      'dry',
      put({ ...created, spec: { size: 9 } }, { dryRun: ['All'] }),
    );
    assert.deepEqual(object.spec, { size: 9 });
    assert.equal(await env.backend.currentRevision(), rev);
    assert.deepEqual((await store.get(ctx, 'dry', {})).spec, { size: 1 });
  });
});
