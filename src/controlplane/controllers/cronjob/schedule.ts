// When a standard cron schedule fires next (github.com/robfig/cron/v3's SpecSchedule.Next and
// ConstantDelaySchedule, as kube's cronjob controller uses them), in UTC or in the CronJob's IANA
// timeZone: the fields are matched against the wall clock of that zone. The schedule was validated
// when written (registry/batch/cronjob/cron-schedule.ts), so this parser only reads valid text; a
// schedule it cannot read never fires.
import { parseGoDuration } from '../../../machinery/time/go-duration.js';

export interface CronSchedule {
  /** The first activation strictly after `afterMs`, at whole seconds; undefined when none within 5 years. */
  next(afterMs: number): number | undefined;
}

const descriptors: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const monthNames = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const dayNames = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

interface Field {
  readonly values: ReadonlySet<number>;
  /** The field began with `*` or `?` (robfig's starBit: day fields then AND, else OR). */
  readonly star: boolean;
}

function valueOf(text: string, names: readonly string[] | undefined, offset: number): number {
  const i = names?.indexOf(text.toLowerCase()) ?? -1;
  return i >= 0 ? i + offset : Number(text);
}

function parseField(text: string, bounds: { min: number; max: number; names?: readonly string[] }): Field {
  const values = new Set<number>();
  const offset = bounds.min;
  for (const expr of text.split(',')) {
    const [range = '', stepText] = expr.split('/');
    const [low = '', high] = range.split('-');
    const all = low === '*' || low === '?';
    const start = all ? bounds.min : valueOf(low, bounds.names, offset);
    const end = all
      ? bounds.max
      : high !== undefined
        ? valueOf(high, bounds.names, offset)
        : stepText !== undefined
          ? bounds.max
          : start;
    const step = stepText === undefined ? 1 : Math.max(1, Number(stepText));
    for (let v = start; v <= end; v += step) values.add(v);
  }
  return { values, star: text.startsWith('*') || text.startsWith('?') };
}

/** The wall clock of a zone: an instant's local time (as a UTC epoch), and the instants of one. */
interface WallClock {
  wall(ms: number): number;
  /** Instants showing this wall time, earliest first: none in a gap, two in an overlap. */
  instants(wallMs: number): number[];
  /** How far back the zone's clock may be set (0 in UTC). */
  readonly rewind: number;
}

const utcWall: WallClock = { wall: (ms) => ms, instants: (ms) => [ms], rewind: 0 };

const dayMs = 86_400_000;

function zoneWall(timeZone: string): WallClock {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const wall = (ms: number): number => {
    const parts = format.formatToParts(Math.floor(ms / 1000) * 1000);
    const get = (type: Intl.DateTimeFormatPartTypes): number =>
      Number(parts.find((p) => p.type === type)?.value ?? 0);
    return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  };
  const offset = (ms: number): number => wall(ms) - Math.floor(ms / 1000) * 1000;
  return {
    wall,
    rewind: 2 * 3_600_000,
    // robfig walks real time and reads the zone's fields, so a wall time skipped by a
    // daylight-saving change never fires and one that happens twice fires twice.
    instants: (wallMs) => {
      const candidates = new Set([wallMs - offset(wallMs - dayMs), wallMs - offset(wallMs + dayMs)]);
      return [...candidates].filter((at) => wall(at) === wallMs).sort((a, b) => a - b);
    },
  };
}

function specSchedule(fields: readonly string[], clock: WallClock): CronSchedule {
  const [mi = '', h = '', dom = '', mon = '', dow = ''] = fields;
  const minute = parseField(mi, { min: 0, max: 59 });
  const hour = parseField(h, { min: 0, max: 23 });
  const day = parseField(dom, { min: 1, max: 31 });
  const month = parseField(mon, { min: 1, max: 12, names: monthNames });
  const weekday = parseField(dow, { min: 0, max: 6, names: dayNames });
  const dayMatches = (d: Date): boolean => {
    const a = day.values.has(d.getUTCDate());
    const b = weekday.values.has(d.getUTCDay());
    return day.star || weekday.star ? a && b : a || b;
  };
  return {
    next: (afterMs) => {
      // From the earliest wall time an instant after `afterMs` can show (a clock set back repeats
      // up to two hours); instants not after `afterMs` are passed over.
      const after = Math.min(clock.wall(afterMs), clock.wall(afterMs - clock.rewind));
      const t = new Date(Math.floor(after / 60_000) * 60_000);
      const limit = after + 5 * 366 * 86_400_000;
      while (t.getTime() <= limit) {
        if (!month.values.has(t.getUTCMonth() + 1)) {
          t.setUTCMonth(t.getUTCMonth() + 1, 1);
          t.setUTCHours(0, 0, 0, 0);
        } else if (!dayMatches(t)) {
          t.setUTCDate(t.getUTCDate() + 1);
          t.setUTCHours(0, 0, 0, 0);
        } else if (!hour.values.has(t.getUTCHours())) t.setUTCHours(t.getUTCHours() + 1, 0, 0, 0);
        else if (!minute.values.has(t.getUTCMinutes())) t.setUTCMinutes(t.getUTCMinutes() + 1, 0, 0);
        else {
          const at = clock.instants(t.getTime()).find((i) => i > afterMs);
          if (at !== undefined) return at;
          t.setUTCMinutes(t.getUTCMinutes() + 1, 0, 0);
        }
      }
      return undefined;
    },
  };
}

/**
 * A schedule (five fields or a descriptor; a TZ= prefix is refused by validation) in `timeZone`
 * (UTC when unset; a zone validation let through but Intl does not know never fires).
 */
export function parseSchedule(text: string, timeZone?: string): CronSchedule {
  const spec = text.trim();
  if (spec.startsWith('@every ')) {
    const delay = Math.max(1000, Math.round(parseGoDuration(spec.slice(7)) / 1000) * 1000);
    return { next: (afterMs) => Math.floor(afterMs / 1000) * 1000 + delay };
  }
  const fields = (descriptors[spec] ?? spec).split(/\s+/).filter((f) => f !== '');
  if (fields.length !== 5) return { next: () => undefined };
  if (timeZone === undefined || timeZone === 'UTC') return specSchedule(fields, utcWall);
  try {
    return specSchedule(fields, zoneWall(timeZone));
  } catch {
    return { next: () => undefined };
  }
}
