// resource.Quantity (k8s.io/apimachinery/pkg/api/resource): an exact decimal parsed as
// ParseQuantity does, and written back as its String() does. A value is `unscaled × 10^exponent`
// in bigint; nothing goes through floating point.

export const quantityFormats = ['DecimalExponent', 'BinarySI', 'DecimalSI'] as const;
export type QuantityFormat = (typeof quantityFormats)[number];

export interface Quantity {
  /** The value is unscaled × 10^exponent. */
  readonly unscaled: bigint;
  readonly exponent: number;
  /** The suffix family the value is written in. */
  readonly format: QuantityFormat;
  /** The text as given, which kube keeps (and writes back) when it is already in canonical form. */
  readonly text?: string;
}

/** ErrFormatWrong, ErrNumeric and ErrSuffix. */
export const quantityErrors = {
  formatWrong: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
  numeric: 'unable to parse numeric part of quantity',
  suffix: "unable to parse quantity's suffix",
} as const;

export type QuantityParse = { ok: true; quantity: Quantity } | { ok: false; error: string };

const decimalSuffixes: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const binarySuffixes: Readonly<Record<string, number>> = {
  Ki: 10,
  Mi: 20,
  Gi: 30,
  Ti: 40,
  Pi: 50,
  Ei: 60,
};
const decimalByExponent = new Map(Object.entries(decimalSuffixes).map(([s, e]) => [e, s]));
const binaryByPower = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

/** The digits an int64 always holds (maxInt64Factors). */
const int64Digits = 18;
const maxInt64 = 2n ** 63n - 1n;
/** The smallest scale a quantity keeps: values are rounded up to a whole nano. */
const nanoExponent = -9;

const suffixLetters = 'eEinumkKMGTP';
const isDigit = (c: string): boolean => c.length === 1 && c >= '0' && c <= '9';

interface Scanned {
  positive: boolean;
  /** The sign and number, without the suffix. */
  value: string;
  /** The integer digits without leading zeros ("0" when none are left). */
  num: string;
  /** The fraction digits. */
  denom: string;
  suffix: string;
}

/** parseQuantityString: splits sign, number and suffix; undefined when the text has the wrong form. */
function scan(str: string): Scanned | undefined {
  const end = str.length;
  const at = (i: number): string => str.charAt(i);
  let pos = 0;
  let positive = true;
  if (at(0) === '-' || at(0) === '+') {
    positive = at(0) === '+';
    pos++;
  }
  while (pos < end && at(pos) === '0') pos++;
  if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
  let start = pos;
  while (pos < end && isDigit(at(pos))) pos++;
  const num = str.slice(start, pos) || '0';
  if (pos >= end) return { positive, value: str, num, denom: '', suffix: '' };
  let denom = '';
  if (at(pos) === '.') {
    start = ++pos;
    while (pos < end && isDigit(at(pos))) pos++;
    denom = str.slice(start, pos);
    if (pos >= end) return { positive, value: str, num, denom, suffix: '' };
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  while (pos < end && suffixLetters.includes(at(pos))) pos++;
  if (pos < end && (at(pos) === '-' || at(pos) === '+')) pos++;
  while (pos < end && isDigit(at(pos))) pos++;
  return pos >= end ? { positive, value, num, denom, suffix: str.slice(suffixStart) } : undefined;
}

interface Suffix {
  base: 2 | 10;
  exponent: number;
  format: QuantityFormat;
}

/** strconv.ParseInt(s, 10, 64), then Go's int32 conversion. */
function goInt32(s: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n > maxInt64 || n < -maxInt64 - 1n ? undefined : Number(BigInt.asIntN(32, n));
}

/** The suffixer's interpret: SI tables first, then an `e`/`E` exponent. */
function interpret(s: string): Suffix | undefined {
  const dec = decimalSuffixes[s];
  if (dec !== undefined) return { base: 10, exponent: dec, format: 'DecimalSI' };
  const bin = binarySuffixes[s];
  if (bin !== undefined) return { base: 2, exponent: bin, format: 'BinarySI' };
  if (s.length > 1 && (s.startsWith('e') || s.startsWith('E'))) {
    const exponent = goInt32(s.slice(1));
    if (exponent !== undefined) return { base: 10, exponent, format: 'DecimalExponent' };
  }
  return undefined;
}

/** The int64 fast path of ParseQuantity, undefined where kube falls back to inf.Dec. */
function parseInt64(str: string, s: Scanned, suffix: Suffix): Quantity | undefined {
  const { num, denom } = s;
  const { exponent, format } = suffix;
  let precision: number;
  let mantissa = 1n;
  if (format !== 'BinarySI') precision = int64Digits - (num.length + denom.length);
  else if (exponent >= 0 && denom === '') {
    mantissa = 1n << BigInt(exponent);
    precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
  } else precision = -1;
  if (precision < 0) return undefined;
  const scale = ((format === 'BinarySI' ? 0 : exponent) - denom.length) | 0;
  if (scale < nanoExponent) return undefined;
  const shifted = num + denom;
  const value = BigInt(shifted);
  const magnitude = value * mantissa;
  if (magnitude > maxInt64) return undefined;
  const unscaled = s.positive ? magnitude : -magnitude;
  const canonical =
    format === 'BinarySI'
      ? exponent % 10 === 0 && (value & 7n) !== 0n
      : scale % 3 === 0 && !shifted.endsWith('000') && !shifted.startsWith('0');
  return canonical ? { unscaled, exponent: scale, format, text: str } : { unscaled, exponent: scale, format };
}

const digitCount = (n: bigint): number => (n < 0n ? -n : n).toString().length;

/** The inf.Dec path of ParseQuantity: exact, rounded up to a nano, BinarySI capped at int64. */
function parseDecimal(s: Scanned, suffix: Suffix): QuantityParse {
  const m = /^[+-]?([0-9]*)(?:\.([0-9]*))?$/.exec(s.value);
  const digits = (m?.[1] ?? '') + (m?.[2] ?? '');
  if (m === null || digits === '') return { ok: false, error: quantityErrors.numeric };
  let magnitude = BigInt(digits);
  let exponent = -(m[2] ?? '').length;
  if (suffix.base === 10) exponent += suffix.exponent;
  else magnitude <<= BigInt(suffix.exponent);
  let format = suffix.format;
  if (magnitude !== 0n && exponent < nanoExponent) {
    const shift = nanoExponent - exponent;
    // A value under one nano rounds up to one; the division is only done where it is small.
    if (digitCount(magnitude) <= shift) magnitude = 1n;
    else {
      const d = 10n ** BigInt(shift);
      magnitude = (magnitude + d - 1n) / d;
    }
    exponent = nanoExponent;
  }
  if (format === 'BinarySI' && magnitude !== 0n) {
    // exponent is within [-9, 0] here: the binary suffixes add no decimal exponent.
    const one = 10n ** BigInt(-exponent);
    if (magnitude > maxInt64 * one) {
      magnitude = maxInt64;
      exponent = 0;
    } else if (magnitude !== 0n && magnitude < one) format = 'DecimalSI';
  }
  const unscaled = s.positive ? magnitude : -magnitude;
  return { ok: true, quantity: { unscaled, exponent, format } };
}

// Parsing is pure, and the same few texts ("100m", "128Mi") come back in every Pod, several times
// each (defaulting, validation, QoS): results are kept, frozen, for the texts seen most recently.
// The memo holds no server state; it is dropped whole when it fills.
const parsed = new Map<string, QuantityParse>();
const parsedLimit = 4096;

/** ParseQuantity: the exact value of a quantity, or kube's error text. The result is frozen. */
export function parseQuantity(str: string): QuantityParse {
  const known = parsed.get(str);
  if (known !== undefined) return known;
  const result = parseUncached(str);
  if (result.ok) Object.freeze(result.quantity);
  if (parsed.size >= parsedLimit) parsed.clear();
  parsed.set(str, Object.freeze(result));
  return result;
}

function parseUncached(str: string): QuantityParse {
  if (str === '') return { ok: false, error: quantityErrors.formatWrong };
  if (str === '0')
    return { ok: true, quantity: { unscaled: 0n, exponent: 0, format: 'DecimalSI', text: str } };
  const scanned = scan(str);
  if (scanned === undefined) return { ok: false, error: quantityErrors.formatWrong };
  const suffix = interpret(scanned.suffix);
  if (suffix === undefined) return { ok: false, error: quantityErrors.suffix };
  const fast = parseInt64(str, scanned, suffix);
  return fast !== undefined ? { ok: true, quantity: fast } : parseDecimal(scanned, suffix);
}

export class QuantityParseError extends Error {}

/** parseQuantity for text known to be valid; throws QuantityParseError otherwise. */
export function mustParseQuantity(str: string): Quantity {
  const parsed = parseQuantity(str);
  if (!parsed.ok) throw new QuantityParseError(`cannot parse '${str}': ${parsed.error}`);
  return parsed.quantity;
}

/** The sign of a quantity: -1, 0 or 1. */
export const quantitySign = (q: Quantity): -1 | 0 | 1 => (q.unscaled < 0n ? -1 : q.unscaled > 0n ? 1 : 0);

/** Whether the value is a whole number. */
function isWhole(q: Quantity): boolean {
  if (q.exponent >= 0 || q.unscaled === 0n) return true;
  if (digitCount(q.unscaled) <= -q.exponent) return false;
  return q.unscaled % 10n ** BigInt(-q.exponent) === 0n;
}

/** Moves the factors of 10 of a non-zero unscaled value into the exponent. */
function stripTens(unscaled: bigint, exponent: number): [bigint, number] {
  let [m, e] = [unscaled, exponent];
  while (m % 10n === 0n) {
    m /= 10n;
    e++;
  }
  return [m, e];
}

/** The decimal canonical form: exponent a multiple of three, as large as no fraction allows. */
function decimalString(q: Quantity, format: QuantityFormat): string {
  let [m, e] = stripTens(q.unscaled, q.exponent);
  while (e % 3 !== 0) {
    m *= 10n;
    e--;
  }
  // An exponent no SI suffix names (above E) is written without one, as kube does.
  const suffix = format === 'DecimalSI' ? (decimalByExponent.get(e) ?? '') : e === 0 ? '' : `e${e}`;
  return `${m}${suffix}`;
}

/** Quantity.String(): the kept text when kube keeps it, else CanonicalizeBytes. */
export function quantityString(q: Quantity): string {
  if (q.text !== undefined) return q.text;
  if (q.unscaled === 0n) return '0';
  if (q.format !== 'BinarySI') return decimalString(q, q.format);
  const small = compareQuantities(q, decimal(-1024n)) > 0 && compareQuantities(q, decimal(1024n)) < 0;
  if (small || !isWhole(q)) return decimalString(q, 'DecimalSI');
  let n = q.exponent >= 0 ? q.unscaled * 10n ** BigInt(q.exponent) : q.unscaled / 10n ** BigInt(-q.exponent);
  let power = 0;
  while (n % 1024n === 0n) {
    n /= 1024n;
    power++;
  }
  return `${n}${binaryByPower[power] ?? ''}`;
}

/** The canonical text of a quantity, or kube's error text. */
export function canonicalQuantity(str: string): { ok: true; text: string } | { ok: false; error: string } {
  const parsed = parseQuantity(str);
  return parsed.ok ? { ok: true, text: quantityString(parsed.quantity) } : parsed;
}

const decimal = (n: bigint): Quantity => ({ unscaled: n, exponent: 0, format: 'DecimalSI' });

/** Cmp: -1, 0 or 1 as a is less than, equal to or greater than b. */
export function compareQuantities(a: Quantity, b: Quantity): -1 | 0 | 1 {
  const [sa, sb] = [quantitySign(a), quantitySign(b)];
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  // Same sign: compare the orders of magnitude first, so far-apart exponents never align.
  const [oa, ob] = [digitCount(a.unscaled) + a.exponent, digitCount(b.unscaled) + b.exponent];
  if (oa !== ob) return oa > ob === sa > 0 ? 1 : -1;
  const e = Math.min(a.exponent, b.exponent);
  const x = a.unscaled * 10n ** BigInt(a.exponent - e);
  const y = b.unscaled * 10n ** BigInt(b.exponent - e);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Beyond this many decimal places apart, a sum keeps only the larger term (never met in practice). */
const maxAlignment = 4096;

/** Add: the exact sum; the format is a's unless a is zero. */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  if (b.unscaled === 0n) return { unscaled: a.unscaled, exponent: a.exponent, format: a.format };
  if (a.unscaled === 0n) return { unscaled: b.unscaled, exponent: b.exponent, format: b.format };
  if (Math.abs(a.exponent - b.exponent) > maxAlignment) {
    const big = a.exponent > b.exponent ? a : b;
    return { unscaled: big.unscaled, exponent: big.exponent, format: a.format };
  }
  const e = Math.min(a.exponent, b.exponent);
  const unscaled = a.unscaled * 10n ** BigInt(a.exponent - e) + b.unscaled * 10n ** BigInt(b.exponent - e);
  return { unscaled, exponent: e, format: a.format };
}

/** RoundUp(scale): the value with no digits below 10^scale, rounded away from zero. */
export function roundUpToScale(q: Quantity, scale: number): Quantity {
  const shift = scale - q.exponent;
  if (shift <= 0 || q.unscaled === 0n)
    return { unscaled: q.unscaled, exponent: q.exponent, format: q.format };
  const magnitude = q.unscaled < 0n ? -q.unscaled : q.unscaled;
  const rounded =
    digitCount(magnitude) <= shift ? 1n : (magnitude + 10n ** BigInt(shift) - 1n) / 10n ** BigInt(shift);
  return { unscaled: q.unscaled < 0n ? -rounded : rounded, exponent: scale, format: q.format };
}

/**
 * ScaledValue without int64 wrapping: the value in units of 10^scale, rounded away from zero
 * (MilliValue is scale -3, Value scale 0). For values of ordinary size: it writes out every digit.
 */
export function scaledValue(q: Quantity, scale: number): bigint {
  const r = roundUpToScale(q, scale);
  return r.unscaled * 10n ** BigInt(r.exponent - scale);
}

/** MilliValue: thousandths, rounded away from zero. */
export const milliValue = (q: Quantity): bigint => scaledValue(q, -3);

/** AsApproximateFloat64: the nearest double (±Infinity when out of range). */
export const approximateFloat = (q: Quantity): number => Number.parseFloat(`${q.unscaled}e${q.exponent}`);

/** Whether the value is a whole number (MilliValue() % 1000 == 0 for values in int64 range). */
export const isIntegerQuantity = (q: Quantity): boolean => isWhole(q);
