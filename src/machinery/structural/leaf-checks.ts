// Checks for scalar Go types and for kube's types with their own UnmarshalJSON
// (metav1.Time, metav1.MicroTime, intstr.IntOrString, resource.Quantity).
import { canonicalQuantity, quantityErrors } from '../quantity/quantity.js';
import { countValueKeys } from './duplicate-scan.js';
import { goBase64Error } from './go-base64.js';
import { goNumberText, jsonValueKind, saveTypeError, unmarshalTypeError } from './go-errors.js';
import { parseGoTime } from './go-time.js';
import { type Check, DecodeAbort } from './node.js';
import { NumberLiteral } from './number-literal.js';

/** [minimum, maximum + 1] of each Go integer type. */
const intRanges: Readonly<Record<string, readonly [number, number]>> = {
  int32: [-(2 ** 31), 2 ** 31],
  int64: [-(2 ** 63), 2 ** 63],
  int: [-(2 ** 63), 2 ** 63],
  uint8: [0, 256],
};

/** A literal into a Go kind that does not take it: Go names the value kind and the target type. */
const mismatch =
  (goType: string): Check =>
  (v, st) => {
    if (st.countKeys) st.keys += countValueKeys(v);
    saveTypeError(st, jsonValueKind(v), goType);
    return v;
  };

export function stringCheck(goType: string): Check {
  const bad = mismatch(goType);
  return (v, st) => (typeof v === 'string' ? v : bad(v, st));
}

export function boolCheck(goType: string): Check {
  const bad = mismatch(goType);
  return (v, st) => (typeof v === 'boolean' ? v : bad(v, st));
}

export function floatCheck(goType: string): Check {
  const bad = mismatch(goType);
  return (v, st) => (typeof v === 'number' ? v : bad(v, st));
}

export function intCheck(goType: string, bits: string): Check {
  const [min, end] = intRanges[bits] ?? [-(2 ** 63), 2 ** 63];
  const bad = mismatch(goType);
  return (v, st) => {
    if (typeof v !== 'number') {
      if (!(v instanceof NumberLiteral)) return bad(v, st);
      // A fraction or an exponent: ParseInt refuses the text whatever its value.
      saveTypeError(st, `number ${v.text}`, goType);
      return v.value;
    }
    if (!Number.isInteger(v) || v < min || v >= end) saveTypeError(st, `number ${goNumberText(v)}`, goType);
    return v;
  };
}

/** Go []byte: base64 text, or (rarely) a JSON array of bytes, which Go also accepts. */
export function bytesCheck(goType: string): Check {
  const elem = intCheck('uint8', 'uint8');
  return (v, st) => {
    if (typeof v === 'string') {
      const err = goBase64Error(v);
      if (err !== undefined) st.saved ??= err;
      return v;
    }
    if (!Array.isArray(v)) {
      saveTypeError(st, jsonValueKind(v), goType);
      return v;
    }
    const list = v as unknown[];
    const before = st.saved;
    for (const b of list) elem(b, st);
    if (st.saved !== before) return list;
    return Buffer.from(list as number[]).toString('base64');
  };
}

/** metav1.Time / MicroTime: a JSON string in RFC 3339, normalised to UTC as kube writes it back. */
export function timeCheck(micro: boolean): Check {
  return (v, st) => {
    if (typeof v !== 'string') throw new DecodeAbort(unmarshalTypeError(st, jsonValueKind(v), 'string'));
    const parsed = parseGoTime(v, micro);
    if (!parsed.ok) throw new DecodeAbort(parsed.error);
    return parsed.iso;
  };
}

/** intstr.IntOrString: a string, or a number that must fit int32. */
export const intOrStringCheck: Check = (v, st) => {
  if (typeof v === 'string') return v;
  if (v instanceof NumberLiteral) throw new DecodeAbort(unmarshalTypeError(st, `number ${v.text}`, 'int32'));
  if (typeof v === 'number') {
    if (Number.isInteger(v) && v >= -2147483648 && v <= 2147483647) return v;
    throw new DecodeAbort(unmarshalTypeError(st, `number ${goNumberText(v)}`, 'int32'));
  }
  throw new DecodeAbort(unmarshalTypeError(st, jsonValueKind(v), 'int32'));
};

export const quantityFormatError = quantityErrors.formatWrong;

/**
 * resource.Quantity: a string or a bare number (the number's text as the body wrote it, where it
 * has a fraction or an exponent), parsed as ParseQuantity does and written back in the form kube's
 * String() gives it (`1000m` → `1`, `1024Mi` → `1Gi`, `1e3` → `1e3`).
 */
export const quantityCheck: Check = (v) => {
  const text =
    typeof v === 'string'
      ? v.trim()
      : typeof v === 'number'
        ? goNumberText(v)
        : v instanceof NumberLiteral
          ? v.text
          : undefined;
  if (text === undefined) throw new DecodeAbort(quantityFormatError);
  const canonical = canonicalQuantity(text);
  if (!canonical.ok) throw new DecodeAbort(canonical.error);
  return canonical.text;
};

/** Anything goes: interface{}, runtime.RawExtension, metav1.FieldsV1. */
export const anyCheck: Check = (v, st) => {
  if (st.countKeys) st.keys += countValueKeys(v);
  return v;
};
