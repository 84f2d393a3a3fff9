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

const nameOf = (ev: WatchEvent | undefined): string | undefined =>
  (ev?.object as KubeObject | undefined)?.metadata?.name;

test('events come out in order across a drained queue and later pushes', async () => {
  const chan = new WatchChan();
  const it = chan[Symbol.asyncIterator]();
  chan.push(added('a'));
  chan.push(added('b'));
  assert.equal(nameOf((await it.next()).value), 'a');
  assert.equal(nameOf((await it.next()).value), 'b');
  assert.equal(chan.pending, 0);
  chan.push(added('c'));
  assert.equal(chan.pending, 1);
  const waiting = it.next();
  chan.push(added('d'));
  chan.close();
  assert.equal(nameOf((await waiting).value), 'c');
  assert.equal(nameOf((await it.next()).value), 'd');
  assert.equal((await it.next()).done, true);
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
  assert.equal(nameOf((await it.next()).value), 'first');
  assert.equal(nameOf((await it.next()).value), 'second');
  // The generator's frame holds the event it last yielded until it resumes: take one more step.
  assert.equal(nameOf((await it.next()).value), 'third');
  await nextTurn();
  gc();
  assert.equal(refs[0]?.deref(), undefined);
  assert.equal(refs[1]?.deref(), undefined);
  chan.stop();
});
