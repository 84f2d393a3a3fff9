// The Table of custom resources from a CRD version's additionalPrinterColumns, as kube's
// apiextensions-apiserver pkg/registry/customresource/tableconvertor/tableconvertor.go.
import type { CustomResourceColumnDefinition } from '../../../../api/apiextensions/v1/crd.js';
import type { KubeObject } from '../../../../api/meta.js';
import type { TableColumnDefinition } from '../../../../api/table.js';
import type { GroupResource } from '../../../../machinery/schema/group-resource.js';
import { humanDuration } from '../../../generic/human-duration.js';
import {
  nameColumn,
  objectMetaCreationTimestampDescription,
  tableConvertorFor,
} from '../../../generic/table-convertor.js';
import type { TableConvertor } from '../../../rest/capabilities.js';
import { goPrintValue } from './go-values.js';
import { findResults, type JSONPath, parseJSONPath } from './jsonpath.js';

/** The columns kube serves for a CRD version without any (serveDefaultColumnsIfEmpty). */
export const defaultCustomResourceColumns: readonly CustomResourceColumnDefinition[] = [
  {
    name: 'Age',
    type: 'date',
    description: objectMetaCreationTimestampDescription,
    jsonPath: '.metadata.creationTimestamp',
  },
];

export interface CustomResourceTableConvertorOptions {
  readonly columns: readonly CustomResourceColumnDefinition[];
  readonly resource: GroupResource;
  /**
   * Told about a column whose jsonPath does not parse. As kube, the convertor then keeps only the
   * columns before it (kube logs and serves that table).
   */
  readonly onInvalidColumn?: (err: Error) => void;
}

interface Column {
  readonly definition: TableColumnDefinition;
  readonly path: JSONPath;
}

/** The columns that parse, in order, up to the first that does not. */
function parseColumns(opts: CustomResourceTableConvertorOptions): Column[] {
  const crdColumns = opts.columns.length > 0 ? opts.columns : defaultCustomResourceColumns;
  const columns: Column[] = [];
  for (const col of crdColumns) {
    let path: JSONPath;
    try {
      path = parseJSONPath(col.jsonPath);
    } catch (err) {
      opts.onInvalidColumn?.(
        new Error(`unrecognized column definition ${JSON.stringify(col.jsonPath)}`, { cause: err }),
      );
      break;
    }
    const description =
      col.description !== undefined && col.description !== ''
        ? col.description
        : `Custom resource definition column (in JSONPath format): ${col.jsonPath}`;
    columns.push({
      definition: {
        name: col.name,
        type: col.type,
        format: col.format ?? '',
        description,
        priority: col.priority ?? 0,
      },
      path,
    });
  }
  return columns;
}

/** The cell of a value by its column's type; null where the type does not match (cellForJSONValue). */
export function cellForJSONValue(options: { type: string; value: unknown; now: number }): unknown {
  const { type, value, now } = options;
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer':
      // kube converts a float64 to int64, dropping the fraction
      return typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'string':
      return typeof value === 'string' ? value : null;
    case 'date':
      return typeof value === 'string' ? humanReadableDate(value, now) : null;
    default:
      return null;
  }
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:[.,](\d+))?(Z|([+-])(\d{2}):(\d{2}))$/;
/** Go's zero time.Time, 0001-01-01T00:00:00Z, in milliseconds since the epoch. */
const ZERO_TIME = -62135596800000;

/** Milliseconds since the epoch of Go's time.Parse(time.RFC3339, s), or undefined where it fails. */
export function parseRFC3339(s: string): number | undefined {
  const m = RFC3339.exec(s);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let offset = 0;
  if (m[8] !== 'Z') {
    const [oh, om] = [Number(m[10]), Number(m[11])];
    if (oh > 23 || om > 59) return undefined;
    offset = (m[9] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute, second, Number(`0.${m[7] ?? '0'}`) * 1000);
  return at.getTime() - offset;
}

function daysIn(year: number, month: number): number {
  if (month !== 2) return [31, 0, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}

/** metav1.Time.UnmarshalQueryParameter then table.ConvertToHumanReadableDateType. */
function humanReadableDate(value: string, now: number): string {
  if (value === '' || value === 'null') return '<unknown>';
  const at = parseRFC3339(value);
  if (at === undefined) return '<invalid>';
  if (at === ZERO_TIME) return '<unknown>';
  return humanDuration(now - at);
}

/** The cell of one column for one object: the first value of the first result list, or null. */
function cellOf(column: Column, obj: KubeObject, now: number): unknown {
  let results: unknown[][];
  try {
    results = findResults(column.path, obj, { allowMissingKeys: true });
  } catch {
    return null;
  }
  const first = results[0];
  if (first === undefined || first.length === 0) return null;
  const value = first[0];
  // a string column prints any value as kubectl's jsonpath output would
  if (column.definition.type === 'string') return goPrintValue(value);
  return cellForJSONValue({ type: column.definition.type, value, now });
}

/**
 * The TableConvertor of a custom resource: Name, then the version's additionalPrinterColumns (or Age
 * when it has none).
 */
export function newCustomResourceTableConvertor(opts: CustomResourceTableConvertorOptions): TableConvertor {
  const columns = parseColumns(opts);
  return tableConvertorFor({
    columns: [nameColumn, ...columns.map((c) => c.definition)],
    cells: (obj, now) => [obj.metadata?.name ?? '', ...columns.map((c) => cellOf(c, obj, now))],
  });
}
