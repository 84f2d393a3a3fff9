import { deepCopyJSON } from '../json/deep-copy.js';
// JSON values as the patch code sees them: decoded JSON, plain objects and arrays only.

export type JSONValue = null | boolean | number | string | JSONValue[] | JSONObject;
export interface JSONObject {
  [key: string]: JSONValue;
}

export function isJSONObject(v: unknown): v is JSONObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isScalar(v: unknown): v is null | boolean | number | string {
  return v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string';
}

/**
 * Structural equality of two JSON values (reflect.DeepEqual over decoded JSON): member order does not
 * matter, and a member set to undefined counts as absent, as JSON.stringify drops it.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  // for-in, not Object.keys: decoded JSON objects have no enumerable inherited members, and the
  // walk allocates no key arrays (validation and generation checks compare whole specs per update).
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let defined = 0;
  for (const k in x) {
    const v = x[k];
    if (v === undefined) continue;
    defined++;
    // A member y lacks reads as undefined, or as an inherited value that no JSON value equals
    // (Object.prototype's own members are functions), except __proto__, which reads as an object.
    const w = y[k];
    if (w === undefined || !jsonEqual(v, w) || (k === '__proto__' && !Object.hasOwn(y, k))) return false;
  }
  for (const k in y) if (y[k] !== undefined) defined--;
  return defined === 0;
}

const typeRank = (v: unknown): number => {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (isJSONObject(v)) return 4;
  return 5;
};

function compareLists(a: readonly unknown[], b: readonly unknown[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareJSON(a[i], b[i]);
    if (c !== 0) return c;
  }
  return Math.sign(a.length - b.length);
}

function compareMaps(a: JSONObject, b: JSONObject): number {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
    const x = ka[i] ?? '';
    const y = kb[i] ?? '';
    if (x !== y) return x < y ? -1 : 1;
    const c = compareJSON(a[x], b[y]);
    if (c !== 0) return c;
  }
  return Math.sign(ka.length - kb.length);
}

/** A total order over JSON values: numbers, strings, booleans, lists, maps, null (value.Compare). */
export function compareJSON(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b);
  if (typeof a === 'string' && typeof b === 'string') return a === b ? 0 : a < b ? -1 : 1;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a) && Array.isArray(b)) return compareLists(a, b);
  if (isJSONObject(a) && isJSONObject(b)) return compareMaps(a, b);
  return 0;
}

/** A deep copy of a JSON value. */
export function cloneJSON<T>(v: T): T {
  return deepCopyJSON(v);
}
