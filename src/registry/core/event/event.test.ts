import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { Event } from '../../../api/core/v1/event.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { defaultEventTTLSeconds, newEventREST } from './storage.js';

// The time tables measure ages against: a whole second, so the fixture's timestamps are exact.
const tableNow = Math.floor(Date.now() / 1000) * 1000;
const ev = (name: string, more: Partial<Event> = {}): Event => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name },
  involvedObject: { kind: 'ConfigMap', namespace: 'default', name: 'alpha', uid: 'x', apiVersion: 'v1' },
  reason: 'Created',
  message: 'made it  ',
  type: 'Normal',
  source: { component: 'tester' },
  firstTimestamp: new Date(tableNow - 120_000).toISOString().replace(/\.\d+Z$/, 'Z'),
  lastTimestamp: new Date(tableNow - 60_000).toISOString().replace(/\.\d+Z$/, 'Z'),
  count: 3,
  ...more,
});

describe('events', () => {
  let env: MemoryRESTOptions;
  let store: Store<Event>;
  const ctx = testContext('default');
  before(async () => {
    env = await memoryRESTOptions();
    store = await newEventREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('stores under /registry/events/<ns>/<name>, short name ev, an hour by default', async () => {
    const out = await store.create(ctx, ev('alpha.1'), { options: {} });
    assert.equal(out.metadata?.generation, undefined);
    assert.notEqual((await env.backend.get('/registry/events/default/alpha.1')).kv, null);
    assert.deepEqual(store.shortNames(), ['ev']);
    assert.equal(store.singularName(), 'event');
    assert.equal(defaultEventTTLSeconds, 3600);
    const list = await store.list(ctx, {});
    assert.deepEqual(
      list.items.map((e) => e.metadata?.name),
      ['alpha.1'],
    );
  });

  it('prints LAST SEEN TYPE REASON OBJECT MESSAGE, the rest with -o wide', async () => {
    const table = store.convertToTable(ctx, await store.get(ctx, 'alpha.1', {}), { now: tableNow });
    assert.deepEqual(
      table.columnDefinitions.map((c) => [c.name, c.priority]),
      [
        ['Last Seen', 0],
        ['Type', 0],
        ['Reason', 0],
        ['Object', 0],
        ['Subobject', 1],
        ['Source', 1],
        ['Message', 0],
        ['First Seen', 1],
        ['Count', 1],
        ['Name', 1],
      ],
    );
    assert.deepEqual(table.rows[0]?.cells, [
      '60s',
      'Normal',
      'Created',
      'configmap/alpha',
      '',
      'tester',
      'made it',
      '2m',
      3,
      'alpha.1',
    ]);
    const series = store.convertToTable(
      ctx,
      ev('s', {
        series: { count: 7, lastObservedTime: new Date().toISOString() },
        source: {},
        reportingComponent: 'ctl',
        reportingInstance: 'node-1',
        firstTimestamp: null,
        lastTimestamp: null,
        eventTime: new Date(Date.now() - 5000).toISOString(),
      }),
      {},
    );
    const cells = series.rows[0]?.cells ?? [];
    assert.deepEqual([cells[0], cells[5], cells[7], cells[8]], ['0s', 'ctl, node-1', '5s', 7]);
  });

  it('selects by the fields kubectl describe queries, and refuses others', async () => {
    await store.create(
      ctx,
      ev('other.1', { involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' } }),
      {
        options: {},
      },
    );
    const describeQuery =
      'involvedObject.namespace=default,involvedObject.kind=ConfigMap,involvedObject.uid=x,involvedObject.name=alpha';
    const list = await store.list(ctx, { fieldSelector: describeQuery });
    assert.deepEqual(
      list.items.map((e) => e.metadata?.name),
      ['alpha.1'],
    );
    const bySource = await store.list(ctx, { fieldSelector: 'source=tester,type=Normal,reason=Created' });
    assert.equal(bySource.items.length, 2);
    await rejectsWithStatus(store.list(ctx, { fieldSelector: 'message=x' }), {
      code: 400,
      reason: 'BadRequest',
      message: 'field label not supported: message',
    });
  });

  it('requires the involved object in the event namespace', async () => {
    await rejectsWithStatus(
      store.create(ctx, ev('bad', { involvedObject: { kind: 'Pod', namespace: 'other', name: 'p' } }), {
        options: {},
      }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'Event "bad" is invalid: involvedObject.namespace: Invalid value: "other": does not match event.namespace',
      },
    );
    const node = await store.create(ctx, ev('node', { involvedObject: { kind: 'Node', name: 'n1' } }), {
      options: {},
    });
    assert.equal(node.involvedObject?.name, 'n1');
  });

  it('requires the reporter of events with eventTime', async () => {
    await rejectsWithStatus(
      store.create(ctx, ev('new', { eventTime: '2024-01-01T00:00:00.000000Z', reason: 'r'.repeat(129) }), {
        options: {},
      }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          "Event \"new\" is invalid: [reportingController: Required value, reportingController: Invalid value: \"\": name part must be non-empty, reportingController: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), reportingInstance: Required value, reason: Invalid value: \"\": can have at most 128 characters]",
      },
    );
  });

  it('expires events after the event TTL', async () => {
    const short = await memoryRESTOptions();
    try {
      const s = await newEventREST({ restOptionsGetter: short.getter, eventTTL: 1 });
      await s.create(ctx, ev('brief'), { options: {} });
      assert.notEqual((await short.backend.get('/registry/events/default/brief')).kv, null);
      await sleep(2600);
      assert.equal((await short.backend.get('/registry/events/default/brief')).kv, null);
    } finally {
      await short.close();
    }
  });
});
