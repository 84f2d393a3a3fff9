// The values rules see for strings of some formats (k8s.io/apiserver pkg/cel/common/values.go,
// UnstructuredToVal): `date` and `date-time` are timestamps, `duration` a duration, `byte` the bytes
// its base64 holds. They are parsed as kube-openapi's strfmt parses them: Go's duration syntax,
// else strfmt's own units (`3d`, `2 weeks`); RFC 3339 times, a missing zone meaning UTC.
import { parseGoDuration } from '../../../../machinery/time/go-duration.js';

/** A point in time or a span: whole seconds and the nanoseconds beyond them (same sign). */
export interface SecondsAndNanos {
  readonly seconds: bigint;
  readonly nanos: number;
}

const nanosPerSecond = 1_000_000_000n;

function fromNanos(total: bigint): SecondsAndNanos {
  return { seconds: total / nanosPerSecond, nanos: Number(total % nanosPerSecond) };
}

// strfmt's units beyond Go's, in nanoseconds.
const second = nanosPerSecond;
const strfmtUnits: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1000n,
  '\u00b5s': 1000n,
  ms: 1_000_000n,
  s: second,
  second,
  seconds: second,
  sec: second,
  secs: second,
  m: 60n * second,
  minute: 60n * second,
  minutes: 60n * second,
  min: 60n * second,
  mins: 60n * second,
  h: 3600n * second,
  hour: 3600n * second,
  hours: 3600n * second,
  hr: 3600n * second,
  hrs: 3600n * second,
  d: 86400n * second,
  day: 86400n * second,
  days: 86400n * second,
  w: 604800n * second,
  week: 604800n * second,
  weeks: 604800n * second,
};

/** strfmt.ParseDuration: Go's syntax, else every `<integer> <unit>` it finds, summed. */
export function parseDuration(text: string): SecondsAndNanos | undefined {
  try {
    return fromNanos(BigInt(Math.round(parseGoDuration(text) * 1e6)));
  } catch {
    // Not Go's syntax: strfmt's own.
  }
  let total = 0n;
  let found = false;
  for (const m of text.matchAll(/(\d+)\s*([A-Za-z\u00b5]+)/g)) {
    const unit = strfmtUnits[(m[2] ?? '').toLowerCase()];
    if (unit === undefined) return undefined;
    total += BigInt(m[1] ?? '0') * unit;
    found = true;
  }
  return found ? fromNanos(total) : undefined;
}

/** Milliseconds since the epoch of a UTC wall time (years below 100 too, which Date.UTC maps to 19xx). */
function utcMs(parts: readonly number[]): number {
  const [y = 0, mo = 1, d = 1, h = 0, mi = 0, s = 0] = parts;
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, 0);
  return date.getTime();
}

const dateTime = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/;

/** strfmt.ParseDateTime over the forms kube's validation lets through; no zone is UTC. */
export function parseDateTime(text: string): SecondsAndNanos | undefined {
  const m = dateTime.exec(text);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s, fraction, zone] = m;
  const ms = utcMs([y, mo, d, h, mi, s ?? '0'].map(Number));
  if (Number.isNaN(ms)) return undefined;
  let offsetSeconds = 0;
  if (zone !== undefined && zone !== 'Z' && zone !== 'z') {
    const digits = zone.replace(':', '');
    const sign = digits.startsWith('-') ? -1 : 1;
    offsetSeconds = sign * (Number(digits.slice(1, 3)) * 3600 + Number(digits.slice(3, 5)) * 60);
  }
  const nanos = fraction === undefined ? 0 : Number(fraction.slice(1, 10).padEnd(9, '0'));
  return { seconds: BigInt(ms / 1000 - offsetSeconds), nanos };
}

/** A `date` (RFC 3339 full-date) as midnight UTC. */
export function parseDate(text: string): SecondsAndNanos | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (m === null) return undefined;
  const ms = utcMs([m[1], m[2], m[3]].map(Number));
  return Number.isNaN(ms) ? undefined : { seconds: BigInt(ms / 1000), nanos: 0 };
}

/** strfmt.Base64: standard base64 with padding. */
export function parseBase64(text: string): Uint8Array | undefined {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return undefined;
  return new Uint8Array(Buffer.from(text, 'base64'));
}
