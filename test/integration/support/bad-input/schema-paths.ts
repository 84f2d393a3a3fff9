// Every position a kind's schema describes, as paths with the type expected there: the places a
// generated body puts nulls, wrong types and odd values.
export type Segment = { readonly key: string } | { readonly item: true } | { readonly anyKey: true };

export interface SchemaPath {
  readonly segments: readonly Segment[];
  /** The schema's type at the end of the path ('' when it does not say). */
  readonly type: string;
}

type Schema = Record<string, unknown>;

const maxDepth = 8;
const maxPaths = 3000;

function resolve(s: Schema, components: Readonly<Record<string, Schema>>): Schema {
  const ref = typeof s.$ref === 'string' ? s.$ref : undefined;
  if (ref !== undefined) return components[ref.split('/').pop() ?? ''] ?? {};
  const allOf = Array.isArray(s.allOf) ? (s.allOf as Schema[]) : [];
  if (allOf.length === 0) return s;
  return allOf.reduce<Schema>((acc, part) => ({ ...acc, ...resolve(part, components) }), { ...s, allOf: undefined });
}

/** The paths of `root` (component schemas resolve through $ref and allOf), breadth first, capped. */
export function schemaPaths(root: Schema, components: Readonly<Record<string, Schema>> = {}): SchemaPath[] {
  const out: SchemaPath[] = [];
  const queue: { schema: Schema; segments: Segment[]; seen: ReadonlySet<string> }[] = [
    { schema: root, segments: [], seen: new Set() },
  ];
  for (let next = queue.shift(); next !== undefined && out.length < maxPaths; next = queue.shift()) {
    const ref = typeof next.schema.$ref === 'string' ? next.schema.$ref : '';
    const s = resolve(next.schema, components);
    const type = typeof s.type === 'string' ? s.type : '';
    if (next.segments.length > 0) out.push({ segments: next.segments, type });
    if (next.segments.length >= maxDepth || (ref !== '' && next.seen.has(ref))) continue;
    const seen = ref === '' ? next.seen : new Set([...next.seen, ref]);
    const props = (s.properties ?? {}) as Record<string, Schema>;
    for (const [key, child] of Object.entries(props))
      queue.push({ schema: child, segments: [...next.segments, { key }], seen });
    if (typeof s.items === 'object' && s.items !== null)
      queue.push({ schema: s.items as Schema, segments: [...next.segments, { item: true }], seen });
    if (typeof s.additionalProperties === 'object' && s.additionalProperties !== null)
      queue.push({
        schema: s.additionalProperties as Schema,
        segments: [...next.segments, { anyKey: true }],
        seen,
      });
  }
  return out;
}

/**
 * A copy of `obj` with `value` at `path`, making the objects and lists on the way (a list gets one
 * element, a map one key `k`).
 */
export function setAt(obj: unknown, segments: readonly Segment[], value: unknown): unknown {
  const [first, ...rest] = segments;
  if (first === undefined) return value;
  if ('item' in first) {
    const list = Array.isArray(obj) ? [...(obj as unknown[])] : [];
    list[0] = setAt(list[0], rest, value);
    return list;
  }
  const key = 'key' in first ? first.key : (Object.keys(isObject(obj) ? obj : {})[0] ?? 'k');
  const base = isObject(obj) ? { ...obj } : {};
  base[key] = setAt(base[key], rest, value);
  return base;
}

/** The JSON pointer of a path (lists at index 0, maps at key `k`). */
export function pointerOf(segments: readonly Segment[]): string {
  return segments
    .map((s) => ('key' in s ? `/${s.key.replaceAll('~', '~0').replaceAll('/', '~1')}` : 'item' in s ? '/0' : '/k'))
    .join('');
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
