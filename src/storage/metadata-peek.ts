// A few members of an object's top-level `metadata`, read from its JSON without decoding the rest:
// for watchers that need only metadata (the garbage collector's graph wants the uid, name, owner
// references, deletionTimestamp and finalizers) of objects that the watch cache hands out as JSON.
// Other members are skipped byte by byte (managedFields is usually the bulk of metadata); the values
// asked for are parsed with JSON.parse. Keys are compared as raw bytes: stored JSON is written by
// JSON.stringify (or Go's encoder), neither of which escapes the ASCII letters of metadata keys.
import { metadataBodyOffset } from './served-json.js';

const quote = 0x22;
const backslash = 0x5c;
const colon = 0x3a;
const comma = 0x2c;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;

function skipSpace(buf: Buffer, i: number): number {
  for (;;) {
    const b = buf[i];
    if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return i;
    i++;
  }
}

/** Past the string whose opening quote is at `i`; -1 when it does not end. */
function skipString(buf: Buffer, i: number): number {
  const n = buf.length;
  for (i++; i < n; i++) {
    const b = buf[i];
    if (b === quote) return i + 1;
    if (b === backslash) i++;
  }
  return -1;
}

/** Past the value starting at `i` (a string, an object or array with what it nests, a literal). */
function skipValue(buf: Buffer, i: number): number {
  const first = buf[i];
  if (first === quote) return skipString(buf, i);
  const n = buf.length;
  if (first !== openBrace && first !== openBracket) {
    while (i < n) {
      const b = buf[i];
      if (b === comma || b === closeBrace || b === closeBracket) break;
      i++;
    }
    return i;
  }
  let depth = 0;
  while (i < n) {
    const b = buf[i];
    if (b === quote) {
      i = skipString(buf, i);
      if (i < 0) return -1;
      continue;
    }
    if (b === openBrace || b === openBracket) depth++;
    else if (b === closeBrace || b === closeBracket) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return -1;
}

/** Which of `keys` the bytes [start, end) spell, or -1. */
function keyIndex(buf: Buffer, span: { start: number; end: number }, keys: readonly Buffer[]): number {
  const len = span.end - span.start;
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k];
    if (key?.length !== len) continue;
    let j = 0;
    while (j < len && buf[span.start + j] === key[j]) j++;
    if (j === len) return k;
  }
  return -1;
}

const invalid = Symbol('invalid');

function parseSlice(buf: Buffer, start: number, end: number): unknown {
  try {
    return JSON.parse(buf.toString('utf8', start, end)) as unknown;
  } catch {
    return invalid;
  }
}

/** The parsed values of the members asked for; absent members are absent. */
export type PeekedMembers<K extends string> = Partial<Record<K, unknown>>;

/**
 * A reader of the named members of the top-level `metadata` object. It answers null for JSON that
 * is not an object with a metadata object, and stops reading once every name has been found.
 */
export function metadataPeeker<K extends string>(
  names: readonly K[],
): (json: Buffer) => PeekedMembers<K> | null {
  const keys = names.map((n) => Buffer.from(n));
  return (json) => {
    const start = metadataBodyOffset(json);
    if (start < 0) return null;
    const out: PeekedMembers<K> = {};
    let found = 0;
    let i = skipSpace(json, start);
    if (json[i] === closeBrace) return out;
    for (;;) {
      if (json[i] !== quote) return null;
      const keyEnd = skipString(json, i);
      if (keyEnd < 0) return null;
      const k = keyIndex(json, { start: i + 1, end: keyEnd - 1 }, keys);
      i = skipSpace(json, keyEnd);
      if (json[i] !== colon) return null;
      i = skipSpace(json, i + 1);
      const valueEnd = skipValue(json, i);
      if (valueEnd < 0) return null;
      const name = k < 0 ? undefined : names[k];
      if (name !== undefined && !(name in out)) {
        const value = parseSlice(json, i, valueEnd);
        if (value === invalid) return null;
        out[name] = value;
        if (++found === names.length) return out;
      }
      i = skipSpace(json, valueEnd);
      if (json[i] === closeBrace) return out;
      if (json[i] !== comma) return null;
      i = skipSpace(json, i + 1);
    }
  };
}

const uidOnly = metadataPeeker(['uid']);

/** `metadata.uid`, when the JSON has one that is a string. */
export function peekUID(json: Buffer): string | undefined {
  const uid = uidOnly(json)?.uid;
  return typeof uid === 'string' ? uid : undefined;
}

// Letters from the rarest to the commonest in API objects' JSON (lowercase; others count as common).
const rarity = 'jqzwkbygvfpmhcudlrnsoiatxe';
const rank = (c: string): number => {
  const r = rarity.indexOf(c);
  return r < 0 ? rarity.length : r;
};

/**
 * A test of whether JSON contains the string `"<key>"` (a member named `key`, or a string value
 * spelled so: a caller that decodes to be sure takes both). Buffer.indexOf is fast only while the
 * first byte it looks for is rare (it hops from one occurrence to the next, and past a few dozen
 * falls back to a slower search), so the search starts at the key's rarest letter and checks the
 * bytes before each hit.
 */
export function mentionsString(key: string): (json: Buffer) => boolean {
  let split = 0;
  for (let i = 1; i < key.length; i++) if (rank(key[i] ?? '') < rank(key[split] ?? '')) split = i;
  const tail = Buffer.from(`${key.slice(split)}"`);
  const head = Buffer.from(`"${key.slice(0, split)}`);
  return (json) => {
    for (let at = json.indexOf(tail); at >= 0; at = json.indexOf(tail, at + 1)) {
      const start = at - head.length;
      if (start >= 0 && json.compare(head, 0, head.length, start, at) === 0) return true;
    }
    return false;
  };
}
