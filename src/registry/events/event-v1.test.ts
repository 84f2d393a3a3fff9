import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Event } from '../../api/core/v1/event.js';
import type { EventV1 } from '../../api/events/v1/event.js';
import { newEventREST } from '../core/event/storage.js';
import { ConvertingView } from '../generic/converting-view.js';
import { storageWithCacher, type RESTOptionsGetter } from '../generic/rest-options.js';
import type { Store } from '../generic/store.js';
import { rejectsWithStatus } from '../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../generic/testing/memory-rest-options.js';
import { testContext } from '../generic/testing/widgets.js';
import { eventsV1Conversion, eventsV1CreateStrategy } from './event-v1.js';

const v1Event = (name: string, more: Partial<EventV1> = {}): EventV1 => ({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name, namespace: 'default' },
  eventTime: '2026-11-26T01:02:03.000004Z',
  reportingController: 'example.com/ctl',
  reportingInstance: 'ctl-1',
  action: 'Scale',
  reason: 'Scaled',
  type: 'Normal',
  note: 'scaled to 3',
  regarding: { kind: 'Deployment', namespace: 'default', name: 'web' },
  ...more,
});

describe('events.k8s.io/v1 over the core Events store', () => {
  let env: MemoryRESTOptions;
  let core: Store<Event>;
  let view: ConvertingView<EventV1, Event>;
  const ctx = testContext('default');
  before(async () => {
    env = await memoryRESTOptions();
    core = await newEventREST({ restOptionsGetter: env.getter });
    // The events.k8s.io store behind a watch cache, as the server builds it.
    const cached: RESTOptionsGetter = {
      getRESTOptions: (r) => ({
        ...env.getter.getRESTOptions(r),
        decorator: storageWithCacher(env.createRawStorage),
      }),
    };
    const events = await newEventREST({
      restOptionsGetter: cached,
      qualifiedResource: { group: 'events.k8s.io', resource: 'events' },
    });
    view = new ConvertingView(
      events.withStrategies({ createStrategy: eventsV1CreateStrategy }),
      eventsV1Conversion,
    );
  });
  after(async () => {
    await view.destroy();
    await env.close();
  });

  it('stores under /registry/events with core field names, and serves both views of it', async () => {
    const created = await view.create(ctx, v1Event('scaled'), { options: {} });
    assert.equal(created.apiVersion, 'events.k8s.io/v1');
    assert.equal(created.note, 'scaled to 3');
    assert.equal(created.regarding?.name, 'web');
    const stored = await core.get(ctx, 'scaled', {});
    assert.equal(stored.apiVersion, 'v1');
    assert.equal(stored.message, 'scaled to 3');
    assert.equal(stored.involvedObject?.name, 'web');
    assert.equal(stored.reportingComponent, 'example.com/ctl');
    assert.equal(stored.metadata?.resourceVersion, created.metadata?.resourceVersion);
    const list = await view.list(ctx, {});
    assert.equal(list.kind, 'EventList');
    assert.equal(list.apiVersion, 'events.k8s.io/v1');
    assert.deepEqual(
      list.items.map((e) => [e.metadata?.name, e.reportingController]),
      [['scaled', 'example.com/ctl']],
    );
  });

  it('watches in the served version, the same converted object for the same stored event', async () => {
    const start = (await view.list(ctx, {})).metadata.resourceVersion ?? '0';
    const a = await view.watch(ctx, { resourceVersion: start });
    const b = await view.watch(ctx, { resourceVersion: start });
    await core.create(
      ctx,
      {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'legacy', namespace: 'default' },
        involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' },
        message: 'pulled',
        reason: 'Pulled',
        type: 'Normal',
      },
      { options: {} },
    );
    const next = async (w: typeof a): Promise<EventV1> => {
      for await (const event of w) {
        assert.equal(event.type, 'ADDED');
        return event.object;
      }
      throw new Error('watch ended');
    };
    const [ea, eb] = await Promise.all([next(a), next(b)]);
    a.stop();
    b.stop();
    assert.equal(ea.note, 'pulled');
    assert.equal(ea.regarding?.name, 'p');
    assert.equal(ea.deprecatedSource, undefined);
    assert.equal(ea, eb);
  });

  it('updates, prints and deletes through the view in the served version', async () => {
    const { object, created } = await view.update(ctx, 'scaled', {
      objInfo: {
        preconditions: () => undefined,
        updatedObject: (_c, old) => {
          assert.equal(old?.apiVersion, 'events.k8s.io/v1');
          return Promise.resolve({ ...(old as EventV1), note: 'scaled to 4' });
        },
      },
      options: {},
    });
    assert.equal(created, false);
    assert.equal(object.note, 'scaled to 4');
    assert.equal((await core.get(ctx, 'scaled', {})).message, 'scaled to 4');
    const table = view.convertToTable(ctx, await view.list(ctx, {}), { includeObject: 'Object' });
    assert.ok(table.rows.length >= 1);
    assert.ok(table.rows.every((r) => r.object?.apiVersion === 'events.k8s.io/v1'));
    const { object: gone, deleted } = await view.delete(ctx, 'scaled', { options: {} });
    assert.equal(deleted, true);
    // Events answer a delete with a Success Status, which passes through unconverted.
    assert.deepEqual(
      [gone.kind, (gone as { details?: { group?: string } }).details?.group],
      ['Status', 'events.k8s.io'],
    );
    await rejectsWithStatus(view.get(ctx, 'scaled', {}), {
      code: 404,
      reason: 'NotFound',
      message: 'events.events.k8s.io "scaled" not found',
    });
  });

  it("refuses what events.k8s.io/v1 refuses on create, with kube's field paths", async () => {
    await rejectsWithStatus(
      view.create(
        ctx,
        v1Event('bad', {
          eventTime: null,
          type: 'Odd',
          deprecatedCount: 3,
          series: { count: 1 },
        }),
        { options: {} },
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'Event.events.k8s.io "bad" is invalid: [series.count: Invalid value: "": should be at least 2, series.lastObservedTime: Required value, eventTime: Required value, type: Invalid value: "": has invalid value: Odd, count: Invalid value: "": needs to be unset]',
      },
    );
  });
});
