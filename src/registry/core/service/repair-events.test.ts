// The IP repair's events written into a real events store: they pass the core/v1 Event validation
// for events with an eventTime (reporting controller, instance, action) and land in the namespace
// of what they are about, "default" for a cluster-scoped IPAddress.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Event } from '../../../api/core/v1/event.js';
import type { Store } from '../../generic/store.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { internalContext } from '../../rest/context.js';
import { newEventREST } from '../event/storage.js';
import { repairEventRecorder } from './repair-events.js';

async function waitForEvents(events: Store<Event>, namespace: string, n: number): Promise<Event[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const items = (await events.list(internalContext({ namespace }), {})).items;
    if (items.length >= n || Date.now() > deadline) return items;
    await new Promise((r) => setImmediate(r));
  }
}

describe('ip repair events', () => {
  let env: MemoryRESTOptions;
  let events: Store<Event>;
  before(async () => {
    env = await memoryRESTOptions();
    events = await newEventREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('writes events.k8s.io-style events about services and IPAddresses', async () => {
    const now = Date.parse('2026-01-01T00:00:00.123Z');
    const record = repairEventRecorder({
      events,
      now: () => now,
      instance: 'ipallocator-repair-controller-h',
    });
    record({
      regarding: { apiVersion: 'v1', kind: 'Service', namespace: 'team', name: 'web', uid: 'u1' },
      type: 'Warning',
      reason: 'ClusterIPNotAllocated',
      action: 'ClusterIPAllocation',
      note: 'Cluster IP [IPv4]: 10.0.0.7 is not allocated; repairing',
    });
    record({
      regarding: { apiVersion: 'networking.k8s.io/v1', kind: 'IPAddress', name: '10.0.0.99' },
      type: 'Warning',
      reason: 'IPAddressNotAllocated',
      action: 'IPAddressAllocation',
      note: 'IPAddress: 10.0.0.99 for Service default/gone appears to have leaked: cleaning up',
    });
    const [svcEvent] = await waitForEvents(events, 'team', 1);
    assert.match(svcEvent?.metadata?.name ?? '', /^web\.[0-9a-f]+$/);
    assert.deepEqual(
      {
        involvedObject: svcEvent?.involvedObject,
        reason: svcEvent?.reason,
        message: svcEvent?.message,
        type: svcEvent?.type,
        eventTime: svcEvent?.eventTime,
        action: svcEvent?.action,
        reportingComponent: svcEvent?.reportingComponent,
        reportingInstance: svcEvent?.reportingInstance,
      },
      {
        involvedObject: { apiVersion: 'v1', kind: 'Service', namespace: 'team', name: 'web', uid: 'u1' },
        reason: 'ClusterIPNotAllocated',
        message: 'Cluster IP [IPv4]: 10.0.0.7 is not allocated; repairing',
        type: 'Warning',
        eventTime: '2026-01-01T00:00:00.123000Z',
        action: 'ClusterIPAllocation',
        reportingComponent: 'ipallocator-repair-controller',
        reportingInstance: 'ipallocator-repair-controller-h',
      },
    );
    const [ipEvent] = await waitForEvents(events, 'default', 1);
    assert.ok(ipEvent !== undefined);
    assert.equal(ipEvent.involvedObject?.kind, 'IPAddress');
    assert.equal(ipEvent.reason, 'IPAddressNotAllocated');
  });
});
