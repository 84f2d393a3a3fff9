// Valid JSON text taken apart without decoding its values, as Go's json.Unmarshal fills a
// map[string]*json.RawMessage or a []*json.RawMessage: each member's or element's own text, kept
// byte for byte (number text such as 1.0, escapes as written) until something asks for it.

import { isSpace } from '../../json/json-bytes.js';
import { stringEnd as closingQuote } from '../../structural/duplicate-scan.js';
import { parseWellFormed } from '../../json/well-formed.js';

function skipSpace(text: string, i: number): number {
  let j = i;
  while (j < text.length && isSpace(text.charCodeAt(j))) j++;
  return j;
}

/** The index just past the string starting at `i` (its opening quote). */
const stringEnd = (text: string, i: number): number => closingQuote(text, i) + 1;

/** The index just past the JSON value starting at `i`. */
function valueEnd(text: string, i: number): number {
  const first = text.charCodeAt(i);
  if (first === 0x22) return stringEnd(text, i);
  if (first === 0x7b || first === 0x5b) {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (c === 0x22) j = stringEnd(text, j) - 1;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if ((c === 0x7d || c === 0x5d) && --depth === 0) return j + 1;
    }
    return text.length;
  }
  let j = i;
  for (; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (isSpace(c) || c === 0x2c || c === 0x7d || c === 0x5d) break;
  }
  return j;
}

/** Go's json type name of a value's text, as its "cannot unmarshal X" messages word it. */
export function rawTypeName(raw: string): string {
  const c = raw.charAt(0);
  if (c === '{') return 'object';
  if (c === '[') return 'array';
  if (c === '"') return 'string';
  if (c === 't' || c === 'f') return 'bool';
  return 'number';
}

/** Each element's text, in order, or undefined when `raw` is no array. */
export function rawElements(raw: string): string[] | undefined {
  if (raw.charCodeAt(0) !== 0x5b) return undefined;
  const out: string[] = [];
  let i = skipSpace(raw, 1);
  if (raw.charCodeAt(i) === 0x5d) return out;
  for (;;) {
    const end = valueEnd(raw, i);
    out.push(raw.slice(i, end));
    i = skipSpace(raw, end);
    if (raw.charCodeAt(i) !== 0x2c) return out;
    i = skipSpace(raw, i + 1);
  }
}

/** Each member's decoded key and value text, in order (a repeated key twice), or undefined. */
export function rawMembers(raw: string): [string, string][] | undefined {
  if (raw.charCodeAt(0) !== 0x7b) return undefined;
  const out: [string, string][] = [];
  let i = skipSpace(raw, 1);
  if (raw.charCodeAt(i) === 0x7d) return out;
  for (;;) {
    const keyEnd = stringEnd(raw, i);
    const key = parseWellFormed(raw.slice(i, keyEnd)) as string;
    i = skipSpace(raw, skipSpace(raw, keyEnd) + 1);
    const end = valueEnd(raw, i);
    out.push([key, raw.slice(i, end)]);
    i = skipSpace(raw, end);
    if (raw.charCodeAt(i) !== 0x2c) return out;
    i = skipSpace(raw, i + 1);
  }
}

/** The text without whitespace between tokens (json.Compact); strings stay as written. */
export function compactRaw(raw: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(raw, i) - 1;
    } else if (isSpace(c)) {
      out += raw.slice(from, i);
      from = i + 1;
    }
  }
  return from === 0 ? raw : out + raw.slice(from);
}
