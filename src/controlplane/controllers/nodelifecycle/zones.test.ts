import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { computeZoneState, TaintQueue, zoneKey, zoneQPS } from './zones.js';

const ready = (s: string) => ({ type: 'Ready', status: s });

describe('zones', () => {
  it('computes zone states as kube does', () => {
    assert.equal(computeZoneState([ready('Unknown')]), 'FullDisruption');
    assert.equal(computeZoneState([ready('True'), ready('Unknown')]), 'Normal');
    assert.equal(
      computeZoneState([ready('True'), ready('False'), ready('Unknown'), undefined]),
      'PartialDisruption',
    );
    assert.equal(zoneQPS('PartialDisruption', 10), 0);
    assert.equal(zoneQPS('PartialDisruption', 51), 0.01);
    assert.equal(zoneKey({ metadata: { labels: { 'topology.kubernetes.io/zone': 'a' } } }), ':\x00:a');
    assert.equal(zoneKey({ metadata: {} }), '');
  });

  it('takes one node at once, then one every 10 s', async () => {
    const q = new TaintQueue(0);
    q.add('a', 0);
    q.add('b', 0);
    assert.equal(q.add('b', 0), false);
    const taken: string[] = [];
    const take = (n: string) => {
      taken.push(n);
      return Promise.resolve(true);
    };
    assert.equal(await q.try(0, take), 10_000);
    assert.deepEqual(taken, ['a']);
    assert.equal(await q.try(9_000, take), 10_000);
    assert.equal(await q.try(10_000, take), undefined);
    assert.deepEqual(taken, ['a', 'b']);
    assert.equal(q.add('a', 20_000), false, 'a node once taken is not queued again');
    q.remove('a');
    assert.equal(q.add('a', 20_000), true, 'until it is removed');
    q.remove('a');
    q.add('c', 10_000);
    q.swapLimiter(0, 20_000);
    assert.equal(await q.try(30_000, take), undefined);
    assert.deepEqual(taken, ['a', 'b'], 'a stopped zone taints nothing');
  });
});
