import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Scale } from '../../api/autoscaling/v1/scale.js';
import type { KubeObject } from '../../api/meta.js';
import type { UpdateRequest } from '../rest/capabilities.js';
import { ScaleREST } from './scale.js';
import type { Store } from './store.js';
import { rejectsWithStatus } from './testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from './testing/memory-rest-options.js';
import { newWidgetStore, testContext, widget, type Widget } from './testing/widgets.js';

/** A request whose new Scale is computed from the current one, as the patch handler does. */
const scaleTo = (
  change: (current: Scale) => Scale,
  options: UpdateRequest['options'] = {},
): UpdateRequest => ({
  objInfo: {
    preconditions: () => undefined,
    updatedObject: (_ctx, old) => Promise.resolve(change(structuredClone(old ?? {}) as Scale)),
  },
  options,
});

/** A merge patch of `{"spec":{"replicas":n}}`. */
const replicas =
  (n: number): ((s: Scale) => Scale) =>
  (s) => ({ ...s, spec: { ...s.spec, replicas: n } });

describe('ScaleREST', () => {
  let env: MemoryRESTOptions;
  let store: Store<Widget>;
  let scale: ScaleREST<Widget>;
  const ctx = testContext('default');

  before(async () => {
    env = await memoryRESTOptions();
    store = await newWidgetStore({ restOptions: env.getter });
    scale = new ScaleREST<Widget>({
      store,
      toScale: (w) => ({ spec: { replicas: w.spec?.size ?? 0 }, status: { replicas: 2, selector: 'app=w' } }),
      applyScale: (w, n) => {
        w.spec = { ...w.spec, size: n };
        return w;
      },
    });
    await store.create(ctx, widget('w', { size: 1, color: 'red' }), { options: {} });
  });
  after(() => env.close());

  it('reads the parent as an autoscaling/v1 Scale with its identity', async () => {
    const parent = await store.get(ctx, 'w', {});
    const got = await scale.get(ctx, 'w', {});
    assert.deepEqual(got, {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: {
        name: 'w',
        namespace: 'default',
        uid: parent.metadata?.uid,
        resourceVersion: parent.metadata?.resourceVersion,
        creationTimestamp: parent.metadata?.creationTimestamp,
      },
      spec: { replicas: 1 },
      status: { replicas: 2, selector: 'app=w' },
    });
    assert.deepEqual(scale.newObject(), { apiVersion: 'autoscaling/v1', kind: 'Scale' });
  });

  it('answers a missing parent with 404 naming <resource>/scale, or the resource it is given', async () => {
    await rejectsWithStatus(scale.get(ctx, 'nope', {}), {
      code: 404,
      reason: 'NotFound',
      message: 'widgets/scale.example.com "nope" not found',
    });
    const named = new ScaleREST<Widget>({
      store,
      toScale: () => ({ spec: {}, status: { replicas: 0 } }),
      applyScale: (w) => w,
      notFoundResource: { group: 'autoscaling', resource: 'widgets/scale' },
    });
    await rejectsWithStatus(named.get(ctx, 'nope', {}), {
      code: 404,
      reason: 'NotFound',
      message: 'widgets/scale.autoscaling "nope" not found',
    });
    await rejectsWithStatus(scale.update(ctx, 'nope', scaleTo(replicas(3))), {
      code: 404,
      reason: 'NotFound',
      message: 'widgets.example.com "nope" not found',
    });
  });

  it('writes replicas into the parent through its update: generation moves, the rest stays', async () => {
    const before = await store.get(ctx, 'w', {});
    const { object, created } = await scale.update(ctx, 'w', scaleTo(replicas(3)));
    assert.equal(created, false);
    assert.equal(object.spec?.replicas, 3);
    const after = await store.get(ctx, 'w', {});
    assert.deepEqual(after.spec, { size: 3, color: 'red' });
    assert.equal(after.metadata?.generation, (before.metadata?.generation ?? 0) + 1);
    assert.equal(object.metadata?.resourceVersion, after.metadata.resourceVersion);
    assert.notEqual(after.metadata.resourceVersion, before.metadata?.resourceVersion);
  });

  it('takes the Scale resourceVersion as the precondition; none writes unconditionally', async () => {
    const current = await scale.get(ctx, 'w', {});
    await scale.update(ctx, 'w', scaleTo(replicas(4)));
    const stale = (s: Scale): Scale => ({ ...replicas(5)(s), metadata: { ...current.metadata } });
    await rejectsWithStatus(scale.update(ctx, 'w', scaleTo(stale)), {
      code: 409,
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on widgets.example.com "w": the object has been modified; please apply your changes to the latest version and try again',
    });
    const unconditional = (s: Scale): Scale => {
      const next = replicas(6)(s);
      delete next.metadata?.resourceVersion;
      return next;
    };
    assert.equal((await scale.update(ctx, 'w', scaleTo(unconditional))).object.spec?.replicas, 6);
    assert.equal((await store.get(ctx, 'w', {})).spec?.size, 6);
  });

  it('refuses negative replicas and a foreign uid with kube texts', async () => {
    await rejectsWithStatus(scale.update(ctx, 'w', scaleTo(replicas(-1))), {
      code: 422,
      reason: 'Invalid',
      message:
        'Scale.autoscaling "w" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    });
    const uid = (await store.get(ctx, 'w', {})).metadata?.uid ?? '';
    const foreign = (s: Scale): Scale => ({ ...s, metadata: { ...s.metadata, uid: 'other' } });
    await rejectsWithStatus(scale.update(ctx, 'w', scaleTo(foreign)), {
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on widgets/scale.example.com "w": Precondition failed: UID in precondition: other, UID in object meta: ${uid}`,
    });
    assert.equal((await store.get(ctx, 'w', {})).spec?.size, 6);
  });

  it('passes dry runs and update admission the Scales, and writes nothing on a dry run', async () => {
    const seen: KubeObject[] = [];
    const { object } = await scale.update(ctx, 'w', {
      ...scaleTo(replicas(9), { dryRun: ['All'] }),
      updateValidation: (_c, obj, old) => {
        seen.push(obj, old);
      },
    });
    assert.equal(object.spec?.replicas, 9);
    assert.equal((await store.get(ctx, 'w', {})).spec?.size, 6);
    assert.deepEqual(
      seen.map((s) => [s.kind, (s as Scale).spec?.replicas]),
      [
        ['Scale', 9],
        ['Scale', 6],
      ],
    );
  });

  it('prints NAME DESIRED AVAILABLE AGE', async () => {
    const table = scale.convertToTable(ctx, await scale.get(ctx, 'w', {}), {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Desired', 'Available', 'Age'],
    );
    assert.deepEqual(table.rows[0]?.cells.slice(0, 3), ['w', 6, 2]);
  });
});
