// Finding repeated keys in raw JSON text. JSON.parse keeps the last value silently; kube's
// decoder reports `duplicate field` and merges repeated objects, so a document with repeats takes
// the slower Go-semantics decoder (go-decode.ts). The fast test counts the keys in the text (one
// colon outside strings per key) and compares with the keys the parsed value holds: they differ
// exactly when some object repeats a key. Assumes text that JSON.parse accepted.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Index of the closing quote of the string opening at `open`. */
export function stringEnd(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  while (end !== -1) {
    let slashes = 0;
    for (let k = end - 1; text.charCodeAt(k) === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
  return text.length;
}

/** The decoded key between quotes at `open` and `close`. */
export function keyText(text: string, open: number, close: number): string {
  const raw = text.slice(open + 1, close);
  return raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
}

/**
 * How many object keys the text holds: the colons outside strings. The next colon and the next
 * quote are each found with indexOf; a colon before the next quote counts, and a string skips the
 * colons inside it. Bodies hold many strings with colons or escaped quotes (managedFields' keys
 * such as `k:{\"name\":\"app\"}`), which a scan character by character pays for in full.
 */
export function countTextKeys(text: string): number {
  let count = 0;
  let colon = text.indexOf(':');
  let quote = text.indexOf('"');
  while (colon !== -1) {
    if (quote === -1 || colon < quote) {
      count++;
      colon = text.indexOf(':', colon + 1);
      continue;
    }
    const end = stringEnd(text, quote);
    if (colon < end) colon = text.indexOf(':', end + 1);
    quote = text.indexOf('"', end + 1);
  }
  return count;
}

/** How many object keys a parsed JSON value holds, at every depth. */
export function countValueKeys(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (const v of value as unknown[]) count += countValueKeys(v);
    return count;
  }
  const obj = value as Record<string, unknown>;
  for (const key in obj) count += 1 + countValueKeys(obj[key]);
  return count;
}

/** Past this many keys an object's keys go into a Set instead of being compared one by one. */
const LINEAR = 24;

export function hasDuplicateKeys(text: string): boolean {
  // Keys of the open objects, innermost last; per open container the index where its keys
  // start in `keys`, or -1 for an array.
  const keys: string[] = [];
  const frames: number[] = [];
  const sets = new Map<number, Set<string>>();
  let expectKey = false;
  const n = text.length;
  // Most bodies have no escapes at all: then a string ends at the next quote.
  const plain = !text.includes('\\');
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const close = plain ? text.indexOf('"', i + 1) : stringEnd(text, i);
      if (expectKey) {
        const key = plain ? text.slice(i + 1, close) : keyText(text, i, close);
        const start = frames[frames.length - 1] ?? 0;
        const set = sets.size === 0 ? undefined : sets.get(frames.length);
        if (set !== undefined) {
          if (set.has(key)) return true;
          set.add(key);
        } else {
          for (let j = start; j < keys.length; j++) if (keys[j] === key) return true;
          keys.push(key);
          if (keys.length - start > LINEAR) sets.set(frames.length, new Set(keys.slice(start)));
        }
        expectKey = false;
      }
      i = close;
    } else if (c === 0x7b) {
      frames.push(keys.length);
      expectKey = true;
    } else if (c === 0x5b) {
      frames.push(-1);
    } else if (c === 0x7d) {
      if (sets.size > 0) sets.delete(frames.length);
      const start = frames.pop() ?? 0;
      keys.length = start;
    } else if (c === 0x5d) {
      frames.pop();
    } else if (c === 0x2c) {
      expectKey = (frames[frames.length - 1] ?? -1) >= 0;
    }
  }
  return false;
}
