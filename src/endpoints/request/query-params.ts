// Query parameters as kube's parameter codec converts them (k8s.io/apimachinery/pkg/runtime
// conversion.go): the first value wins, booleans are lenient, integers are strict.
import { newBadRequest } from '../../machinery/errors/index.js';
import { goQuote } from '../../machinery/validation/index.js';

/** Only "0" and "false" (any case) are false; anything else, the empty string too, is true. */
export function goBool(value: string): boolean {
  return !(value === '0' || value.toLowerCase() === 'false');
}

const int64Max = 9223372036854775807n;
const int64Min = -9223372036854775808n;

/** strconv.ParseInt(s, 10, 64) with Go's error text; numbers beyond 2^53 lose precision. */
export function parseGoInt64(value: string): { ok: true; value: number } | { ok: false; message: string } {
  if (!/^[+-]?[0-9]+$/.test(value)) {
    return { ok: false, message: `strconv.ParseInt: parsing ${goQuote(value)}: invalid syntax` };
  }
  const big = BigInt(value.startsWith('+') ? value.slice(1) : value);
  if (big > int64Max || big < int64Min) {
    return { ok: false, message: `strconv.ParseInt: parsing ${goQuote(value)}: value out of range` };
  }
  return { ok: true, value: Number(big) };
}

/** The first value of a parameter, or undefined when it is absent. */
export function first(query: URLSearchParams, key: string): string | undefined {
  return query.get(key) ?? undefined;
}

/** An int64 parameter; a malformed one is a BadRequest carrying strconv's message. */
export function int64Param(query: URLSearchParams, key: string): number | undefined {
  const raw = query.get(key);
  if (raw === null) return undefined;
  const parsed = parseGoInt64(raw);
  if (!parsed.ok) throw newBadRequest(parsed.message);
  return parsed.value;
}

/** A *bool parameter: undefined when absent. */
export function boolParam(query: URLSearchParams, key: string): boolean | undefined {
  const raw = query.get(key);
  return raw === null ? undefined : goBool(raw);
}
