// JSON text of a value some of whose objects have array-index keys ("0", "10", "9"): JavaScript lists
// those first, in numeric order, whatever order they were set in, so JSON.stringify cannot write
// them as Go writes a map, its keys sorted as strings ("10" < "9" < "a"). Here each object holding
// such a key is written with all its keys sorted as Go sorts them (only maps have such keys: no Go
// struct field is named by a number); every other object keeps its own order, and so does every
// object inside a RawExtension's contents (`raw`: Go writes those as they were sent). Slower than
// JSON.stringify, and used only for text that has such a key (goJSONText finds out).
import { compareGoKeys, isArrayIndexKey } from './sorted-members.js';

const hasToJSON = (v: object): v is { toJSON: (key: string) => unknown } =>
  typeof (v as { toJSON?: unknown }).toJSON === 'function';

/** The keys of an object in the order Go writes it: sorted when it has an array-index key (unless `kept`). */
function keysOf(obj: object, kept: boolean): string[] {
  const keys = Object.keys(obj);
  if (!kept && keys.length > 1 && isArrayIndexKey(keys[0] as string)) keys.sort(compareGoKeys);
  return keys;
}

/** How text is laid out, and the values whose contents keep their order (nothing below them sorted). */
interface Layout {
  readonly indent: string;
  readonly gap: string;
  readonly raw: ReadonlySet<object>;
  /** Inside one of `raw`. */
  readonly kept: boolean;
}

/**
 * JSON.stringify's text of `value` (under `key`, indented by `gap` per level), but for the order of
 * index keys; undefined where JSON.stringify gives none.
 */
function write(value: unknown, key: string, layout: Layout): string | undefined {
  if (typeof value === 'object' && value !== null && hasToJSON(value)) value = value.toJSON(key);
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (value instanceof Number || value instanceof String || value instanceof Boolean)
    return JSON.stringify(value);
  const { indent, gap, raw } = layout;
  const kept = layout.kept || raw.has(value);
  const inner: Layout = { indent: indent + gap, gap, raw, kept };
  const open = gap === '' ? '' : `\n${inner.indent}`;
  const separator = gap === '' ? ',' : `,\n${inner.indent}`;
  const close = gap === '' ? '' : `\n${indent}`;
  const parts: string[] = [];
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) parts.push(write(value[i], String(i), inner) ?? 'null');
    return parts.length === 0 ? '[]' : `[${open}${parts.join(separator)}${close}]`;
  }
  const obj = value as Record<string, unknown>;
  for (const k of keysOf(obj, kept)) {
    const text = write(obj[k], k, inner);
    if (text !== undefined) parts.push(`${JSON.stringify(k)}:${gap === '' ? '' : ' '}${text}`);
  }
  return parts.length === 0 ? '{}' : `{${open}${parts.join(separator)}${close}}`;
}

/**
 * JSON.stringify(value) (indented by two spaces when `pretty`) with objects holding array-index keys
 * sorted as Go maps, but for those in and below the objects and lists of `raw`.
 */
export function indexKeySortedText(
  value: unknown,
  pretty: boolean,
  raw: ReadonlySet<object> = new Set(),
): string | undefined {
  return write(value, '', { indent: '', gap: pretty ? '  ' : '', raw, kept: false });
}
