import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { KubeObject } from '../api/meta.js';
import { WatchChan, type WatchEvent } from './watch-chan.js';

// A full collection on demand, to see whether the channel still holds what it handed out.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

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
