// Standard cron schedules as kube validates them (cron.ParseStandard of github.com/robfig/cron/v3):
// five fields (minute hour day-of-month month day-of-week) or a descriptor (@daily, @every 1h…),
// optionally after TZ= or CRON_TZ=. Errors carry the library's texts, which kube returns verbatim.
import { memberOf } from '../../../machinery/json/set-member.js';
import { goQuote } from '../../../machinery/validation/index.js';
import { loadLocationError } from './time-zone.js';

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly names?: Readonly<Record<string, number>>;
}

const months: Bounds = {
  min: 1,
  max: 12,
  names: {
    jan: 1,
    feb: 2,
    mar: 3,
    apr: 4,
    may: 5,
    jun: 6,
    jul: 7,
    aug: 8,
    sep: 9,
    oct: 10,
    nov: 11,
    dec: 12,
  },
};
const daysOfWeek: Bounds = {
  min: 0,
  max: 6,
  names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 },
};
/** second (always 0 in the standard form), minute, hour, day of month, month, day of week. */
const fieldBounds: readonly Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  months,
  daysOfWeek,
];
const descriptors = new Set([
  '@yearly',
  '@annually',
  '@monthly',
  '@weekly',
  '@daily',
  '@midnight',
  '@hourly',
]);

class CronError extends Error {}

/** strconv.Atoi's checks, with its error text. */
function atoi(s: string): number {
  if (!/^[+-]?[0-9]+$/.test(s)) throw new CronError(`strconv.Atoi: parsing ${goQuote(s)}: invalid syntax`);
  const n = BigInt(s);
  if (n > 9223372036854775807n || n < -9223372036854775808n)
    throw new CronError(`strconv.Atoi: parsing ${goQuote(s)}: value out of range`);
  return Number(n);
}

function mustParseInt(expr: string): number {
  let num: number;
  try {
    num = atoi(expr);
  } catch (err) {
    throw new CronError(`failed to parse int from ${expr}: ${(err as Error).message}`);
  }
  if (num < 0) throw new CronError(`negative number (${num}) not allowed: ${expr}`);
  return num;
}

function parseIntOrName(expr: string, names: Bounds['names']): number {
  const named = names === undefined ? undefined : memberOf(names, expr.toLowerCase());
  return named ?? mustParseInt(expr);
}

/** getRange: `*`, `?`, `N`, `N-M`, each optionally `/step`. */
function checkRange(expr: string, r: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = (rangeAndStep[0] ?? '').split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
  } else {
    start = parseIntOrName(lowAndHigh[0] ?? '', r.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1] ?? '', r.names);
    else throw new CronError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1] ?? '');
    // "N/step" means "N-max/step".
    if (lowAndHigh.length === 1) end = r.max;
  } else if (rangeAndStep.length > 2) throw new CronError(`too many slashes: ${expr}`);
  if (start < r.min) throw new CronError(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) throw new CronError(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
}

/** Go's time.ParseDuration, only as far as accepting or refusing. */
function durationError(s: string): string | undefined {
  const quoted = goQuote(s);
  let rest = s.replace(/^[-+]/, '');
  if (rest === '0') return undefined;
  if (rest === '') return `time: invalid duration ${quoted}`;
  while (rest !== '') {
    const m = /^([0-9]*)(\.[0-9]*)?/.exec(rest);
    const num = m?.[0] ?? '';
    if (num === '' || num === '.') return `time: invalid duration ${quoted}`;
    rest = rest.slice(num.length);
    const unit = /^[^0-9.]*/.exec(rest)?.[0] ?? '';
    if (unit === '') return `time: missing unit in duration ${quoted}`;
    if (!['ns', 'us', 'µs', 'μs', 'ms', 's', 'm', 'h'].includes(unit))
      return `time: unknown unit ${goQuote(unit)} in duration ${quoted}`;
    rest = rest.slice(unit.length);
  }
  return undefined;
}

function checkDescriptor(descriptor: string): void {
  if (descriptors.has(descriptor)) return;
  const every = '@every ';
  if (descriptor.startsWith(every)) {
    const err = durationError(descriptor.slice(every.length));
    if (err !== undefined) throw new CronError(`failed to parse duration ${descriptor}: ${err}`);
    return;
  }
  throw new CronError(`unrecognized descriptor: ${descriptor}`);
}

function parse(input: string): void {
  if (input === '') throw new CronError('empty spec string');
  let spec = input;
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const space = spec.indexOf(' ');
    const eq = spec.indexOf('=');
    const name = space < 0 ? spec.slice(eq + 1) : spec.slice(eq + 1, space);
    const err = loadLocationError(name);
    if (err !== undefined) throw new CronError(`provided bad location ${name}: ${err}`);
    spec = space < 0 ? '' : spec.slice(space).trim();
  }
  if (spec.startsWith('@')) {
    checkDescriptor(spec);
    return;
  }
  const fields = spec.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== 5)
    throw new CronError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  ['0', ...fields].forEach((field, i) => {
    const bounds = fieldBounds[i];
    if (bounds === undefined) return;
    for (const expr of field.split(',').filter((e) => e !== '')) checkRange(expr, bounds);
  });
}

/** The parser's error for `schedule`, or undefined when it is a valid standard schedule. */
export function cronScheduleError(schedule: string): string | undefined {
  try {
    parse(schedule);
    return undefined;
  } catch (err) {
    if (err instanceof CronError) return err.message;
    throw err;
  }
}
