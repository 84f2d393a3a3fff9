import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SortedKeys } from './sorted-keys.js';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

describe('SortedKeys', () => {
  it('agrees with a sorted array through inserts, deletes, ranges and ranks', () => {
    const next = random(7);
    const keys = new SortedKeys();
    const model = new Set<string>();
    const sorted = (): string[] => [...model].sort();
    for (let step = 0; step < 20_000; step++) {
      const key = `/pods/ns${Math.floor(next() * 5)}/p${Math.floor(next() * 3000)}`;
      if (model.has(key) && next() < 0.4) {
        keys.delete(key);
        model.delete(key);
      } else if (!model.has(key)) {
        keys.insert(key);
        model.add(key);
      }
      if (step % 997 === 0) {
        const all = sorted();
        assert.equal(keys.size, all.length);
        assert.deepEqual([...keys.range('', '\uffff')], all);
        const from = `/pods/ns2/p${Math.floor(next() * 3000)}`;
        assert.deepEqual(
          [...keys.range(from, '/pods/ns3/')],
          all.filter((k) => k >= from && k < '/pods/ns3/'),
        );
        assert.equal(keys.rank('/pods/ns3/'), all.filter((k) => k < '/pods/ns3/').length);
      }
    }
    keys.reset(['/b', '/a', '/c']);
    assert.deepEqual([...keys.range('', '\uffff')], ['/a', '/b', '/c']);
    assert.equal(keys.rank('/b'), 1);
  });

  it('is empty-safe', () => {
    const keys = new SortedKeys();
    keys.delete('/x');
    assert.deepEqual([...keys.range('', '\uffff')], []);
    assert.equal(keys.rank('/x'), 0);
  });
});
