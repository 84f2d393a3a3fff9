// Go's time.Duration.String: "1h2m3.5s", "1.5ms", "0s"; metav1.Duration's JSON form.

const second = 1_000_000_000n;

/** `value / 10^digits` as a decimal fraction without trailing zeros ("" when it is whole). */
function fraction(value: bigint, digits: number): string {
  const text = value.toString().padStart(digits, '0').replace(/0+$/, '');
  return text === '' ? '' : `.${text}`;
}

function belowSecond(u: bigint): string {
  if (u < 1000n) return `${u}ns`;
  if (u < 1_000_000n) return `${u / 1000n}${fraction(u % 1000n, 3)}µs`;
  return `${u / 1_000_000n}${fraction(u % 1_000_000n, 6)}ms`;
}

function atLeastSecond(u: bigint): string {
  const seconds = u / second;
  const secs = `${seconds % 60n}${fraction(u % second, 9)}s`;
  const minutes = seconds / 60n;
  if (minutes === 0n) return secs;
  const hours = minutes / 60n;
  const mins = `${minutes % 60n}m${secs}`;
  return hours === 0n ? mins : `${hours}h${mins}`;
}

/** The text Go prints for a duration of `ns` nanoseconds (an int64). */
export function goDurationString(ns: bigint): string {
  if (ns === 0n) return '0s';
  // Go negates in uint64, so the most negative int64 prints as its own magnitude.
  const u = BigInt.asUintN(64, ns < 0n ? -ns : ns);
  const text = u < second ? belowSecond(u) : atLeastSecond(u);
  return ns < 0n ? `-${text}` : text;
}
