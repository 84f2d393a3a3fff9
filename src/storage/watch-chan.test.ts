import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../api/meta.js';
import { gc } from '../machinery/testing/heap.js';
import { WatchChan, type WatchEvent } from './watch-chan.js';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const added = (name: string): WatchEvent => ({ type: 'ADDED', object: { metadata: { name } } });

/** The name of the next event's object; undefined once the watch has ended. */
async function nextName(it: AsyncIterator<WatchEvent>): Promise<string | undefined> {
  const r = await it.next();
  return r.done === true ? undefined : (r.value.object as KubeObject).metadata?.name;
}

test('events come out in order across a drained queue and later pushes', async () => {
  const chan = new WatchChan();
  const it = chan[Symbol.asyncIterator]();
  chan.push(added('a'));
  chan.push(added('b'));
  assert.equal(await nextName(it), 'a');
  assert.equal(await nextName(it), 'b');
  assert.equal(chan.pending, 0);
  // The consumer waits on the drained queue; later pushes wake it in order.
  const waiting = nextName(it);
  chan.push(added('c'));
  chan.push(added('d'));
  chan.close();
  assert.equal(await waiting, 'c');
  assert.equal(chan.pending, 1);
  assert.equal(await nextName(it), 'd');
  assert.equal(await nextName(it), undefined);
});

test('an event the consumer has taken is no longer held by the channel', async () => {
  const chan = new WatchChan();
  const it = chan[Symbol.asyncIterator]();
  const refs: WeakRef<object>[] = [];
  for (const name of ['first', 'second', 'third']) {
    const ev = added(name);
    refs.push(new WeakRef(ev.object));
    chan.push(ev);
  }
  // The first two are taken and dropped; the third is still queued.
  assert.equal(await nextName(it), 'first');
  assert.equal(await nextName(it), 'second');
  // The generator's frame holds the event it last yielded until it resumes: take one more step.
  assert.equal(await nextName(it), 'third');
  await nextTurn();
  gc();
  assert.equal(refs[0]?.deref(), undefined);
  assert.equal(refs[1]?.deref(), undefined);
  chan.stop();
});

test('a close ends the watch after its queued events, the error event last', async () => {
  let stopped = 0;
  const chan = new WatchChan({ onStop: () => stopped++ });
  const it = chan[Symbol.asyncIterator]();
  const waiting = nextName(it);
  chan.push(added('a'));
  chan.close({
    type: 'ERROR',
    object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'gone', code: 410 },
  });
  assert.equal(await waiting, 'a');
  const last = await it.next();
  assert.equal(last.done !== true && last.value.type, 'ERROR');
  assert.equal(await nextName(it), undefined);
  assert.equal(await nextName(it), undefined);
  await chan.done;
  // Closed by the producer: the consumer's end is not a stop from its side.
  assert.equal(stopped, 0);
});

test("the consumer's return() and stop() end a waiting watch and call onStop once", async () => {
  let stopped = 0;
  const chan = new WatchChan({ onStop: () => stopped++ });
  const it = chan[Symbol.asyncIterator]();
  const waiting = nextName(it);
  chan.stop();
  assert.equal(await waiting, undefined);
  await chan.done;
  assert.deepEqual(await it.return?.(), { value: undefined, done: true });
  assert.equal(stopped, 1);
  assert.equal(chan.push(added('late')), false);

  let taken = 0;
  const other = new WatchChan({ onStop: () => stopped++, onTake: () => taken++ });
  other.push(added('x'));
  for await (const ev of other) {
    assert.equal((ev.object as KubeObject).metadata?.name, 'x');
    break;
  }
  assert.equal(taken, 1);
  assert.equal(stopped, 2);
  assert.equal(other.closed, true);
});
