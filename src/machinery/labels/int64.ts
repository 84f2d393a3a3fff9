// Go's strconv.ParseInt(s, 10, 64), which the gt and lt operators apply to values.

const decimal = /^[+-]?[0-9]+$/;
const min = -(2n ** 63n);
const max = 2n ** 63n - 1n;

/** The integer a string spells in base 10 within int64 range, or undefined. */
export function parseInt64(s: string): bigint | undefined {
  if (!decimal.test(s)) return undefined;
  const n = BigInt(s);
  return n < min || n > max ? undefined : n;
}
