// Go's fmt renderings that kube's messages embed: %q for strings, %v for numbers, and the
// encoding/json text that field.Error uses for composite bad values.
import { escapeGoHTML } from '../json/go-json-text.js';

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

const shortEscapes: Readonly<Record<number, string>> = {
  0x07: '\\a',
  0x08: '\\b',
  0x09: '\\t',
  0x0a: '\\n',
  0x0b: '\\v',
  0x0c: '\\f',
  0x0d: '\\r',
  0x22: '\\"',
  0x5c: '\\\\',
};

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

function quoteRune(cp: number, ch: string): string {
  const short = shortEscapes[cp];
  if (short !== undefined) return short;
  if (cp >= 0x20 && cp < 0x7f) return ch;
  if (cp < 0x20 || cp === 0x7f) return `\\x${hex(cp, 2)}`;
  // A lone surrogate cannot reach Go as a string; its JSON decoder substitutes U+FFFD.
  if (cp >= 0xd800 && cp <= 0xdfff) return '\ufffd';
  if (printable.test(ch)) return ch;
  return cp <= 0xffff ? `\\u${hex(cp, 4)}` : `\\U${hex(cp, 8)}`;
}

/** Go's strconv.Quote (the %q verb) for a string. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    out += quoteRune(ch.codePointAt(0) ?? 0, ch);
  }
  return `${out}"`;
}

/** Go's %v for a float64: shortest digits, exponent form below 1e-4 and from 1e21 on. */
export function goNumber(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return '+Inf';
  if (n === -Infinity) return '-Inf';
  const abs = Math.abs(n);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e21)) {
    return n.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  }
  return String(n);
}

/** encoding/json's Marshal text for a JSON-shaped value, HTML characters escaped as Go does. */
export function goJson(value: unknown): string {
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? 'null' : escapeGoHTML(text);
}

/** Go's string order (byte-wise over UTF-8, which is code point order), as sort.Strings uses. */
export function compareGoStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.codePointAt(i) ?? 0;
    const cb = b.codePointAt(i) ?? 0;
    if (ca !== cb) return ca < cb ? -1 : 1;
    if (ca > 0xffff) i++;
  }
  return a.length - b.length;
}
