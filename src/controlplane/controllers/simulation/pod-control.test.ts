import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Expectations } from '../replicaset/expectations.js';
import { createPodsExpected } from './pod-control.js';

/** Creations that record how many ran at once; those whose number is in `failing` reject. */
function creations(count: number, failing: ReadonlySet<number>) {
  const batches: number[] = [];
  let started = 0;
  let inFlight = 0;
  const list = Array.from({ length: count }, () => async () => {
    const n = ++started;
    if (inFlight === 0) batches.push(0);
    inFlight++;
    batches[batches.length - 1] = (batches.at(-1) ?? 0) + 1;
    await Promise.resolve();
    inFlight--;
    if (failing.has(n)) throw new Error(`create ${String(n)} refused`);
  });
  return { list, batches, started: () => started };
}

describe('createPodsExpected', () => {
  it('creates in slow-start batches of 1, 2, 4, … and expects every pod', async () => {
    const e = new Expectations(() => 0);
    const c = creations(10, new Set());
    await createPodsExpected(e, 'ns/rs', c.list);
    assert.deepEqual(c.batches, [1, 2, 4, 3]);
    assert.equal(e.satisfied('ns/rs'), false);
    for (let i = 0; i < 10; i++) e.creationObserved('ns/rs');
    assert.equal(e.satisfied('ns/rs'), true);
  });

  it('stops after the batch where a create failed, expecting only the pods made', async () => {
    const e = new Expectations(() => 0);
    const first = creations(5, new Set([1]));
    await assert.rejects(createPodsExpected(e, 'ns/a', first.list), /create 1 refused/);
    assert.equal(first.started(), 1);
    assert.equal(e.satisfied('ns/a'), true);

    const later = creations(6, new Set([3]));
    await assert.rejects(createPodsExpected(e, 'ns/b', later.list), /create 3 refused/);
    assert.equal(later.started(), 3);
    e.creationObserved('ns/b');
    assert.equal(e.satisfied('ns/b'), false);
    e.creationObserved('ns/b');
    assert.equal(e.satisfied('ns/b'), true);
  });
});
