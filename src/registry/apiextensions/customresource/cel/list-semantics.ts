// kube's CEL values of `x-kubernetes-list-type: set` and `map` lists (apiserver pkg/cel/common/
// values.go, unstructuredSetList and unstructuredMapList): `==` ignores their order (a set's
// elements, a map list's items by key), and `+` is a union for a set (X's elements, then Y's not in
// X) and a merge for a map list (X's keys in place, their items replaced by Y's of the same key, Y's
// other items after). The left operand decides, as in kube; equality reaches such lists inside
// objects and lists too. values.ts marks the lists, and the objects and lists holding one, when it
// converts a custom resource; `==`, `!=` and list `+` are replaced by versions that read the marks
// and leave everything unmarked to @bufbuild/cel's own.
import type * as Cel from '@bufbuild/cel';

type Module = typeof Cel;

export type ListKind = { readonly type: 'set' } | { readonly type: 'map'; readonly keys: readonly string[] };

/** A value's identity as a Go map key: the same only for equal scalars of the same type. */
function keyOf(v: unknown): string {
  if (typeof v === 'bigint') return `i${v}`;
  if (typeof v === 'number') return `d${v}`;
  if (typeof v === 'string') return `s${v}`;
  if (typeof v === 'boolean') return v ? 'T' : 'F';
  return 'z';
}

export class UnorderedLists {
  readonly #kinds = new WeakMap<object, ListKind>();
  /** Objects and lists that hold a set or map list somewhere inside. */
  readonly #holders = new WeakSet<object>();

  /** `list` (a CelList) as a list of this kind. */
  mark(list: object, kind: ListKind): void {
    this.#kinds.set(list, kind);
  }

  /** `value` (a CelList or CelMap) as holding a marked list. */
  markHolder(value: object): void {
    this.#holders.add(value);
  }

  /** Whether `v` is a marked list or holds one. */
  marked(v: unknown): boolean {
    return typeof v === 'object' && v !== null && (this.#kinds.has(v) || this.#holders.has(v));
  }

  /** `==`, `!=` and list `+` replacing those of `std` (the environment's own, by id). */
  funcs(cel: Module, std: { equals: Cel.CelFunc; add: Cel.CelFunc }): Cel.CelFunc[] {
    const { DYN, BOOL } = cel.CelScalar;
    const list = cel.listType(DYN);
    const plainEquals = (a: unknown, b: unknown): boolean =>
      std.equals.call(0, undefined, [a as Cel.CelValue, b as Cel.CelValue]) === true;
    const equals = (a: unknown, b: unknown): boolean =>
      this.marked(a) || this.marked(b) ? this.#equals(cel, { a, b, plainEquals }) : plainEquals(a, b);
    return [
      cel.celFunc('_==_', [DYN, DYN], BOOL, (a, b) => equals(a, b)),
      cel.celFunc('_!=_', [DYN, DYN], BOOL, (a, b) => !equals(a, b)),
      cel.celFunc('_+_', [list, list], list, (a, b) => {
        const kind = this.#kinds.get(a);
        if (kind === undefined) return std.add.call(0, undefined, [a, b]) as Cel.CelList;
        const merged = cel.celList(kind.type === 'set' ? union(a, b) : mergeByKey(a, b, kind.keys));
        this.mark(merged, kind);
        return merged;
      }),
    ];
  }

  #equals(cel: Module, c: { a: unknown; b: unknown; plainEquals: (a: unknown, b: unknown) => boolean }): boolean {
    const { a, b, plainEquals } = c;
    const same = (x: unknown, y: unknown): boolean => this.#equals(cel, { a: x, b: y, plainEquals });
    if (cel.isCelList(a)) {
      if (!cel.isCelList(b) || a.size !== b.size) return false;
      const kind = this.#kinds.get(a);
      if (kind?.type === 'set') {
        const keys = new Set([...a].map(keyOf));
        return [...b].every((x) => keys.has(keyOf(x)));
      }
      if (kind?.type === 'map') {
        const byKey = new Map([...a].map((x) => [itemKey(x, kind.keys), x] as const));
        return [...b].every((y) => {
          const x = byKey.get(itemKey(y, kind.keys));
          return x !== undefined && same(x, y);
        });
      }
      for (let i = 0; i < a.size; i++) if (!same(a.get(i), b.get(i))) return false;
      return true;
    }
    if (cel.isCelMap(a)) {
      if (!cel.isCelMap(b) || a.size !== b.size) return false;
      for (const [k, v] of a) {
        const w = b.get(k);
        if (w === undefined || !same(v, w)) return false;
      }
      return true;
    }
    return plainEquals(a, b);
  }
}

/** A map list item's key: its key fields' values (an item is a CEL map, or a JS Map before CEL wraps it). */
function itemKey(item: unknown, keys: readonly string[]): string {
  const fields = item as { get?: (k: string) => unknown } | null;
  return keys.map((k) => keyOf(fields?.get?.(k))).join('\u0000');
}

function union(a: Cel.CelList, b: Cel.CelList): Cel.CelValue[] {
  const out = [...a];
  const seen = new Set(out.map(keyOf));
  for (const x of b) {
    const k = keyOf(x);
    if (!seen.has(k)) {
      seen.add(k);
      out.push(x);
    }
  }
  return out;
}

function mergeByKey(a: Cel.CelList, b: Cel.CelList, keys: readonly string[]): Cel.CelValue[] {
  const out = [...a];
  const at = new Map(out.map((x, i) => [itemKey(x, keys), i] as const));
  for (const y of b) {
    const i = at.get(itemKey(y, keys));
    if (i === undefined) out.push(y);
    else out[i] = y;
  }
  return out;
}
