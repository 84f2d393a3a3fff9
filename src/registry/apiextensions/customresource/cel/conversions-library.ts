// cel-go's type conversions where @bufbuild/cel's differ (common/types/string.go, double.go,
// bytes.go): a string is read as Go's strconv reads it (`int('')`, `int(' 1')`, `int('0x10')` and
// `double('1_0')` are errors, `double('inf')` is +Inf, `double('1e400')` is out of range, each with
// strconv's message), a double is written as strconv.FormatFloat(d, 'g', -1, 64) writes it
// (`1.234567e+06`, `1e-05`, `-0`, `+Inf`), a timestamp as Go's RFC 3339 with nanoseconds (no
// trailing zeros: `…00.5Z`), a duration as its seconds in the shortest fixed notation (`1.5s`), and
// bytes that are not UTF-8 are no string. These replace the library's overloads of the same
// signatures.
import type * as Cel from '@bufbuild/cel';
import { goQuote } from '../../../../machinery/structural/index.js';
import type { SecondsAndNanos } from './format-values.js';
import type { CelModules } from './message-types.js';

const maxInt64 = 2n ** 63n - 1n;
const minInt64 = -(2n ** 63n);
const maxUint64 = 2n ** 64n - 1n;

const syntaxError = (fn: string, s: string): Error =>
  new Error(`strconv.${fn}: parsing ${goQuote(s)}: invalid syntax`);
const rangeError = (fn: string, s: string): Error =>
  new Error(`strconv.${fn}: parsing ${goQuote(s)}: value out of range`);

/** strconv.ParseInt(s, 10, 64). */
export function parseInt64(s: string): bigint {
  if (!/^[+-]?[0-9]+$/.test(s)) throw syntaxError('ParseInt', s);
  const n = BigInt(s);
  if (n > maxInt64 || n < minInt64) throw rangeError('ParseInt', s);
  return n;
}

/** strconv.ParseUint(s, 10, 64). */
export function parseUint64(s: string): bigint {
  if (!/^[0-9]+$/.test(s)) throw syntaxError('ParseUint', s);
  const n = BigInt(s);
  if (n > maxUint64) throw rangeError('ParseUint', s);
  return n;
}

const decimal = /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/;
const hexadecimal = /^([+-]?)0[xX]([0-9a-fA-F]*)\.?([0-9a-fA-F]*)[pP]([+-]?[0-9]+)$/;

/** strconv.ParseFloat(s, 64): decimal and hexadecimal (with its p exponent) floats, inf and nan. */
export function parseFloat64(s: string): number {
  const special = /^([+-]?)(inf|infinity)$/i.exec(s);
  if (special !== null) return special[1] === '-' ? -Infinity : Infinity;
  if (/^nan$/i.test(s)) return NaN;
  let value: number;
  const hex = hexadecimal.exec(s);
  if (hex !== null) {
    const [, sign = '', whole = '', fraction = '', exponent = '0'] = hex;
    if (whole === '' && fraction === '') throw syntaxError('ParseFloat', s);
    const mantissa = Number(BigInt(`0x${whole}${fraction}`));
    value = mantissa * 2 ** (Number(exponent) - 4 * fraction.length) * (sign === '-' ? -1 : 1);
  } else if (decimal.test(s)) {
    value = Number(s);
  } else {
    throw syntaxError('ParseFloat', s);
  }
  if (!Number.isFinite(value)) throw rangeError('ParseFloat', s);
  return value;
}

/** strconv.FormatFloat(d, 'g', -1, 64): the shortest digits, an exponent below 1e-4 or from 1e6. */
export function formatFloat(d: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (d === Infinity) return '+Inf';
  if (d === -Infinity) return '-Inf';
  if (d === 0) return Object.is(d, -0) ? '-0' : '0';
  const [mantissa = '', exponentText = '0'] = d.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent >= -4 && exponent < 6) return String(d);
  const digits = String(Math.abs(exponent)).padStart(2, '0');
  return `${mantissa}e${exponent < 0 ? '-' : '+'}${digits}`;
}

/** The shortest digits of `d` that read back as `d`, without an exponent (FormatFloat 'f', -1). */
export function formatFixed(d: number): string {
  const [mantissa = '', exponentText = '0'] = Math.abs(d).toExponential().split('e');
  const exponent = Number(exponentText);
  const digits = mantissa.replace('.', '');
  let text: string;
  if (exponent < 0) text = `0.${'0'.repeat(-exponent - 1)}${digits}`;
  else if (exponent + 1 >= digits.length) text = digits + '0'.repeat(exponent + 1 - digits.length);
  else text = `${digits.slice(0, exponent + 1)}.${digits.slice(exponent + 1)}`;
  return (d < 0 ? '-' : '') + text;
}

/** A Timestamp's or Duration's fields, from the message or its reflection CEL passes. */
function secondsAndNanos(v: unknown): SecondsAndNanos {
  const message = typeof v === 'object' && v !== null && 'message' in v ? v.message : v;
  return message as SecondsAndNanos;
}

/** Go's time.RFC3339Nano of a UTC time: the fraction without trailing zeros, none when zero. */
export function formatTimestamp(t: SecondsAndNanos): string {
  const date = new Date(Number(t.seconds) * 1000).toISOString().slice(0, 19);
  const fraction = t.nanos === 0 ? '' : `.${String(t.nanos).padStart(9, '0').replace(/0+$/, '')}`;
  return `${date}${fraction}Z`;
}

/** cel-go's duration text: time.Duration.Seconds() in FormatFloat's shortest fixed notation, and s. */
export function formatDuration(d: SecondsAndNanos): string {
  return `${formatFixed(Number(d.seconds) + d.nanos / 1e9)}s`;
}

/** The overloads that replace @bufbuild/cel's conversions of the same signatures. */
export function conversionFunctions(m: CelModules): Cel.CelFunc[] {
  const { cel, wkt } = m;
  const { STRING, INT, UINT, DOUBLE, BYTES } = cel.CelScalar;
  const timestamp = cel.objectType(wkt.TimestampSchema);
  const duration = cel.objectType(wkt.DurationSchema);
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  return [
    cel.celFunc('int', [STRING], INT, (s) => parseInt64(s)),
    cel.celFunc('uint', [STRING], UINT, (s) => cel.celUint(parseUint64(s))),
    cel.celFunc('double', [STRING], DOUBLE, (s) => parseFloat64(s)),
    cel.celFunc('string', [DOUBLE], STRING, (d) => formatFloat(d)),
    cel.celFunc('string', [timestamp], STRING, (t) => formatTimestamp(secondsAndNanos(t))),
    cel.celFunc('string', [duration], STRING, (d) => formatDuration(secondsAndNanos(d))),
    cel.celFunc('string', [BYTES], STRING, (b) => {
      try {
        return utf8.decode(b);
      } catch {
        throw new Error('invalid UTF-8 in bytes, cannot convert to string');
      }
    }),
  ];
}
