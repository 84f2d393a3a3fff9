// Parses the timestamps of metav1.Time (RFC 3339) and metav1.MicroTime (RFC 3339 with
// microseconds) as Go's time.Parse does, returning its ParseError text on failure and the
// UTC form kube writes back (Time drops fractions, MicroTime keeps six digits).
import { goQuote } from './go-quote.js';

export const RFC3339 = '2006-01-02T15:04:05Z07:00';
export const RFC3339_MICRO = '2006-01-02T15:04:05.000000Z07:00';

type Elem = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'frac6' | 'zone';
type Chunk = { prefix: string; elem: Elem; text: string };

const chunks = (micro: boolean): Chunk[] => [
  { prefix: '', elem: 'year', text: '2006' },
  { prefix: '-', elem: 'month', text: '01' },
  { prefix: '-', elem: 'day', text: '02' },
  { prefix: 'T', elem: 'hour', text: '15' },
  { prefix: ':', elem: 'minute', text: '04' },
  { prefix: ':', elem: 'second', text: '05' },
  ...(micro ? [{ prefix: '', elem: 'frac6' as const, text: '.000000' }] : []),
  { prefix: '', elem: 'zone', text: 'Z07:00' },
];

const isDigit = (s: string, i: number): boolean =>
  i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;

class Bad extends Error {}

/** Go's getnum: one or two digits, exactly two when fixed. */
function getnum(s: string, fixed: boolean): [number, string] {
  if (!isDigit(s, 0)) throw new Bad();
  if (!isDigit(s, 1)) {
    if (fixed) throw new Bad();
    return [s.charCodeAt(0) - 48, s.slice(1)];
  }
  return [(s.charCodeAt(0) - 48) * 10 + (s.charCodeAt(1) - 48), s.slice(2)];
}

export type TimeParse = { ok: true; iso: string } | { ok: false; error: string };

interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  micros: number;
  offsetMinutes: number;
  micro: boolean;
}

const monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (year: number): boolean => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
/** Days in a month of the proleptic Gregorian calendar, as Go's time has it (year 0 is a leap year). */
const daysIn = (month: number, year: number): number =>
  month === 2 && isLeap(year) ? 29 : (monthDays[month - 1] ?? 0);

const digitAt = (s: string, i: number): number => s.charCodeAt(i) - 48;
const twoDigits = (s: string, i: number): number => {
  const a = digitAt(s, i);
  const b = digitAt(s, i + 1);
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
};

/** The form kube itself writes (`2024-05-01T10:00:00Z`), valid and already canonical: no parsing needed. */
function isCanonicalUTC(s: string): boolean {
  if (
    s.length !== 20 ||
    s[4] !== '-' ||
    s[7] !== '-' ||
    s[10] !== 'T' ||
    s[13] !== ':' ||
    s[16] !== ':' ||
    s[19] !== 'Z'
  ) {
    return false;
  }
  const year = twoDigits(s, 0) * 100 + twoDigits(s, 2);
  const month = twoDigits(s, 5);
  const day = twoDigits(s, 8);
  const hour = twoDigits(s, 11);
  const minute = twoDigits(s, 14);
  const second = twoDigits(s, 17);
  return (
    twoDigits(s, 0) >= 0 &&
    twoDigits(s, 2) >= 0 &&
    year >= 0 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysIn(month, year) &&
    hour >= 0 &&
    hour < 24 &&
    minute >= 0 &&
    minute < 60 &&
    second >= 0 &&
    second < 60
  );
}

export function parseGoTime(value: string, micro: boolean): TimeParse {
  if (!micro && isCanonicalUTC(value)) return { ok: true, iso: value };
  const layout = micro ? RFC3339_MICRO : RFC3339;
  const fail = (layoutElem: string, valueElem: string): TimeParse => ({
    ok: false,
    error: `parsing time ${goQuote(value)} as ${goQuote(layout)}: cannot parse ${goQuote(valueElem)} as ${goQuote(layoutElem)}`,
  });
  const failMsg = (message: string): TimeParse => ({
    ok: false,
    error: `parsing time ${goQuote(value)}${message}`,
  });
  const f: Fields = {
    year: 0,
    month: 0,
    day: 0,
    hour: 0,
    minute: 0,
    second: 0,
    micros: 0,
    offsetMinutes: 0,
    micro,
  };
  let rest = value;
  for (const chunk of chunks(micro)) {
    if (!rest.startsWith(chunk.prefix)) return fail(chunk.prefix, rest);
    rest = rest.slice(chunk.prefix.length);
    const hold = rest;
    let range = '';
    try {
      [rest, range] = parseElem(chunk.elem, rest, f);
    } catch (e) {
      if (e instanceof Bad) return fail(chunk.text, hold);
      throw e;
    }
    if (range !== '') return failMsg(`: ${range} out of range`);
  }
  if (rest !== '') return failMsg(`: extra text: ${goQuote(rest)}`);
  if (f.day < 1 || f.day > daysIn(f.month, f.year)) return failMsg(': day out of range');
  return { ok: true, iso: formatUTC(f, micro) };
}

function parseElem(elem: Elem, s: string, f: Fields): [string, string] {
  switch (elem) {
    case 'year': {
      if (s.length < 4 || !isDigit(s, 0) || !/^\d{4}/.test(s)) throw new Bad();
      f.year = Number(s.slice(0, 4));
      return [s.slice(4), ''];
    }
    case 'month': {
      const [m, rest] = getnum(s, true);
      f.month = m;
      return [rest, m <= 0 || m > 12 ? 'month' : ''];
    }
    case 'day': {
      const [d, rest] = getnum(s, true);
      f.day = d;
      return [rest, ''];
    }
    case 'hour': {
      const [h, rest] = getnum(s, false);
      f.hour = h;
      return [rest, h >= 24 ? 'hour' : ''];
    }
    case 'minute': {
      const [m, rest] = getnum(s, true);
      f.minute = m;
      return [rest, m >= 60 ? 'minute' : ''];
    }
    case 'second':
      return parseSecond(s, f);
    case 'frac6': {
      if (s.length < 7 || (s[0] !== '.' && s[0] !== ',') || !/^.\d{6}/.test(s)) throw new Bad();
      f.micros = Number(s.slice(1, 7));
      return [s.slice(7), ''];
    }
    case 'zone':
      return parseZone(s, f);
  }
}

function parseSecond(s: string, f: Fields): [string, string] {
  const [sec, after] = getnum(s, true);
  f.second = sec;
  if (sec >= 60) return [after, 'second'];
  let rest = after;
  // Go accepts a fraction the layout does not name; Time keeps only whole seconds.
  if (!f.micro && rest.length >= 2 && (rest[0] === '.' || rest[0] === ',') && isDigit(rest, 1)) {
    let n = 2;
    while (isDigit(rest, n)) n++;
    rest = rest.slice(n);
  }
  return [rest, ''];
}

function parseZone(s: string, f: Fields): [string, string] {
  if (s.startsWith('Z')) return [s.slice(1), ''];
  if (s.length < 6 || s[3] !== ':') throw new Bad();
  const sign = s[0];
  const [hr] = getnum(s.slice(1, 3), true);
  const [mm] = getnum(s.slice(4, 6), true);
  if (sign !== '+' && sign !== '-') throw new Bad();
  f.offsetMinutes = (sign === '-' ? -1 : 1) * (hr * 60 + mm);
  const range = hr > 24 ? 'time zone offset hour' : mm > 60 ? 'time zone offset minute' : '';
  return [s.slice(6), range];
}

function formatUTC(f: Fields, micro: boolean): string {
  const d = new Date(0);
  d.setUTCFullYear(f.year, f.month - 1, f.day);
  d.setUTCHours(f.hour, f.minute - f.offsetMinutes, f.second, 0);
  const year = String(d.getUTCFullYear()).padStart(4, '0');
  const base = `${year}${d.toISOString().slice(d.toISOString().indexOf('-', 1), 19)}`;
  return micro ? `${base}.${String(f.micros).padStart(6, '0')}Z` : `${base}Z`;
}
