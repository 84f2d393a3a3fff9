// List items by element, for walkers that pair the items of two lists or find duplicates. Two
// items of one list (one kind of element, one set of key fields) share an entry exactly when
// their elements' FieldsV1 keys are equal, but the lookup renders no key (goJson's escaping, an
// object to stringify): key fields are scalars and are looked up as themselves, one map per
// field in the list's key order; a set's scalar values too; other values by their JSON, which
// tells the same values apart as goJson does.
import { pathElementKey, type PathElement } from '../fieldpath/path-element.js';
import type { ListNode } from './type-node.js';

type Level = Map<unknown, unknown>;

export class ItemIndex<T> {
  /** By the first key field, then (nested) by the next; or by a scalar value. */
  readonly #byScalars: Level = new Map();
  readonly #byJSON = new Map<string, T>();

  get(pe: PathElement): T | undefined {
    const json = jsonOf(pe);
    if (json !== undefined) return this.#byJSON.get(json);
    if (pe.kind !== 'key') return this.#byScalars.get(scalarOf(pe)) as T | undefined;
    let level: Level | undefined = this.#byScalars;
    const last = pe.fields.length - 1;
    for (let i = 0; i < last && level !== undefined; i++)
      level = level.get(pe.fields[i]?.value) as Level | undefined;
    return level?.get(pe.fields[last]?.value) as T | undefined;
  }

  set(pe: PathElement, item: T): void {
    const json = jsonOf(pe);
    if (json !== undefined) {
      this.#byJSON.set(json, item);
      return;
    }
    if (pe.kind !== 'key') {
      this.#byScalars.set(scalarOf(pe), item);
      return;
    }
    let level: Level = this.#byScalars;
    const last = pe.fields.length - 1;
    for (let i = 0; i < last; i++) {
      const v = pe.fields[i]?.value;
      let next = level.get(v) as Level | undefined;
      if (next === undefined) {
        next = new Map();
        level.set(v, next);
      }
      level = next;
    }
    level.set(pe.fields[last]?.value, item);
  }
}

const scalarOf = (pe: PathElement): unknown => (pe.kind === 'value' ? pe.value : undefined);

/** The JSON of a value that is not a scalar (a set of objects or lists); undefined otherwise. */
function jsonOf(pe: PathElement): string | undefined {
  if (pe.kind !== 'value') return pe.kind === 'key' ? undefined : `${pe.kind}:${JSON.stringify(pe)}`;
  const v = pe.value;
  return v !== null && typeof v === 'object' ? JSON.stringify(v) : undefined;
}

/** Rendered keys of each list type's items, up to a bound (then started afresh). */
const renderedKeys = new WeakMap<ListNode, { readonly keys: ItemIndex<string>; size: number }>();
const maxRenderedKeys = 512;

/**
 * pathElementKey of an item of a list of type `node`, rendered once per element: the same items
 * (containers, env vars, ports, volumes) come back with every object, and rendering one means
 * building an object and goJson.
 */
export function itemKey(node: ListNode, pe: PathElement): string {
  let memo = renderedKeys.get(node);
  if (memo === undefined || memo.size >= maxRenderedKeys) {
    memo = { keys: new ItemIndex<string>(), size: 0 };
    renderedKeys.set(node, memo);
  }
  let key = memo.keys.get(pe);
  if (key === undefined) {
    key = pathElementKey(pe);
    memo.keys.set(pe, key);
    memo.size++;
  }
  return key;
}
