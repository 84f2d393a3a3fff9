import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cronScheduleError } from './cron-schedule.js';

describe('cron schedules', () => {
  it('accepts the standard forms', () => {
    for (const s of [
      '*/1 * * * *',
      '0 0 * * 0',
      '15,45 9-17 * JAN-mar mon-FRI',
      '@hourly',
      '@every 1h30m',
      '0 0 ? * *',
      'TZ=UTC 0 * * * *',
    ])
      assert.equal(cronScheduleError(s), undefined, s);
  });

  it("answers robfig/cron's errors", () => {
    const cases: [string, string][] = [
      ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
      ['60 * * * *', 'end of range (60) above maximum (59): 60'],
      ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
      ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
      ['*/0 * * * *', 'step of range should be a positive number: */0'],
      ['x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
      ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
      ['*/1/2 * * * *', 'too many slashes: */1/2'],
      ['@weekdays', 'unrecognized descriptor: @weekdays'],
      ['@every 5', 'failed to parse duration @every 5: time: missing unit in duration "5"'],
      ['TZ=Mars/Olympus * * * * *', 'provided bad location Mars/Olympus: unknown time zone Mars/Olympus'],
      ['', 'empty spec string'],
    ];
    for (const [schedule, want] of cases) assert.equal(cronScheduleError(schedule), want, schedule);
  });

  it('reads month and weekday names as names only, never as members of Object.prototype', () => {
    for (const [schedule, field] of [
      ['0 0 1 constructor *', 'constructor'],
      ['0 0 * * __proto__', '__proto__'],
    ] as const)
      assert.equal(
        cronScheduleError(schedule),
        `failed to parse int from ${field}: strconv.Atoi: parsing "${field}": invalid syntax`,
        schedule,
      );
  });
});
