// Finding repeated keys in raw JSON text. JSON.parse keeps the last value silently; kube's
// decoder reports `duplicate field` and merges repeated objects, so a document with repeats takes
// the slower Go-semantics decoder (go-decode.ts). The fast test counts the keys in the text (one
// colon outside strings per key) and compares with the keys the parsed value holds: they differ
// exactly when some object repeats a key. The same pass finds numbers written with a fraction or
// an exponent, which Go reads from their text. Assumes text that JSON.parse accepted.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const DOT = 0x2e;
const LOWER_E = 0x65;
const UPPER_E = 0x45;

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

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

/**
 * The decoded string between quotes at `open` and `close`, as Go decodes it: an escaped lone
 * surrogate is U+FFFD (the rest of the body's strings are read so too: well-formed.ts).
 */
export function keyText(text: string, open: number, close: number): string {
  const raw = text.slice(open + 1, close);
  return raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string).toWellFormed() : raw;
}

/** What the text holds outside its strings (scanText). */
export interface TextScan {
  /** Object keys: the colons outside strings. */
  readonly keys: number;
  /**
   * Some number has a fraction or an exponent (`1.0`, `1e3`): a `.` outside strings, or an `e` or
   * `E` after a digit there. Go reads such a number from its text (ParseInt, ParseQuantity), which
   * JSON.parse's value does not keep (go-decode.ts).
   */
  readonly fractionOrExponent: boolean;
}

/**
 * The keys and numbers of a text outside its strings. A string is skipped with indexOf (to its
 * close quote): bodies hold many strings with colons or escaped quotes (managedFields' keys such as
 * `k:{\"name\":\"app\"}`), which a scan character by character pays for in full. Between two
 * strings there are a few characters (`:`, `,`, a number), looked at one by one.
 */
export function scanText(text: string): TextScan {
  let keys = 0;
  let fractionOrExponent = false;
  const n = text.length;
  let i = 0;
  for (;;) {
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) break;
      if (c === COLON) keys++;
      else if (c === DOT) fractionOrExponent = true;
      else if ((c === LOWER_E || c === UPPER_E) && isDigit(text.charCodeAt(i - 1))) fractionOrExponent = true;
    }
    if (i >= n) return { keys, fractionOrExponent };
    i = stringEnd(text, i) + 1;
  }
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
