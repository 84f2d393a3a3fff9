// The member order Go's encoding/json writes a map[string]interface{} in: keys sorted (by their
// UTF-8 bytes) at every level. kube serves custom resources as unstructured maps, so a custom
// resource's members, its metadata's included, come out in this order. An object already in order
// is returned as it is (same reference) so the common case allocates nothing.

import { sortSmall } from './small-sort.js';
import { setMember } from './set-member.js';

type JSONObject = Record<string, unknown>;

const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Go sorts map keys by their UTF-8 bytes. UTF-16 code-unit order is the same except where a
 * surrogate (U+D800–U+DFFF, an astral character) meets U+E000–U+FFFF: there UTF-8 puts the astral
 * character last.
 */
export function compareGoKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys && (xs ? y : x) >= 0xe000) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/**
 * Whether a key is what JavaScript calls an array index ("0" to "4294967294", no sign or leading
 * zero): every object lists those keys first, in numeric order, whatever order they were set in, so
 * an object cannot hold them in Go's sorted order ("10" before "9"). goJSONText writes such objects
 * sorted; the ordering functions here leave them as they are.
 */
export function isArrayIndexKey(key: string): boolean {
  const first = key.charCodeAt(0);
  if (!(first >= 0x30 && first <= 0x39)) return false;
  if (key.length === 1) return true;
  if (first === 0x30 || key.length > 10) return false;
  for (let i = 1; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return key.length < 10 || key <= '4294967294';
}

/**
 * Whether keys, as an object lists them, are as sorted as an object can hold them: the others than
 * array indexes (listed first, in numeric order, whatever the insertion order) in Go's order.
 */
export function inGoMapKeyOrder(keys: readonly string[]): boolean {
  let last: string | undefined;
  for (const key of keys) {
    if (last === undefined && isArrayIndexKey(key)) continue;
    if (last !== undefined && compareGoKeys(last, key) > 0) return false;
    last = key;
  }
  return true;
}

/**
 * Whether an object's first members are `first` then `second` (without listing all its keys). An
 * object written as a Go map starts with `apiVersion` then `kind` (a list: `apiVersion`, `items`),
 * where one written from a Go struct starts with `kind`.
 */
export function startsWithMembers(obj: object, first: string, second: string): boolean {
  let n = 0;
  for (const key in obj) {
    if (key !== (n === 0 ? first : second)) return false;
    if (++n === 2) return true;
  }
  return false;
}

/**
 * Whether an object is written as a Go map rather than a Go struct, as far as its TypeMeta tells:
 * a map's keys are sorted, so `apiVersion` comes before `kind`, where a struct starts with `kind`.
 * Members that sort before `apiVersion` (`"7"`, `"Zeta"`, which a custom resource may keep) may
 * precede it, so it is not enough to look at the first one.
 */
export function apiVersionBeforeKind(obj: object): boolean {
  let apiVersion = false;
  for (const key in obj) {
    if (key === 'kind') return apiVersion;
    if (key === 'apiVersion') apiVersion = true;
  }
  return false;
}

/** The value with every object's keys sorted as Go writes a map; unchanged parts are shared. */
export function inSortedMemberOrder<T>(value: T): T {
  if (Array.isArray(value)) return sortedListItems(value) as T;
  return isObject(value) ? (sortedMembers(value) as T) : value;
}

function sortedListItems(list: readonly unknown[]): readonly unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    const sorted = inSortedMemberOrder(item);
    if (sorted !== item) {
      out ??= list.slice();
      out[i] = sorted;
    }
  }
  return out ?? list;
}

/**
 * The object with its keys sorted at every level. Most objects are in order already, and are only
 * looked over: for-in walks the keys without listing them, and only members that change are kept.
 */
function sortedMembers(obj: JSONObject): JSONObject {
  let inOrder = true;
  let last: string | undefined;
  let changed: Map<string, unknown> | undefined;
  for (const key in obj) {
    // Array-index keys are listed first whatever the order they were set in (inGoMapKeyOrder).
    if (last !== undefined || !isArrayIndexKey(key)) {
      if (last !== undefined && compareGoKeys(last, key) > 0) inOrder = false;
      last = key;
    }
    const member = obj[key];
    if (typeof member !== 'object' || member === null) continue;
    const sorted = inSortedMemberOrder(member);
    if (sorted !== member) (changed ??= new Map()).set(key, sorted);
  }
  if (inOrder && changed === undefined) return obj;
  const keys = Object.keys(obj);
  if (!inOrder) sortSmall(keys, compareGoKeys);
  const out: JSONObject = {};
  for (const key of keys) setMember(out, key, changed?.has(key) === true ? changed.get(key) : obj[key]);
  return out;
}
