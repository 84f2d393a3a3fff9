// A table of fixed-height rows rendered through @tanstack/virtual-core: only the rows in view are
// in the DOM, and columns have fixed widths, so rows arriving from a watch never move the layout.
import { Virtualizer } from '@tanstack/virtual-core';
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useReducer, useRef, useState } from 'preact/hooks';

import { rowHeight, tableVirtualizerOptions } from './virtual-options.js';

export function VirtualTable(props: {
  columns: readonly string[];
  count: number;
  selected: number;
  row: (index: number) => { key: string; name: string; cells: readonly ComponentChildren[] };
  onOpen: (index: number) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [v] = useState(
    () =>
      new Virtualizer(
        tableVirtualizerOptions({
          count: props.count,
          getScrollElement: () => scroller.current,
          onChange: () => {
            rerender(undefined);
          },
        }),
      ),
  );
  v.setOptions({ ...v.options, count: props.count });
  useLayoutEffect(() => v._didMount(), [v]);
  useLayoutEffect(() => {
    v._willUpdate();
  });
  useLayoutEffect(() => {
    if (props.selected >= 0) v.scrollToIndex(props.selected);
  }, [props.selected, v]);
  const template = { gridTemplateColumns: `repeat(${props.columns.length}, minmax(7rem, 1fr))` };
  return (
    <div class="vtable" data-testid="object-table">
      <div class="vhead" style={template}>
        {props.columns.map((c) => (
          <div key={c}>{c}</div>
        ))}
      </div>
      <div class="vscroll" ref={scroller}>
        <div style={{ height: `${v.getTotalSize()}px`, position: 'relative' }}>
          {v.getVirtualItems().map((item) => {
            const r = props.row(item.index);
            return (
              <div
                key={r.key}
                class={item.index === props.selected ? 'vrow selected' : 'vrow'}
                data-testid="row"
                data-name={r.name}
                style={{ ...template, transform: `translateY(${item.start}px)`, height: `${rowHeight}px` }}
                onClick={() => {
                  props.onOpen(item.index);
                }}
              >
                {r.cells.map((c, i) => (
                  <div key={i}>{c}</div>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
