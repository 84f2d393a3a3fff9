// The rows of a live list: a Table answer (as=Table) kept current by the watch's Table events.
export interface TableColumn {
  name: string;
  priority?: number;
}

export interface Meta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
}

export interface TableRow {
  cells: unknown[];
  object: { metadata: Meta };
}

export interface Table {
  columnDefinitions?: TableColumn[];
  rows?: TableRow[];
  metadata: { resourceVersion?: string };
}

export const rowKey = (r: TableRow): string =>
  `${r.object.metadata.namespace ?? ''}/${r.object.metadata.name}`;

/** Rows sorted by namespace and name, updated in place by watch events. */
export class LiveRows {
  readonly #rows = new Map<string, TableRow>();
  #sorted: TableRow[] | undefined;

  reset(rows: readonly TableRow[]): void {
    this.#rows.clear();
    for (const r of rows) this.#rows.set(rowKey(r), r);
    this.#sorted = undefined;
  }

  apply(type: string, table: Table): void {
    for (const r of table.rows ?? []) {
      if (type === 'DELETED') this.#rows.delete(rowKey(r));
      else this.#rows.set(rowKey(r), r);
    }
    this.#sorted = undefined;
  }

  get sorted(): readonly TableRow[] {
    this.#sorted ??= [...this.#rows.values()].sort((a, b) => (rowKey(a) < rowKey(b) ? -1 : 1));
    return this.#sorted;
  }
}
