// The robustness checkers checked: hand-made histories that are linearizable pass, and ones that are
// not (a stale read, a lost acknowledged write, a conflict on a fresh precondition, two updates from one
// precondition, a write seen and then unseen) fail with a minimal sub-history; the watch checks find a
// gap, a repeat, a bookmark ahead of its events, two accounts of one revision and a list that differs
// from the replay. Last, a store that acknowledges writes before committing them, driven by concurrent
// clients through the recorder, fails the checker, while the same store committing first passes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeStore } from './support/fake-store.js';
import {
  Recorder,
  type History,
  type KvInput,
  type KvOutput,
  type Operation,
  type WatchSegment,
} from './support/history.js';
import { checkLinearizable, linearizable } from './support/linearizability.js';
import { checkWatchesAndLists } from './support/watch-check.js';

let nextId = 0;
function op(client: number, span: [number, number], input: KvInput, output: KvOutput): Operation {
  const ret = output.type === 'unknown' ? Infinity : span[1];
  return { id: nextId++, client, input, output, call: span[0], ret };
}
const ok = (rv: number, value: string): KvOutput => ({ type: 'ok', rv, value });
const unknown: KvOutput = { type: 'unknown', error: 'timeout' };
const create = (value: string): KvInput => ({ kind: 'create', key: 'a', value });
const update = (value: string, precondition: number): KvInput => ({
  kind: 'update',
  key: 'a',
  value,
  precondition,
});
const get: KvInput = { kind: 'get', key: 'a' };
const del = (precondition?: number): KvInput =>
  precondition === undefined ? { kind: 'delete', key: 'a' } : { kind: 'delete', key: 'a', precondition };

describe('linearizability checker', () => {
  it('accepts a sequential history of every verb', () => {
    const h = [
      op(1, [0, 1], get, { type: 'notFound' }),
      op(1, [2, 3], create('x'), ok(5, 'x')),
      op(1, [4, 5], create('y'), { type: 'exists' }),
      op(1, [6, 7], update('y', 4), { type: 'conflict' }),
      op(1, [8, 9], update('y', 5), ok(9, 'y')),
      op(1, [10, 11], get, ok(9, 'y')),
      op(1, [12, 13], del(5), { type: 'conflict' }),
      op(1, [14, 15], del(9), ok(12, 'y')),
      op(1, [16, 17], update('z', 12), { type: 'notFound' }),
      op(1, [18, 19], create('z'), ok(14, 'z')),
    ];
    assert.deepEqual(checkLinearizable(h), { ok: true });
  });

  it('accepts concurrent writes read in either order while they overlap', () => {
    const h = [
      op(1, [0, 1], create('x'), ok(5, 'x')),
      op(1, [2, 10], update('y', 5), ok(7, 'y')),
      op(2, [3, 11], update('z', 5), { type: 'conflict' }),
      op(3, [4, 5], get, ok(5, 'x')),
      op(3, [6, 7], get, ok(7, 'y')),
    ];
    assert.ok(linearizable(h));
  });

  it('fails a stale read and prints the two operations that show it', () => {
    const h = [
      op(1, [0, 1], create('x'), ok(5, 'x')),
      op(2, [0.5, 1.5], get, { type: 'notFound' }),
      op(1, [2, 3], update('y', 5), ok(7, 'y')),
      op(3, [4, 5], get, ok(7, 'y')),
      op(2, [6, 7], get, ok(5, 'x')),
    ];
    const result = checkLinearizable(h);
    if (result.ok) assert.fail('a stale read passed');
    assert.deepEqual(
      result.minimal.map((o) => o.input.kind),
      ['update', 'get'],
    );
    assert.match(result.report, /get\(a\) → ok rv=5 value=x/);
  });

  it('fails a lost acknowledged write', () => {
    const h = [op(1, [0, 1], create('x'), ok(5, 'x')), op(2, [2, 3], get, { type: 'notFound' })];
    assert.equal(linearizable(h), false);
  });

  it('fails a conflict on the current resourceVersion and two updates from one precondition', () => {
    const fresh = [
      op(1, [0, 1], create('x'), ok(5, 'x')),
      op(1, [2, 3], update('y', 5), { type: 'conflict' }),
    ];
    assert.equal(linearizable(fresh), false);
    const twice = [
      op(1, [0, 1], create('x'), ok(5, 'x')),
      op(1, [2, 5], update('y', 5), ok(7, 'y')),
      op(2, [2, 5], update('z', 5), ok(8, 'z')),
    ];
    assert.equal(linearizable(twice), false);
  });

  it('fails a resourceVersion that goes back', () => {
    const h = [op(1, [0, 1], create('x'), ok(5, 'x')), op(1, [2, 3], update('y', 5), ok(4, 'y'))];
    assert.equal(linearizable(h), false);
  });

  it('lets a write of unknown outcome happen late or never, but not be seen and then unseen', () => {
    const late = [
      op(1, [0, 1], create('x'), unknown),
      op(2, [2, 3], get, { type: 'notFound' }),
      op(2, [4, 5], get, ok(6, 'x')),
      op(2, [6, 7], update('y', 6), ok(8, 'y')),
    ];
    assert.ok(linearizable(late));
    const never = [op(1, [0, 1], create('x'), unknown), op(2, [2, 3], get, { type: 'notFound' })];
    assert.ok(linearizable(never));
    const flicker = [
      ...never.slice(0, 1),
      op(2, [2, 3], get, ok(6, 'x')),
      op(2, [4, 5], get, { type: 'notFound' }),
    ];
    assert.equal(linearizable(flicker), false);
    const unknownDelete = [
      op(1, [0, 1], create('x'), ok(5, 'x')),
      op(1, [2, 3], del(), unknown),
      op(2, [4, 5], get, ok(5, 'x')),
      op(2, [6, 7], get, { type: 'notFound' }),
    ];
    assert.ok(linearizable(unknownDelete));
  });
});

function seg(watcher: number, startRv: number, events: [string, string, string, number][]): WatchSegment {
  return {
    watcher,
    startRv,
    end: 'stopped',
    events: events.map(([type, key, value, rv]) => ({ type: type as 'ADDED', key, value, rv })),
  };
}

describe('watch and list checks', () => {
  const writes = [op(1, [0, 1], create('x'), ok(5, 'x')), op(1, [2, 3], update('y', 5), ok(7, 'y'))];
  const full = seg(1, 1, [
    ['ADDED', 'a', 'x', 5],
    ['MODIFIED', 'a', 'y', 7],
  ]);
  const history = (segments: WatchSegment[], lists: History['lists'] = []): History => ({
    ops: writes,
    segments,
    lists,
  });

  it('passes a complete history', () => {
    const lists = [{ client: 2, call: 4, ret: 5, rv: 7, items: [{ key: 'a', value: 'y', rv: 7 }], pages: 1 }];
    const r = checkWatchesAndLists(history([full, seg(2, 5, [['MODIFIED', 'a', 'y', 7]])], lists), 1);
    assert.deepEqual(r.problems, []);
    assert.equal(r.listsChecked, 1);
  });

  it('finds a gap, a repeat, a bookmark ahead, two accounts of a revision and a wrong list', () => {
    const gap = checkWatchesAndLists(history([full, seg(2, 1, [['MODIFIED', 'a', 'y', 7]])]), 1);
    assert.match(gap.problems.join('\n'), /watch 2 from 1 to 7 skipped ADDED a=x at 5/);
    const repeat = seg(2, 1, [
      ['ADDED', 'a', 'x', 5],
      ['ADDED', 'a', 'x', 5],
      ['MODIFIED', 'a', 'y', 7],
    ]);
    assert.match(checkWatchesAndLists(history([repeat]), 1).problems.join('\n'), /out of order or repeated/);
    const ahead = seg(2, 1, [
      ['BOOKMARK', '', '', 6],
      ['ADDED', 'a', 'x', 5],
    ]);
    assert.match(checkWatchesAndLists(history([ahead]), 1).problems.join('\n'), /after a bookmark at 6/);
    const other = seg(2, 1, [['ADDED', 'a', 'w', 5]]);
    assert.match(
      checkWatchesAndLists(history([full, other]), 1).problems.join('\n'),
      /two accounts of revision 5/,
    );
    const lists = [{ client: 2, call: 4, ret: 5, rv: 6, items: [{ key: 'a', value: 'y', rv: 7 }], pages: 1 }];
    const wrong = checkWatchesAndLists(history([full], lists), 1).problems.join('\n');
    assert.match(wrong, /older than write #\d+, acknowledged before it/);
    assert.match(wrong, /list at 6: got \[a=y\], the state at 1 and the watches give \[a=x\]/);
  });

  it('finds writes whose resourceVersions go back in real time', () => {
    const back = [
      op(1, [0, 1], create('x'), ok(9, 'x')),
      op(2, [2, 3], { ...create('z'), key: 'b' }, ok(8, 'z')),
    ];
    assert.match(
      checkWatchesAndLists({ ops: back, segments: [], lists: [] }, 1).problems.join('\n'),
      /#\d+ had returned rv 9/,
    );
  });
});

/** Four clients on two keys against the fake store; the store crashes now and then. */
async function drive(store: FakeStore): Promise<Operation[]> {
  const rec = new Recorder();
  let seed = 7;
  const rand = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const known = new Map<string, number>();
  const tick = (): Promise<void> => new Promise((r) => setImmediate(r));
  const client = async (id: number): Promise<void> => {
    for (let n = 0; n < 60; n++) {
      const key = `k${rand(2)}`;
      const kinds = ['create', 'update', 'delete', 'get'] as const;
      const kind = kinds[rand(4)] ?? 'get';
      const input: KvInput =
        kind === 'update'
          ? { kind, key, value: `c${id}-${n}`, precondition: known.get(key) ?? 0 }
          : { kind, key, value: `c${id}-${n}` };
      const out = await rec.record(id, input, async () => {
        await tick();
        const o = store.apply(input);
        await tick();
        return o;
      });
      if (out.type === 'ok') known.set(key, out.rv);
      if (rand(10) === 0) store.crash();
      else if (rand(3) === 0) store.commit();
    }
  };
  await Promise.all([1, 2, 3, 4].map(client));
  return rec.history.ops;
}

describe('a broken store', () => {
  it('that acknowledges before it commits fails the checker; committing first passes', async (t) => {
    assert.deepEqual(checkLinearizable(await drive(new FakeStore({ ackBeforeCommit: false }))), { ok: true });
    const broken = checkLinearizable(await drive(new FakeStore({ ackBeforeCommit: true })));
    if (broken.ok) assert.fail('the store that acknowledges before it commits passed');
    t.diagnostic(broken.report);
    assert.ok(broken.minimal.length <= 4, broken.report);
  });
});
