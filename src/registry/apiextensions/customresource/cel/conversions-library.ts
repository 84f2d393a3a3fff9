// cel-go's type conversions where @bufbuild/cel's differ (common/types/string.go, double.go,
// bytes.go): a string is read as Go's strconv reads it (`int('')`, `int(' 1')`, `int('0x10')` and
// `double('1_0')` are errors, `double('inf')` is +Inf, `double('1e400')` is out of range, each with
// strconv's message), a double is written as strconv.FormatFloat(d, 'g', -1, 64) writes it
// (`1.234567e+06`, `1e-05`, `-0`, `+Inf`), and bytes that are not UTF-8 are no string. These
// replace the library's overloads of the same signatures.
import type * as Cel from '@bufbuild/cel';
import { goQuote } from '../../../../machinery/structural/index.js';

type Module = typeof Cel;

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

/** The overloads that replace @bufbuild/cel's conversions of the same signatures. */
export function conversionFunctions(cel: Module): Cel.CelFunc[] {
  const { STRING, INT, UINT, DOUBLE, BYTES } = cel.CelScalar;
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  return [
    cel.celFunc('int', [STRING], INT, (s) => parseInt64(s)),
    cel.celFunc('uint', [STRING], UINT, (s) => cel.celUint(parseUint64(s))),
    cel.celFunc('double', [STRING], DOUBLE, (s) => parseFloat64(s)),
    cel.celFunc('string', [DOUBLE], STRING, (d) => formatFloat(d)),
    cel.celFunc('string', [BYTES], STRING, (b) => {
      try {
        return utf8.decode(b);
      } catch {
        throw new Error('invalid UTF-8 in bytes, cannot convert to string');
      }
    }),
  ];
}
