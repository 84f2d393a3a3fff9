import { it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { initialFeed, mergeEvent } from '../event-feed.js';
import { LiveRows, rowKey, type TableRow } from '../table-rows.js';

const row = (namespace: string, name: string, status = 'Pending'): TableRow => ({
  cells: [name, status],
  object: { metadata: { namespace, name } },
});
const table = (...rows: TableRow[]) => ({ rows, metadata: {} });
const names = (rows: readonly TableRow[]): string[] => rows.map(rowKey);

it('keeps rows sorted by namespace and name whatever order they arrive in', () => {
  const live = new LiveRows();
  live.reset([row('b', 'x'), row('a', 'z'), row('a', 'y')]);
  live.apply('ADDED', table(row('a', 'a')));
  assert.deepEqual(names(live.sorted), ['a/a', 'a/y', 'a/z', 'b/x']);
});

it('updates a MODIFIED row where it is: no row moves, none is added', () => {
  const live = new LiveRows();
  live.reset([row('ns', 'a'), row('ns', 'b'), row('ns', 'c')]);
  live.apply('MODIFIED', table(row('ns', 'b', 'Running')));
  assert.deepEqual(names(live.sorted), ['ns/a', 'ns/b', 'ns/c']);
  assert.deepEqual(live.sorted[1]?.cells, ['b', 'Running']);
  live.apply('DELETED', table(row('ns', 'a')));
  assert.deepEqual(names(live.sorted), ['ns/b', 'ns/c']);
});

it('never reorders the rows it keeps, for any run of watch events', () => {
  const key = fc.record({ ns: fc.constantFrom('a', 'b', ''), name: fc.constantFrom('p', 'q', 'r', 's') });
  const event = fc.record({
    type: fc.constantFrom('ADDED', 'MODIFIED', 'DELETED'),
    key,
    status: fc.string(),
  });
  fc.assert(
    fc.property(fc.array(event, { maxLength: 40 }), (events) => {
      const live = new LiveRows();
      const model = new Map<string, string>();
      for (const e of events) {
        const before = names(live.sorted);
        live.apply(e.type, table(row(e.key.ns, e.key.name, e.status)));
        const k = `${e.key.ns}/${e.key.name}`;
        if (e.type === 'DELETED') model.delete(k);
        else model.set(k, e.status);
        const after = names(live.sorted);
        // Rows present before and after keep their relative order (no jump).
        const kept = after.filter((n) => before.includes(n));
        assert.deepEqual(
          kept,
          before.filter((n) => after.includes(n)),
        );
        if (e.type === 'MODIFIED' && before.includes(k)) assert.deepEqual(after, before);
      }
      assert.deepEqual(names(live.sorted), [...model.keys()].sort());
      for (const r of live.sorted) assert.equal(r.cells[1], model.get(rowKey(r)));
    }),
  );
});

interface Ev {
  metadata: { uid: string; name: string };
  count: number;
}
const ev = (uid: string, count = 1): Ev => ({ metadata: { uid, name: uid }, count });

it('feeds events newest first, keeps the newest, and moves one seen again to the top', () => {
  const feed = initialFeed([ev('1'), ev('2'), ev('3')], 2);
  assert.deepEqual(
    feed.map((e) => e.metadata.uid),
    ['3', '2'],
  );
  const added = mergeEvent(feed, { type: 'ADDED', object: ev('4') }, 2);
  assert.deepEqual(
    added.map((e) => e.metadata.uid),
    ['4', '3'],
  );
  const again = mergeEvent(added, { type: 'MODIFIED', object: ev('3', 2) }, 2);
  assert.deepEqual(
    again.map((e) => [e.metadata.uid, e.count]),
    [
      ['3', 2],
      ['4', 1],
    ],
  );
  const once = mergeEvent([ev('2'), ev('1')], { type: 'MODIFIED', object: ev('1', 5) }, 10);
  assert.deepEqual(
    once.map((e) => [e.metadata.uid, e.count]),
    [
      ['1', 5],
      ['2', 1],
    ],
  );
});

it('leaves the feed as it is for deleted events, bookmarks and errors', () => {
  const feed = [ev('2'), ev('1')];
  for (const type of ['DELETED', 'BOOKMARK', 'ERROR'])
    assert.equal(mergeEvent(feed, { type, object: ev('1') }, 10), feed);
});
