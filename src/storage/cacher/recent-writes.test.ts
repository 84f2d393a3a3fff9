// The objects of handed-over writes: kept within a bound of written bytes, given out once and only
// for the revision they were written at; a cacher gives the next update of an object the one its
// last handed-over write returned, and decodes the cache's bytes otherwise.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import type { ResponseMeta } from '../interfaces.js';
import { pod, type TestObject } from '../testing/test-object.js';
import { encodeFieldsV1 } from '../../machinery/patch/fieldpath/fields-v1.js';
import { FieldSet } from '../../machinery/patch/fieldpath/set.js';
import { RecentWrites, serverRecentWrites } from './recent-writes.js';
import { caughtUp, podCacher, rvOf, type PodCacher } from './testing/pods.js';

describe('RecentWrites', () => {
  it('gives an object out once, for the revision it was written at', () => {
    const recent = new RecentWrites<string>(100);
    recent.put('/a', { revision: 5, bytes: 10 }, 'a@5');
    assert.equal(recent.take('/a', 5), 'a@5');
    assert.equal(recent.take('/a', 5), undefined);
    recent.put('/a', { revision: 6, bytes: 10 }, 'a@6');
    assert.equal(recent.take('/a', 7), undefined, 'another revision is not it');
    assert.equal(recent.take('/a', 6), undefined, 'and the asking dropped it');
    assert.equal(recent.bytes, 0);
  });

  it('keeps at most its bound of bytes, the oldest going first', () => {
    const recent = new RecentWrites<string>(30);
    recent.put('/a', { revision: 1, bytes: 10 }, 'a');
    recent.put('/b', { revision: 2, bytes: 10 }, 'b');
    recent.put('/c', { revision: 3, bytes: 10 }, 'c');
    recent.put('/a', { revision: 4, bytes: 10 }, 'a again'); // written again: now the newest
    recent.put('/d', { revision: 5, bytes: 10 }, 'd');
    assert.deepEqual([recent.size, recent.bytes], [3, 30]);
    assert.equal(recent.take('/b', 2), undefined, 'the oldest went');
    assert.equal(recent.take('/a', 4), 'a again');
    assert.equal(recent.take('/c', 3), 'c');
    recent.put('/big', { revision: 6, bytes: 31 }, 'too big');
    assert.equal(recent.take('/big', 6), undefined);
    assert.equal(recent.take('/d', 5), 'd', 'an object over the bound evicts nothing');
  });

  it('keeps nothing with a bound of 0, and forgets a key', () => {
    const none = new RecentWrites<string>(0);
    none.put('/a', { revision: 1, bytes: 1 }, 'a');
    assert.equal(none.size, 0);
    const recent = new RecentWrites<string>(10);
    recent.put('/a', { revision: 1, bytes: 1 }, 'a');
    recent.forget('/a');
    assert.deepEqual([recent.size, recent.bytes, recent.take('/a', 1)], [0, 0, undefined]);
  });

  it('freezes what it hands out past metadata only when checking', () => {
    const given = (): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', labels: { a: '1' } },
      spec: { containers: [{ name: 'c', env: [{ name: 'E' }] }] },
      status: { phase: 'Pending' },
    });
    const plain = new RecentWrites<KubeObject>(10).handedOut(given());
    assert.ok(!Object.isFrozen(plain['spec']));
    const checked = new RecentWrites<KubeObject>(10, { freezeHandedOut: true }).handedOut(given());
    const spec = checked['spec'] as { containers: { env: object[] }[] };
    const env = spec.containers[0]?.env;
    assert.ok(env !== undefined && Object.isFrozen(spec) && Object.isFrozen(env[0]), 'frozen throughout');
    assert.ok(Object.isFrozen(checked['status']));
    assert.throws(() => env.push({ name: 'F' }), TypeError);
    assert.ok(!Object.isFrozen(checked) && !Object.isFrozen(checked.metadata), 'metadata stays the taker’s');
    if (checked.metadata !== undefined) checked.metadata.labels = { b: '2' };
  });

  it('compacts what it keeps, and only that', () => {
    const compacted: string[] = [];
    const compact = (v: string): string => {
      compacted.push(v);
      return v.toUpperCase();
    };
    const recent = new RecentWrites<string>(10, { compact });
    recent.put('/a', { revision: 1, bytes: 5 }, 'a');
    recent.put('/big', { revision: 2, bytes: 11 }, 'big');
    assert.deepEqual(compacted, ['a']);
    assert.equal(recent.take('/a', 1), 'A');
  });
});

/** An update that labels the pod `n` and records the object it was given. */
function labelling(n: number, seen: TestObject[], handOver: boolean) {
  return {
    handOver,
    tryUpdate: (existing: TestObject | null, _res: ResponseMeta): TestObject => {
      if (existing === null) throw new Error('no pod');
      seen.push(existing);
      return { ...existing, metadata: { ...existing.metadata, labels: { n: String(n) } } };
    },
  };
}

const key = '/pods/ns/p';

/** A cacher sharing `recent`, holding pod ns/p, handed to `test`; closed after. */
async function withPod(
  test: (pods: PodCacher, recent: RecentWrites<KubeObject>) => Promise<void>,
): Promise<void> {
  const recent = new RecentWrites<KubeObject>(1 << 20);
  const pods = await podCacher({ recentWrites: recent });
  try {
    await pods.cacher.create(key, pod('ns', 'p'));
    await test(pods, recent);
  } finally {
    await pods.close();
  }
}

describe('a cacher with recent writes', () => {
  it('gives the next update the object a handed-over write returned', () =>
    withPod(async (pods, recent) => {
      const seen: TestObject[] = [];
      const first = await pods.cacher.guaranteedUpdate(key, labelling(1, seen, true));
      assert.equal(recent.size, 1);
      await caughtUp(pods.cacher, rvOf(first));
      const second = await pods.cacher.guaranteedUpdate(key, labelling(2, seen, false));
      assert.equal(seen[1], first, 'the same object, not a decode');
      assert.equal(recent.size, 0, 'given out once; a write not handed over keeps nothing');
      await caughtUp(pods.cacher, rvOf(second));
      await pods.cacher.guaranteedUpdate(key, labelling(3, seen, true));
      assert.notEqual(seen[2], second, 'decoded from the cache');
      assert.deepEqual(seen[2], second);
    }));

  it('decodes when the object changed since the handed-over write', () =>
    withPod(async (pods) => {
      const seen: TestObject[] = [];
      const first = await pods.cacher.guaranteedUpdate(key, labelling(1, seen, true));
      // Another writer, past the cache (another replica, or a TTL): the kept object is stale.
      const other = await pods.store.guaranteedUpdate(key, labelling(2, [], false));
      await caughtUp(pods.cacher, rvOf(other));
      await pods.cacher.guaranteedUpdate(key, labelling(3, seen, true));
      const given = seen[1];
      assert.ok(given !== undefined && given !== first);
      assert.deepEqual(given.metadata.labels, { n: '2' });
      assert.equal(given.metadata.resourceVersion, other.metadata.resourceVersion);
    }));
});

/** An update that labels the pod `n` and gives it a manager owning its labels, in a tree of its own. */
function managing(n: number, seen: TestObject[]) {
  return {
    handOver: true,
    tryUpdate: (existing: TestObject | null, _res: ResponseMeta): TestObject => {
      if (existing === null) throw new Error('no pod');
      seen.push(existing);
      const owned = FieldSet.of([
        { kind: 'field', name: 'metadata' },
        { kind: 'field', name: 'labels' },
        { kind: 'field', name: 'n' },
      ]);
      const managedFields = [
        {
          manager: 'm',
          operation: 'Update' as const,
          apiVersion: 'v1',
          fieldsType: 'FieldsV1',
          fieldsV1: encodeFieldsV1(owned),
        },
      ];
      return { ...existing, metadata: { ...existing.metadata, labels: { n: String(n) }, managedFields } };
    },
  };
}

describe("a checking server's recent writes", () => {
  it('hand updates kept and decoded objects frozen past metadata', async () => {
    const pods = await podCacher({ recentWrites: serverRecentWrites(true) });
    try {
      const created = await pods.cacher.create(key, pod('ns', 'p', { nodeName: 'n1' }));
      await caughtUp(pods.cacher, rvOf(created));
      const seen: TestObject[] = [];
      const first = await pods.cacher.guaranteedUpdate(key, labelling(1, seen, true));
      await caughtUp(pods.cacher, rvOf(first));
      await pods.cacher.guaranteedUpdate(key, labelling(2, seen, true));
      const [decoded, kept] = seen;
      assert.ok(decoded !== undefined && kept !== undefined);
      assert.equal(kept, first, 'the kept object');
      assert.ok(Object.isFrozen(first.spec), 'frozen from the write that kept it on');
      for (const given of [decoded, kept]) {
        assert.ok(Object.isFrozen(given.spec) && !Object.isFrozen(given.metadata));
        assert.throws(() => {
          if (given.spec !== undefined) given.spec.nodeName = 'n2';
        }, TypeError);
      }
    } finally {
      await pods.close();
    }
  });
});

describe("a server's recent writes", () => {
  it('give the objects they keep one frozen FieldsV1 tree per text', async () => {
    const pods = await podCacher({ recentWrites: serverRecentWrites() });
    try {
      const keys = ['/pods/ns/p', '/pods/ns/q'];
      for (const k of keys) await pods.cacher.create(k, pod('ns', k.slice(-1)));
      const written: TestObject[] = [];
      for (const k of keys) written.push(await pods.cacher.guaranteedUpdate(k, managing(1, [])));
      const [p, q] = written;
      assert.ok(p !== undefined && q !== undefined);
      await caughtUp(pods.cacher, rvOf(q));
      const seen: TestObject[] = [];
      for (const k of keys) await pods.cacher.guaranteedUpdate(k, labelling(2, seen, true));
      const [givenP, givenQ] = seen;
      assert.equal(givenP, p, 'the kept objects are given out');
      assert.equal(givenQ, q);
      const tree = p.metadata.managedFields?.[0]?.fieldsV1;
      assert.ok(tree !== undefined && Object.isFrozen(tree));
      assert.equal(q.metadata.managedFields?.[0]?.fieldsV1, tree, 'one tree for the two');
      // What the updates after them stored: the same entries, read back from storage.
      for (const k of keys) {
        const stored = await pods.store.get(k, {});
        assert.ok(stored !== null);
        assert.deepEqual(stored.metadata.managedFields, p.metadata.managedFields);
        assert.deepEqual(stored.metadata.labels, { n: '2' });
      }
    } finally {
      await pods.close();
    }
  });
});
