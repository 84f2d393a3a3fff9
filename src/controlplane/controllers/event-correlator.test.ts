// The recorder's EventCorrelator as client-go's behaves (tools/record/events_cache.go and its tests):
// similar events aggregate, a source's events about one object are rate limited, repeats count.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Event } from '../../api/core/v1/event.js';
import type { KubeObject } from '../../api/meta.js';
import { Logger, memorySink } from '../../server/logging/logger.js';
import { LruCache } from './event-correlator.js';
import { EventRecorder, type RecordedEvents } from './event-recorder.js';

const start = Date.parse('2026-12-03T12:00:00Z');

/** A recorder over an events store in memory that creates on update, as the events storage does. */
function recording(): {
  recorder: EventRecorder;
  stored: Map<string, Event>;
  advance: (seconds: number) => void;
  /** The stored events, oldest first, once the writes under way are done. */
  settled: () => Promise<Event[]>;
} {
  let now = start;
  const stored = new Map<string, Event>();
  const events: RecordedEvents = {
    create: (_ctx, obj: KubeObject) => {
      stored.set(obj.metadata?.name ?? '', obj as Event);
      return Promise.resolve(obj);
    },
    update: async (ctx, name, req) => {
      const updated = (await req.objInfo.updatedObject(ctx, stored.get(name) ?? null)) as Event;
      stored.set(name, updated);
      return { object: updated, created: false };
    },
  };
  const recorder = new EventRecorder({
    events,
    component: 'kubelet',
    logger: new Logger({ sink: memorySink() }),
    now: () => now,
  });
  return {
    recorder,
    stored,
    advance: (seconds) => {
      now += seconds * 1000;
    },
    settled: async () => {
      // The fake store answers at once: its writes are promise jobs, all run before the next turn.
      await new Promise(setImmediate);
      return [...stored.values()];
    },
  };
}

const pod = { kind: 'Pod', apiVersion: 'v1', namespace: 'ns', name: 'p', uid: 'u1' };
const failed = (i: number) =>
  ({ type: 'Warning', reason: 'Failed', message: `Error: image i${String(i)} not found` }) as const;
const at = (seconds: number): string => new Date(start + seconds * 1000).toISOString().replace('.000Z', 'Z');

describe('EventRecorder correlation', () => {
  it('records the 10th different message of similar events as one aggregate and counts later ones on it', async () => {
    const { recorder, advance, settled } = recording();
    for (let i = 0; i < 9; i++) {
      recorder.event(pod, failed(i), { host: 'n' });
      advance(1);
    }
    assert.equal((await settled()).length, 9);
    recorder.event({ ...pod, fieldPath: 'spec.containers{c}' }, failed(9), { host: 'n' });
    const aggregate = (await settled())[9];
    assert.equal(aggregate?.message, '(combined from similar events): Error: image i9 not found');
    assert.deepEqual(
      [aggregate.reason, aggregate.type, aggregate.count, aggregate.firstTimestamp, aggregate.lastTimestamp],
      ['Failed', 'Warning', 1, at(9), at(9)],
    );
    // client-go's aggregate copies the source and the object, but no reporter.
    assert.deepEqual(aggregate.source, { component: 'kubelet', host: 'n' });
    assert.deepEqual(aggregate.involvedObject, { ...pod, fieldPath: 'spec.containers{c}' });
    assert.deepEqual([aggregate.reportingComponent, aggregate.reportingInstance], ['', '']);
    advance(5);
    recorder.event(pod, failed(10), { host: 'n' });
    advance(5);
    recorder.event(pod, failed(11), { host: 'n' });
    const after = await settled();
    assert.equal(after.length, 10);
    assert.deepEqual(
      [after[9]?.metadata?.name, after[9]?.count, after[9]?.firstTimestamp, after[9]?.lastTimestamp],
      [aggregate.metadata?.name, 3, at(9), at(19)],
    );
    assert.equal(after[9]?.message, '(combined from similar events): Error: image i11 not found');
  });

  it('counts a repeat on the first event, as client-go does: count up, lastTimestamp moved', async () => {
    const { recorder, advance, settled } = recording();
    const backOff = {
      type: 'Warning',
      reason: 'BackOff',
      message: 'Back-off restarting failed container c',
    } as const;
    recorder.event(pod, backOff);
    advance(10);
    recorder.event(pod, backOff);
    advance(20);
    recorder.event(pod, backOff);
    const [event, ...others] = await settled();
    assert.equal(others.length, 0);
    assert.deepEqual([event?.count, event?.firstTimestamp, event?.lastTimestamp], [3, at(0), at(30)]);
  });

  it('counts an exact repeat of an earlier message on its own event, aggregate or not', async () => {
    const { recorder, advance, settled } = recording();
    for (let i = 0; i < 11; i++) recorder.event(pod, failed(i));
    advance(30);
    recorder.event(pod, failed(0));
    const events = await settled();
    assert.equal(events.length, 10);
    assert.deepEqual(
      [events[0]?.message, events[0]?.count, events[0]?.lastTimestamp],
      [failed(0).message, 2, at(30)],
    );
    assert.equal(events[9]?.count, 2);
  });

  it('does not aggregate similar events further apart than the interval (600 s): their count starts over', async () => {
    const { recorder, advance, settled } = recording();
    for (let i = 0; i < 9; i++) recorder.event(pod, failed(i));
    advance(601);
    for (let i = 9; i < 18; i++) recorder.event(pod, failed(i));
    const events = await settled();
    assert.equal(events.length, 18);
    assert.ok(events.every((e) => e.message?.startsWith('Error:') === true && e.count === 1));
    // The tenth message since the gap is the one that aggregates.
    recorder.event(pod, failed(18));
    assert.match((await settled())[18]?.message ?? '', /^\(combined from similar events\): /);
  });

  it('aggregates similar events that come within the interval of the last one, however long the run', async () => {
    const { recorder, advance, settled } = recording();
    for (let i = 0; i < 10; i++) {
      recorder.event(pod, failed(i));
      advance(600);
    }
    const events = await settled();
    assert.equal(events.length, 10);
    assert.match(events[9]?.message ?? '', /^\(combined from similar events\): /);
  });

  it("drops a source's 26th event about one object in a burst, and lets one through 300 s later", async () => {
    const { recorder, advance, settled } = recording();
    // Different reasons: not similar, so nothing aggregates; the bucket is per source and object.
    const note = (i: number) => ({ type: 'Normal', reason: `R${String(i)}`, message: 'm' }) as const;
    for (let i = 0; i < 26; i++) recorder.event(pod, note(i), { host: 'n' });
    assert.equal((await settled()).length, 25);
    // Another object, or the same one from another host, has a bucket of its own.
    recorder.event({ ...pod, name: 'q', uid: 'u2' }, note(0), { host: 'n' });
    recorder.event(pod, note(0), { host: 'other' });
    assert.equal((await settled()).length, 27);
    advance(299);
    recorder.event(pod, note(26), { host: 'n' });
    assert.equal((await settled()).length, 27);
    advance(1);
    recorder.event(pod, note(27), { host: 'n' });
    recorder.event(pod, note(28), { host: 'n' });
    const events = await settled();
    assert.deepEqual(
      events.slice(25).map((e) => [e.involvedObject?.name, e.reason, e.source?.host]),
      [
        ['q', 'R0', 'n'],
        ['p', 'R0', 'other'],
        ['p', 'R27', 'n'],
      ],
    );
  });

  it('counts a repeat the spam filter dropped: the next one let through writes the total', async () => {
    const { recorder, advance, settled } = recording();
    const backOff = {
      type: 'Warning',
      reason: 'BackOff',
      message: 'Back-off restarting failed container c',
    } as const;
    for (let i = 0; i < 25; i++) recorder.event(pod, backOff);
    recorder.event(pod, backOff);
    assert.equal((await settled())[0]?.count, 25);
    advance(300);
    recorder.event(pod, backOff);
    const [event, ...others] = await settled();
    assert.equal(others.length, 0);
    assert.deepEqual([event?.count, event?.lastTimestamp], [27, at(300)]);
  });

  it('creates a counted event again under its name when it is gone, as client-go does when its patch finds nothing', async () => {
    const { recorder, stored, advance, settled } = recording();
    const backOff = {
      type: 'Warning',
      reason: 'BackOff',
      message: 'Back-off restarting failed container c',
    } as const;
    recorder.event(pod, backOff);
    const [first] = await settled();
    stored.clear();
    advance(60);
    recorder.event(pod, backOff);
    const [again, ...others] = await settled();
    assert.equal(others.length, 0);
    assert.deepEqual(
      [again?.metadata?.name, again?.count, again?.firstTimestamp, again?.lastTimestamp],
      [first?.metadata?.name, 2, at(0), at(60)],
    );
  });

  it('forgets the least recently used entry past its size, a read counting as a use (k8s.io/utils/lru)', () => {
    const cache = new LruCache<number>(2);
    cache.add('a', 1);
    cache.add('b', 2);
    assert.equal(cache.get('a'), 1);
    cache.add('c', 3);
    assert.deepEqual([cache.get('a'), cache.get('b'), cache.get('c'), cache.size], [1, undefined, 3, 2]);
  });
});
