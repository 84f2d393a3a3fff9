// A typed object's JSON as kube writes it inside a list of a built-in kind: without its top-level
// `kind` and `apiVersion` members (the items of a v1.PodList carry an empty TypeMeta, which Go's
// encoder omits). The bytes are not copied: the answer is the pieces of the original to write in
// order. Stored objects hold both members at the start (kube's order) or, when a client sent them
// last, at the end; those are found by looking at the ends, anything else by a scan of the
// top-level members.
import {
  backslash,
  closeBrace,
  colon,
  comma,
  openBrace,
  quote,
  skipSpace,
  skipString,
  skipValue,
} from './json-bytes.js';

const kindKey = Buffer.from('"kind"');
const apiVersionKey = Buffer.from('"apiVersion"');
const openBraceBytes = Buffer.from('{');
const closeBraceBytes = Buffer.from('}');
const commaBytes = Buffer.from(',');

function sameBytes(buf: Buffer, i: number, key: Buffer): boolean {
  for (let k = 0; k < key.length; k++) if (buf[i + k] !== key[k]) return false;
  return true;
}

/** Whether the key (with its quotes) in [i, end) is "kind" or "apiVersion"; compared byte by byte, as a native compare costs more for a handful of bytes. */
function typeMetaKeyAt(buf: Buffer, i: number, end: number): boolean {
  const len = end - i;
  if (len === kindKey.length) return sameBytes(buf, i, kindKey);
  return len === apiVersionKey.length && sameBytes(buf, i, apiVersionKey);
}

/** A top-level member: [start, end) from its key's quote to past its value. */
interface Member {
  readonly start: number;
  readonly end: number;
  readonly typeMeta: boolean;
}

/** The top-level members of an object; undefined when the bytes are not a well-formed object. */
function members(buf: Buffer): Member[] | undefined {
  let i = skipSpace(buf, 0);
  if (buf[i] !== openBrace) return undefined;
  i = skipSpace(buf, i + 1);
  const out: Member[] = [];
  if (buf[i] === closeBrace) return out;
  for (;;) {
    if (buf[i] !== quote) return undefined;
    const start = i;
    const keyEnd = skipString(buf, i);
    if (keyEnd < 0) return undefined;
    i = skipSpace(buf, keyEnd);
    if (buf[i] !== colon) return undefined;
    i = skipValue(buf, skipSpace(buf, i + 1));
    if (i < 0) return undefined;
    out.push({ start, end: i, typeMeta: typeMetaKeyAt(buf, start, keyEnd) });
    i = skipSpace(buf, i);
    if (buf[i] === closeBrace) return out;
    if (buf[i] !== comma) return undefined;
    i = skipSpace(buf, i + 1);
  }
}

/** Compact JSON whose first member is a type member with a plain string value: its end past the comma. */
function leadingTypeMember(buf: Buffer, at: number): number {
  if (buf[at] !== quote) return -1;
  const keyEnd = skipString(buf, at);
  if (keyEnd < 0 || !typeMetaKeyAt(buf, at, keyEnd) || buf[keyEnd] !== colon || buf[keyEnd + 1] !== quote) {
    return -1;
  }
  const valueEnd = skipString(buf, keyEnd + 1);
  return valueEnd > 0 && buf[valueEnd] === comma ? valueEnd + 1 : -1;
}

/** Compact JSON ending in `,"kind":"…"}`: where that member's comma starts, or -1. */
function trailingTypeMember(buf: Buffer, end: number): number {
  // end is the index of the closing brace; the value is a plain string (no quotes inside).
  let i = end - 1;
  if (buf[i] !== quote) return -1;
  i--;
  while (i >= 0 && buf[i] !== quote) i--;
  if (i < 1 || buf[i - 1] === backslash || buf[i - 1] !== colon) return -1;
  const keyEnd = i - 1;
  let k = keyEnd - 1;
  if (buf[k] !== quote) return -1;
  k--;
  while (k >= 0 && buf[k] !== quote) k--;
  if (k < 1 || !typeMetaKeyAt(buf, k, keyEnd) || buf[k - 1] !== comma) return -1;
  return k - 1;
}

/** The pieces of `buf` that make the object without its top-level kind and apiVersion. */
export function withoutTypeMeta(buf: Buffer): Buffer[] {
  // Fast paths for compact JSON: both members at the start, at the end, or one at each.
  if (buf[0] === openBrace && buf[buf.length - 1] === closeBrace) {
    let head = 1;
    let found = 0;
    for (
      let next = leadingTypeMember(buf, head);
      next > 0 && found < 2;
      next = leadingTypeMember(buf, head)
    ) {
      head = next;
      found++;
    }
    let tail = buf.length - 1;
    for (let at = trailingTypeMember(buf, tail); at > head && found < 2; at = trailingTypeMember(buf, tail)) {
      tail = at;
      found++;
    }
    if (found === 2) {
      if (tail === buf.length - 1) return [openBraceBytes, buf.subarray(head)];
      if (head === 1) return [buf.subarray(0, tail), closeBraceBytes];
      return [openBraceBytes, buf.subarray(head, tail), closeBraceBytes];
    }
  }
  return withoutTypeMetaScanned(buf);
}

function withoutTypeMetaScanned(buf: Buffer): Buffer[] {
  const all = members(buf);
  if (all === undefined || !all.some((m) => m.typeMeta)) return [buf];
  const kept = all.filter((m) => !m.typeMeta);
  const pieces: Buffer[] = [openBraceBytes];
  kept.forEach((m, i) => {
    if (i > 0) pieces.push(commaBytes);
    pieces.push(buf.subarray(m.start, m.end));
  });
  pieces.push(closeBraceBytes);
  return pieces;
}

/** The object without its top-level kind and apiVersion, as a shallow copy (the input stays as it is). */
export function objectWithoutTypeMeta<T extends object>(obj: T): Omit<T, 'kind' | 'apiVersion'> {
  const {
    kind: _kind,
    apiVersion: _apiVersion,
    ...rest
  } = obj as T & { kind?: unknown; apiVersion?: unknown };
  return rest;
}
