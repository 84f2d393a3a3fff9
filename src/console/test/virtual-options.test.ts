import { it } from 'node:test';
import assert from 'node:assert/strict';
import { Virtualizer } from '@tanstack/virtual-core';
import { overscan, rowHeight, tableVirtualizerOptions } from '../virtual-options.js';

/** The table's virtualizer over a scroll element of `height` px, scrolled to `offset`. */
function windowAt(o: { count: number; height: number; offset: number }) {
  const element = {} as HTMLDivElement;
  let scrollTo: ((offset: number, isScrolling: boolean) => void) | undefined;
  const v = new Virtualizer({
    ...tableVirtualizerOptions({
      count: o.count,
      getScrollElement: () => element,
      onChange: () => undefined,
    }),
    // The DOM's observers replaced by a fixed viewport.
    observeElementRect: (_v, cb) => {
      cb({ width: 800, height: o.height });
      return () => undefined;
    },
    observeElementOffset: (_v, cb) => {
      scrollTo = cb;
      cb(o.offset, false);
      return () => undefined;
    },
  });
  const cleanup = v._didMount();
  v._willUpdate();
  const rows = () => v.getVirtualItems().map((i) => i.index);
  return { v, rows, scroll: (px: number) => scrollTo?.(px, false), cleanup };
}

it('renders the rows in view and the overscan around them, not the whole list', () => {
  const w = windowAt({ count: 10_000, height: 10 * rowHeight, offset: 0 });
  assert.deepEqual(
    w.rows(),
    Array.from({ length: 10 + overscan }, (_, i) => i),
  );
  assert.equal(w.v.getTotalSize(), 10_000 * rowHeight);
  w.scroll(5_000 * rowHeight);
  const rows = w.rows();
  assert.equal(rows[0], 5_000 - overscan);
  assert.equal(rows.at(-1), 5_000 + 10 - 1 + overscan);
  assert.equal(w.v.getVirtualItems()[overscan]?.start, 5_000 * rowHeight);
  w.cleanup();
});

it('keeps each row at its index times the row height as the count grows (no jump)', () => {
  const w = windowAt({ count: 100, height: 5 * rowHeight, offset: 40 * rowHeight });
  const before = w.v.getVirtualItems().map((i) => [i.index, i.start]);
  w.v.setOptions({ ...w.v.options, count: 101 });
  w.v._willUpdate();
  assert.deepEqual(
    w.v.getVirtualItems().map((i) => [i.index, i.start]),
    before,
  );
  for (const [index, start] of before) assert.equal(start, (index ?? 0) * rowHeight);
  w.cleanup();
});

it('renders nothing for an empty list', () => {
  const w = windowAt({ count: 0, height: 300, offset: 0 });
  assert.deepEqual(w.rows(), []);
  w.cleanup();
});
