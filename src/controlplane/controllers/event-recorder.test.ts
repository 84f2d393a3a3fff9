import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Event } from '../../api/core/v1/event.js';
import type { KubeObject } from '../../api/meta.js';
import type { Creater } from '../../registry/rest/capabilities.js';
import { Logger, memorySink } from '../../server/logging/logger.js';
import { EventRecorder } from './event-recorder.js';

function recording(): { recorder: EventRecorder; created: Event[] } {
  const created: Event[] = [];
  const events: Creater = {
    create: (_ctx, obj: KubeObject) => {
      created.push(obj as Event);
      return Promise.resolve(obj);
    },
  };
  const recorder = new EventRecorder({
    events,
    component: 'kubelet',
    logger: new Logger({ sink: memorySink() }),
    now: () => Date.parse('2026-12-03T12:00:00Z'),
  });
  return { recorder, created };
}

const pod = { kind: 'Pod', apiVersion: 'v1', namespace: 'ns', name: 'p', uid: 'u1' };

describe('EventRecorder', () => {
  it("records a host's event with its source host and reporting instance, as client-go does", () => {
    const { recorder, created } = recording();
    recorder.event(
      { ...pod, fieldPath: 'spec.containers{app}' },
      { type: 'Normal', reason: 'Started', message: 'Started container app' },
      { host: 'sim-node-0' },
    );
    const [event] = created;
    assert.deepEqual(event?.source, { component: 'kubelet', host: 'sim-node-0' });
    assert.equal(event.reportingComponent, 'kubelet');
    assert.equal(event.reportingInstance, 'sim-node-0');
    assert.equal(event.involvedObject?.fieldPath, 'spec.containers{app}');
    assert.equal(event.metadata?.namespace, 'ns');
  });

  it('records a controller event without a host as before', () => {
    const { recorder, created } = recording();
    recorder.event(pod, { type: 'Normal', reason: 'Scheduled', message: 'm' });
    const [event] = created;
    assert.deepEqual(event?.source, { component: 'kubelet' });
    assert.equal(event.reportingInstance, '');
  });

  it('tells apart the same message about two containers of a pod, and writes no second event for a repeat', () => {
    const { recorder, created } = recording();
    const pulled = {
      type: 'Normal',
      reason: 'Pulled',
      message: 'Container image "x" already present on machine',
    } as const;
    recorder.event({ ...pod, fieldPath: 'spec.containers{a}' }, pulled, { host: 'n' });
    recorder.event({ ...pod, fieldPath: 'spec.containers{b}' }, pulled, { host: 'n' });
    recorder.event({ ...pod, fieldPath: 'spec.containers{a}' }, pulled, { host: 'n' });
    assert.deepEqual(
      created.map((e) => e.involvedObject?.fieldPath),
      ['spec.containers{a}', 'spec.containers{b}'],
    );
  });

  it('names events in the order they are recorded while the clock stands still', () => {
    const { recorder, created } = recording();
    // Over more than a millisecond, so the sub-millisecond part of the time wraps at least once;
    // each about another pod named p, so that none is aggregated or dropped as spam.
    const until = process.hrtime.bigint() + 1_500_000n;
    for (let i = 0; process.hrtime.bigint() < until; i++)
      recorder.event({ ...pod, uid: `u${String(i)}` }, { type: 'Normal', reason: 'Started', message: 'm' });
    const names = created.map((e) => e.metadata?.name ?? '');
    assert.equal(new Set(names).size, names.length);
    const nanos = names.map((n) => BigInt(`0x${n.slice('p.'.length)}`));
    assert.ok(nanos.every((n, i) => i === 0 || n > (nanos[i - 1] ?? 0n)));
  });
});
