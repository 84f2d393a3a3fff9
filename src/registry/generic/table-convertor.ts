// Table output for `kubectl get`: the default convertor (rest.NewDefaultTableConvertor: Name and
// Created At) and a builder for per-kind columns as kube's printers define them.
import type { KubeList, KubeObject } from '../../api/meta.js';
import type { Table, TableColumnDefinition, TableRow, TableRowCondition } from '../../api/table.js';
import type { GroupResource } from '../../machinery/schema/group-resource.js';
import type { TableConvertor } from '../rest/capabilities.js';
import { rfc3339 } from './object-meta.js';

/** metav1.ObjectMeta{}.SwaggerDoc()["name"]. */
export const objectMetaNameDescription =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';

/** metav1.ObjectMeta{}.SwaggerDoc()["creationTimestamp"]. */
export const objectMetaCreationTimestampDescription =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/** The NAME column every kind's printer starts with. */
export const nameColumn: TableColumnDefinition = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: objectMetaNameDescription,
  priority: 0,
};

/** The AGE column of kube's printers. */
export const ageColumn: TableColumnDefinition = {
  name: 'Age',
  type: 'string',
  format: '',
  description: objectMetaCreationTimestampDescription,
  priority: 0,
};

export type IncludeObject = 'None' | 'Object' | 'Metadata';

function isList(obj: KubeObject | KubeList): obj is KubeList {
  return Array.isArray((obj as { items?: unknown }).items);
}

/** The row's object per includeObject; Metadata (the default) is a PartialObjectMetadata. */
function rowObject(obj: KubeObject, include: IncludeObject): KubeObject | undefined {
  switch (include) {
    case 'None':
      return undefined;
    case 'Object':
      return obj;
    case 'Metadata':
      return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata ?? {} };
  }
}

export interface TableSpec<T extends KubeObject> {
  readonly columns: readonly TableColumnDefinition[];
  /** The cells of one object, in column order; `now` is the time AGE is measured against. */
  cells(obj: T, now: number): unknown[];
  /** The row's conditions (a finished pod's Completed), when it has any. */
  conditions?(obj: T): TableRowCondition[] | undefined;
}

/** A TableConvertor from column definitions and a cell function. */
export function tableConvertorFor<T extends KubeObject>(spec: TableSpec<T>): TableConvertor {
  return {
    convertToTable(_ctx, obj, opts): Table {
      const include = opts.includeObject ?? 'Metadata';
      const now = opts.now ?? Date.now();
      const items = isList(obj) ? (obj.items as T[]) : [obj as T];
      const rows = items.map((item): TableRow => {
        const row: TableRow = { cells: spec.cells(item, now) };
        const conditions = spec.conditions?.(item);
        if (conditions !== undefined) row.conditions = conditions;
        const object = rowObject(item, include);
        if (object !== undefined) row.object = object;
        return row;
      });
      const table: Table = {
        kind: 'Table',
        apiVersion: 'meta.k8s.io/v1',
        metadata: {},
        columnDefinitions: spec.columns.map((c) => ({ ...c })),
        rows,
      };
      if (isList(obj)) {
        const m = obj.metadata;
        if (m.resourceVersion !== undefined) table.metadata.resourceVersion = m.resourceVersion;
        if (m.continue !== undefined) table.metadata.continue = m.continue;
        if (m.remainingItemCount !== undefined) table.metadata.remainingItemCount = m.remainingItemCount;
      } else if (obj.metadata?.resourceVersion !== undefined) {
        table.metadata.resourceVersion = obj.metadata.resourceVersion;
      }
      return table;
    },
  };
}

function createdAt(obj: KubeObject): string {
  const ts = obj.metadata?.creationTimestamp;
  // Go formats the zero time for an object without one.
  if (ts === undefined || ts === '') return '0001-01-01T00:00:00Z';
  const ms = Date.parse(ts);
  return Number.isNaN(ms) ? ts : rfc3339(new Date(ms));
}

/** rest.NewDefaultTableConvertor: Name and Created At, for kinds without printer columns. */
export function newDefaultTableConvertor(_qualifiedResource: GroupResource): TableConvertor {
  return tableConvertorFor({
    columns: [
      nameColumn,
      {
        name: 'Created At',
        type: 'date',
        format: '',
        description: objectMetaCreationTimestampDescription,
        priority: 0,
      },
    ],
    cells: (obj) => [obj.metadata?.name ?? '', createdAt(obj)],
  });
}
