// The member order Go's encoding/json writes a map[string]interface{} in: keys sorted (by their
// UTF-8 bytes) at every level. kube serves custom resources as unstructured maps, so a custom
// resource's members, its metadata's included, come out in this order. An object already in order
// is returned as it is (same reference) so the common case allocates nothing.

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

/** The value with every object's keys sorted as Go writes a map; unchanged parts are shared. */
export function inSortedMemberOrder<T>(value: T): T {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const sorted = inSortedMemberOrder(item);
      if (sorted !== item) {
        out ??= value.slice();
        out[i] = sorted;
      }
    }
    return (out ?? value) as T;
  }
  if (!isObject(value)) return value;
  const keys = Object.keys(value);
  let changed = false;
  for (let i = 1; i < keys.length && !changed; i++) changed = compareGoKeys(keys[i - 1] ?? '', keys[i] ?? '') > 0;
  const members: [string, unknown][] = [];
  for (const key of keys) {
    const member = value[key];
    const sorted = inSortedMemberOrder(member);
    if (sorted !== member) changed = true;
    members.push([key, sorted]);
  }
  if (!changed) return value;
  members.sort(([a], [b]) => compareGoKeys(a, b));
  const out: JSONObject = {};
  for (const [key, member] of members) out[key] = member;
  return out as T;
}
