// Deep copies of JSON-shaped values (kube's generated DeepCopy). structuredClone serializes through
// V8's structured-clone format and costs several times a plain walk; API objects are plain JSON
// (objects, arrays, strings, numbers, booleans, null), so a walk is enough. Properties whose value
// is undefined are kept as undefined, as structuredClone keeps them.

import { setMember } from './set-member.js';

/** A deep copy of a JSON-shaped value. */
export function deepCopyJSON<T>(value: T): T {
  return copy(value) as T;
}

function copy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const n = value.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) out[i] = copy(value[i]);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = copy((value as Record<string, unknown>)[key]);
    setMember(out, key, item);
  }
  return out;
}
