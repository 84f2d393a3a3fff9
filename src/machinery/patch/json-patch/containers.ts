// evanphx/json-patch v4's container methods (patch.go: partialDoc and partialArray get, set, add,
// remove) with their error texts. A map's get never fails (a missing key reads as nil); an array
// index is strconv.Atoi's (sign and leading zeros allowed) and may count from the end when negative
// (SupportNegativeIndices, true by default and left so by kube).
import type { Ary, Doc, LazyNode } from './lazy-node.js';

export type PatchContainer = Doc | Ary;

/** An error of the patch library: its message is what kube shows (or hides). */
export class JSONPatchError extends Error {}

const maxInt64 = 2n ** 63n - 1n;

/** strconv.Atoi on a 64-bit platform. */
function atoi(key: string): number {
  if (!/^[+-]?[0-9]+$/.test(key)) {
    throw new JSONPatchError(`strconv.Atoi: parsing ${JSON.stringify(key)}: invalid syntax`);
  }
  const n = BigInt(key);
  if (n > maxInt64 || n < -maxInt64 - 1n) {
    throw new JSONPatchError(`strconv.Atoi: parsing ${JSON.stringify(key)}: value out of range`);
  }
  return Number(n);
}

const invalidIndex = (idx: number): JSONPatchError =>
  new JSONPatchError(`Unable to access invalid index: ${idx}: invalid index referenced`);

/** A negative index counted from the end of a list of `size`. */
function fromEnd(idx: number, size: number): number {
  if (idx >= 0) return idx;
  if (idx < -size) throw invalidIndex(idx);
  return idx + size;
}

export function getIn(c: PatchContainer, key: string): LazyNode | null {
  if (!Array.isArray(c)) return c.get(key) ?? null;
  const idx = fromEnd(atoi(key), c.length);
  if (idx >= c.length) throw invalidIndex(idx);
  return c[idx] ?? null;
}

/** Only for replace, after getIn found the key. */
export function setIn(c: PatchContainer, key: string, value: LazyNode | null): void {
  if (!Array.isArray(c)) c.set(key, value);
  else c[fromEnd(atoi(key), c.length)] = value;
}

export function addIn(c: PatchContainer, key: string, value: LazyNode | null): void {
  if (!Array.isArray(c)) {
    c.set(key, value);
    return;
  }
  if (key === '-') {
    c.push(value);
    return;
  }
  let idx: number;
  try {
    idx = atoi(key);
  } catch (err) {
    throw new JSONPatchError(`value was not a proper array index: '${key}': ${(err as Error).message}`);
  }
  const size = c.length + 1;
  if (idx >= size) throw invalidIndex(idx);
  c.splice(fromEnd(idx, size), 0, value);
}

export function removeIn(c: PatchContainer, key: string): void {
  if (!Array.isArray(c)) {
    if (!c.has(key)) throw new JSONPatchError(`Unable to remove nonexistent key: ${key}: missing value`);
    c.delete(key);
    return;
  }
  const idx = atoi(key);
  if (idx >= c.length) throw invalidIndex(idx);
  c.splice(fromEnd(idx, c.length), 1);
}
