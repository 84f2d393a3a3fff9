// How client-go's jsonpath sees decoded JSON the way Go does: integral numbers are int64 and others
// float64 (as unstructured decoding yields), comparisons follow text/template's eq/lt (its fork in
// client-go/third_party/forked/golang/template), and results print as PrintResults does.
import { escapeGoHTML } from '../../../../machinery/json/go-json-text.js';

/** A float literal of a filter (`1.0`), kept apart from the int 1. */
export class GoFloat {
  readonly value: number;
  constructor(value: number) {
    this.value = value;
  }
}

type BasicKind = 'bool' | 'int' | 'float' | 'string';

function isInt64(n: number): boolean {
  return Number.isInteger(n) && Math.abs(n) < 2 ** 63;
}

function basicKind(v: unknown): BasicKind {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return isInt64(v) ? 'int' : 'float';
  if (v instanceof GoFloat) return 'float';
  throw new Error('invalid type for comparison');
}

const unbox = (v: unknown): unknown => (v instanceof GoFloat ? v.value : v);

export function goEqual(left: unknown, right: unknown): boolean {
  const k1 = basicKind(left);
  const k2 = basicKind(right);
  if (k1 !== k2) throw new Error('incompatible types for comparison');
  return unbox(left) === unbox(right);
}

export function goLess(left: unknown, right: unknown): boolean {
  const k1 = basicKind(left);
  const k2 = basicKind(right);
  if (k1 === 'bool' || k2 === 'bool') throw new Error('invalid type for comparison');
  if (k1 !== k2) throw new Error('incompatible types for comparison');
  const a = unbox(left) as number | string;
  const b = unbox(right) as number | string;
  return a < b;
}

/** The filter operators and how each compares. */
export const filterOperators: Readonly<Record<string, (l: unknown, r: unknown) => boolean>> = {
  '==': goEqual,
  '!=': (l, r) => !goEqual(l, r),
  '<': goLess,
  '>': (l, r) => goLess(r, l),
  '<=': (l, r) => goLess(l, r) || goEqual(l, r),
  '>=': (l, r) => goLess(r, l) || goEqual(l, r),
};

/** Go's `%v` of a float64: strconv 'g' with the shortest digits, exponent form beyond 1e+06. */
export function goFloatString(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mantissa = '', exponent = '0'] = x.toExponential().split('e');
  const exp = Number(exponent);
  if (exp < -4 || exp >= 6) {
    const digits = String(Math.abs(exp)).padStart(2, '0');
    return `${mantissa}e${exp < 0 ? '-' : '+'}${digits}`;
  }
  return String(x);
}

/** A Go type name for error messages (`map[string]interface {}`, `[]interface {}`, `int64`). */
export function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  if (v instanceof GoFloat) return 'float64';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return isInt64(v) ? 'int64' : 'float64';
  return 'map[string]interface {}';
}

/** encoding/json.Marshal: compact, map keys sorted, HTML characters escaped. */
export function goJSONMarshal(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (v instanceof GoFloat) return JSON.stringify(v.value);
  if (Array.isArray(v)) return `[${v.map(goJSONMarshal).join(',')}]`;
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, value]) => `${goJSONMarshal(k)}:${goJSONMarshal(value)}`).join(',')}}`;
  }
  if (typeof v === 'string') return escapeGoHTML(JSON.stringify(v));
  return JSON.stringify(v);
}

/** PrintResults of one value: maps and lists as JSON, a missing (null) value as `<no value>`. */
export function goPrintValue(v: unknown): string {
  if (v === null || v === undefined) return '<no value>';
  if (v instanceof GoFloat) return goFloatString(v.value);
  if (typeof v === 'object') return goJSONMarshal(v);
  if (typeof v === 'number') return isInt64(v) ? BigInt(v).toString() : goFloatString(v);
  if (typeof v === 'string') return v;
  return typeof v === 'boolean' ? String(v) : goJSONMarshal(v);
}
