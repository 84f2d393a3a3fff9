// The virtual table's rows as @tanstack/virtual-core lays them out: fixed-height rows (so a row
// arriving from a watch never moves the ones in view) and a few more than the view rendered on each
// side, so a fast scroll shows rows, not blanks.
import {
  elementScroll,
  observeElementOffset,
  observeElementRect,
  type VirtualizerOptions,
} from '@tanstack/virtual-core';

export const rowHeight = 28;
/** Rows rendered beyond each edge of the view. */
export const overscan = 12;

export type TableVirtualizerOptions = VirtualizerOptions<HTMLDivElement, HTMLDivElement>;

export function tableVirtualizerOptions(o: {
  count: number;
  getScrollElement: () => HTMLDivElement | null;
  onChange: () => void;
}): TableVirtualizerOptions {
  return {
    count: o.count,
    getScrollElement: o.getScrollElement,
    estimateSize: () => rowHeight,
    scrollToFn: elementScroll,
    observeElementRect,
    observeElementOffset,
    overscan,
    onChange: o.onChange,
  };
}
