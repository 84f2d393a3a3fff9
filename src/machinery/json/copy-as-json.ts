// What JSON.parse(JSON.stringify(value)) gives for a value built of plain objects, arrays and
// scalars, at the cost of one walk: own enumerable members in their order, undefined members
// dropped (null in arrays, holes too), non-finite numbers as null, -0 as 0. A member named
// __proto__ stays an own member, as JSON.parse makes it. The handlers use it where they would
// otherwise encode an object they built only to decode the text again.

import { isJSONObject } from '../patch/json.js';
import { setMember } from './set-member.js';

/** A fresh JSON value equal to JSON.parse(JSON.stringify(value)) for plain data. */
export function copyAsJSON(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? value + 0 : null;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const n = value.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      const v: unknown = value[i];
      out[i] = v === undefined ? null : copyAsJSON(v);
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    setMember(out, key, copyAsJSON(v));
  }
  return out;
}

/**
 * copyAsJSON of `value`, noting in `shared` the copy of each part of it that is `original`'s own
 * part at the same path (the very object): the parts a patch built from `original` left alone.
 */
export function copyAsJSONNotingShared(value: unknown, original: unknown, shared: WeakSet<object>): unknown {
  if (typeof value !== 'object' || value === null) return copyAsJSON(value);
  if (value === original) {
    const out = copyAsJSON(value) as object;
    shared.add(out);
    return out;
  }
  if (Array.isArray(value)) {
    if (!Array.isArray(original)) return copyAsJSON(value);
    const n = value.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      const v: unknown = value[i];
      out[i] = v === undefined ? null : copyAsJSONNotingShared(v, original[i], shared);
    }
    return out;
  }
  if (!isJSONObject(original)) return copyAsJSON(value);
  const out: Record<string, unknown> = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    const twin = Object.hasOwn(original, key) ? original[key] : undefined;
    setMember(out, key, copyAsJSONNotingShared(v, twin, shared));
  }
  return out;
}
