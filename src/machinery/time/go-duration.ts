// Go's time.ParseDuration for flag values like `1m0s`, `500ms`, `5m` (kube's duration flags).

const unitMs: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

// µ (U+00B5) and μ (U+03BC) escaped: an ASCII-only bundle loads as a one-byte string.
const part = /^(\d+(?:\.\d*)?|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)/;

/** Milliseconds in a Go duration string; throws on anything Go would reject. */
export function parseGoDuration(text: string): number {
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') throw new Error(`time: invalid duration ${JSON.stringify(text)}`);
  let total = 0;
  while (rest !== '') {
    const m = part.exec(rest);
    if (m === null) throw new Error(`time: invalid duration ${JSON.stringify(text)}`);
    total += Number(m[1]) * (unitMs[m[2] ?? ''] ?? 0);
    rest = rest.slice(m[0].length);
  }
  return sign * total;
}

/** Go's Duration.String() for whole milliseconds, as help text shows defaults (`1m0s`). */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}

// The most seconds whose nanoseconds fit in an int64 (a Go time.Duration), either way.
const maxDurationSeconds = 9_223_372_036;

/**
 * Milliseconds in Go's `time.Duration(seconds) * time.Second`: int64 nanoseconds, which wrap past
 * ±2^63 as Go's integer arithmetic does, so ten billion seconds come out negative. An integer beyond
 * ±2^53 is taken as the double it was read into.
 */
export function secondsDurationMs(seconds: number): number {
  if (Math.abs(seconds) <= maxDurationSeconds) return seconds * 1000;
  return Number(BigInt.asIntN(64, BigInt(seconds) * 1_000_000_000n)) / 1e6;
}
