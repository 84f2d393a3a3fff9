// When a standard cron schedule fires next (github.com/robfig/cron/v3's SpecSchedule.Next and
// ConstantDelaySchedule, as kube's cronjob controller uses them), in UTC. The schedule was validated
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

function specSchedule(fields: readonly string[]): CronSchedule {
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
      const t = new Date(Math.floor(afterMs / 60_000) * 60_000 + 60_000);
      const limit = afterMs + 5 * 366 * 86_400_000;
      while (t.getTime() <= limit) {
        if (!month.values.has(t.getUTCMonth() + 1)) {
          t.setUTCMonth(t.getUTCMonth() + 1, 1);
          t.setUTCHours(0, 0, 0, 0);
        } else if (!dayMatches(t)) {
          t.setUTCDate(t.getUTCDate() + 1);
          t.setUTCHours(0, 0, 0, 0);
        } else if (!hour.values.has(t.getUTCHours())) t.setUTCHours(t.getUTCHours() + 1, 0, 0, 0);
        else if (!minute.values.has(t.getUTCMinutes())) t.setUTCMinutes(t.getUTCMinutes() + 1, 0, 0);
        else return t.getTime();
      }
      return undefined;
    },
  };
}

/** A schedule (five fields or a descriptor; a TZ= prefix is refused by validation). */
export function parseSchedule(text: string): CronSchedule {
  const spec = text.trim();
  if (spec.startsWith('@every ')) {
    const delay = Math.max(1000, Math.round(parseGoDuration(spec.slice(7)) / 1000) * 1000);
    return { next: (afterMs) => Math.floor(afterMs / 1000) * 1000 + delay };
  }
  const fields = (descriptors[spec] ?? spec).split(/\s+/).filter((f) => f !== '');
  if (fields.length !== 5) return { next: () => undefined };
  return specSchedule(fields);
}
