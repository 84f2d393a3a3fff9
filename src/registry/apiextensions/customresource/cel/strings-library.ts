// cel-go's string extension (ext/strings.go, version 2 as kube 1.33 declares it) where
// @bufbuild/cel's differs: positions count code points, not UTF-16 units (`'👑a'.indexOf('a')` is 1,
// `charAt` and `substring` never split a character), `split(sep, n)` is Go's strings.SplitN (the
// last part keeps the rest) and `replace(old, new, n)` Go's strings.Replace (n < 0 replaces all, an
// empty `old` goes between characters). These replace the library's overloads of the same names.
import type * as Cel from '@bufbuild/cel';

type Module = typeof Cel;

const hasSurrogate = /[\uD800-\uDFFF]/;

/** The string's characters (code points) when any is outside the BMP; else undefined. */
function astral(s: string): string[] | undefined {
  return hasSurrogate.test(s) ? Array.from(s) : undefined;
}

function length(s: string): number {
  return astral(s)?.length ?? s.length;
}

/** The characters of `s` from `start` to `end` (code points). */
function slice(s: string, start: number, end?: number): string {
  const chars = astral(s);
  return chars === undefined ? s.slice(start, end) : chars.slice(start, end).join('');
}

const outOfRange = (i: bigint | number): Error => new Error(`index out of range: ${i}`);

/** The code-point index of `sub` in `s` at or after `from`; -1 when absent. */
function indexFrom(s: string, sub: string, from: number): number {
  const chars = astral(s);
  if (chars === undefined) return s.indexOf(sub, from);
  const unit = s.indexOf(sub, chars.slice(0, from).join('').length);
  return unit === -1 ? -1 : Array.from(s.slice(0, unit)).length;
}

/** The code-point index of the last `sub` in `s` starting at or before `at`; -1 when absent. */
function lastIndexAt(s: string, sub: string, at: number): number {
  const chars = astral(s);
  if (chars === undefined) return s.lastIndexOf(sub, at);
  const unit = s.lastIndexOf(sub, chars.slice(0, at).join('').length);
  return unit === -1 ? -1 : Array.from(s.slice(0, unit)).length;
}

function charAt(s: string, index: bigint): string {
  const i = Number(index);
  if (i < 0 || i > length(s)) throw outOfRange(index);
  return slice(s, i, i + 1);
}

function indexOf(s: string, sub: string, offset: bigint): bigint {
  if (sub === '') return offset;
  const off = Number(offset);
  if (off < 0 || off >= length(s)) throw outOfRange(offset);
  return BigInt(indexFrom(s, sub, off));
}

function lastIndexOf(s: string, sub: string, offset: bigint): bigint {
  if (sub === '') return offset;
  const off = Number(offset);
  const n = length(s);
  if (off < 0 || off >= n) throw outOfRange(offset);
  return BigInt(lastIndexAt(s, sub, Math.min(off, n - length(sub))));
}

function substring(s: string, start: bigint, end?: bigint): string {
  const n = length(s);
  if (end !== undefined && start > end)
    throw new Error(`invalid substring range. start: ${start}, end: ${end}`);
  if (start < 0n || Number(start) > n) throw outOfRange(start);
  if (end !== undefined && (end < 0n || Number(end) > n)) throw outOfRange(end);
  return slice(s, Number(start), end === undefined ? undefined : Number(end));
}

/** Go's strings.SplitN. */
function splitN(s: string, sep: string, count: bigint): string[] {
  if (count === 0n) return [];
  const parts = sep === '' ? Array.from(s) : s.split(sep);
  if (count < 0n || BigInt(parts.length) <= count) return parts;
  const n = Number(count);
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
}

/** Go's strings.Replace. */
function replaceN(s: string, r: { old: string; replacement: string; count: bigint }): string {
  const { old, replacement, count } = r;
  if (old === replacement || count === 0n) return s;
  if (old === '') {
    const chars = Array.from(s);
    const n = count < 0n || count > BigInt(chars.length + 1) ? chars.length + 1 : Number(count);
    // A replacement before each of the first n - 1 characters and after them.
    return (
      chars
        .slice(0, n - 1)
        .map((c) => replacement + c)
        .join('') +
      replacement +
      chars.slice(n - 1).join('')
    );
  }
  const parts = s.split(old);
  const n = count < 0n || count >= BigInt(parts.length - 1) ? parts.length - 1 : Number(count);
  return (
    parts.slice(0, n + 1).join(replacement) + (n < parts.length - 1 ? old + parts.slice(n + 1).join(old) : '')
  );
}

/** The overloads that replace @bufbuild/cel's string extension's. */
export function stringFunctions(cel: Module): Cel.CelFunc[] {
  const { STRING, INT } = cel.CelScalar;
  const strings = cel.listType(STRING);
  const toList = (parts: string[]): Cel.CelList => cel.celList(parts);
  return [
    cel.celMethod('charAt', STRING, [INT], STRING, function (i) {
      return charAt(this, i);
    }),
    cel.celMethod('indexOf', STRING, [STRING], INT, function (sub) {
      return indexOf(this, sub, 0n);
    }),
    cel.celMethod('indexOf', STRING, [STRING, INT], INT, function (sub, offset) {
      return indexOf(this, sub, offset);
    }),
    cel.celMethod('lastIndexOf', STRING, [STRING], INT, function (sub) {
      const n = length(this);
      return sub === '' ? BigInt(n) : lastIndexOf(this, sub, BigInt(n - 1));
    }),
    cel.celMethod('lastIndexOf', STRING, [STRING, INT], INT, function (sub, offset) {
      return lastIndexOf(this, sub, offset);
    }),
    cel.celMethod('substring', STRING, [INT], STRING, function (start) {
      return substring(this, start);
    }),
    cel.celMethod('substring', STRING, [INT, INT], STRING, function (start, end) {
      return substring(this, start, end);
    }),
    cel.celMethod('split', STRING, [STRING], strings, function (sep) {
      return toList(splitN(this, sep, -1n));
    }),
    cel.celMethod('split', STRING, [STRING, INT], strings, function (sep, n) {
      return toList(splitN(this, sep, n));
    }),
    cel.celMethod('replace', STRING, [STRING, STRING], STRING, function (old, replacement) {
      return replaceN(this, { old, replacement, count: -1n });
    }),
    cel.celMethod('replace', STRING, [STRING, STRING, INT], STRING, function (old, replacement, n) {
      return replaceN(this, { old, replacement, count: n });
    }),
  ];
}
