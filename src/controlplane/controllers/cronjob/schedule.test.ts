import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseSchedule } from './schedule.js';

const at = (iso: string): number => Date.parse(iso);
const next = (spec: string, iso: string): string | undefined => {
  const t = parseSchedule(spec).next(at(iso));
  return t === undefined ? undefined : new Date(t).toISOString();
};

describe('cron schedules (robfig SpecSchedule.Next, UTC)', () => {
  it('steps, ranges and lists', () => {
    assert.equal(next('*/15 * * * *', '2026-01-01T10:07:30Z'), '2026-01-01T10:15:00.000Z');
    assert.equal(next('5,10 9-17 * * *', '2026-01-01T17:10:00Z'), '2026-01-02T09:05:00.000Z');
    assert.equal(next('* * * * *', '2026-01-01T10:07:00Z'), '2026-01-01T10:08:00.000Z');
  });

  it('descriptors', () => {
    assert.equal(next('@hourly', '2026-01-01T10:00:00Z'), '2026-01-01T11:00:00.000Z');
    assert.equal(next('@daily', '2026-01-01T10:00:00Z'), '2026-01-02T00:00:00.000Z');
    assert.equal(next('@weekly', '2026-01-01T10:00:00Z'), '2026-01-04T00:00:00.000Z'); // a Sunday
    assert.equal(next('@monthly', '2026-01-31T10:00:00Z'), '2026-02-01T00:00:00.000Z');
    assert.equal(next('@yearly', '2026-03-01T00:00:00Z'), '2027-01-01T00:00:00.000Z');
    assert.equal(next('@every 90s', '2026-01-01T10:00:00.500Z'), '2026-01-01T10:01:30.000Z');
  });

  it('names, and day-of-month OR day-of-week when both are restricted', () => {
    assert.equal(next('0 0 * feb mon', '2026-01-01T00:00:00Z'), '2026-02-02T00:00:00.000Z');
    // The 13th or any Friday: Friday 2 January comes first.
    assert.equal(next('0 0 13 * 5', '2026-01-01T00:00:00Z'), '2026-01-02T00:00:00.000Z');
    // With a star day-of-month only the weekday restricts.
    assert.equal(next('0 0 * * 5', '2026-01-03T00:00:00Z'), '2026-01-09T00:00:00.000Z');
  });

  it('never fires on a date that does not exist', () => {
    assert.equal(next('0 0 30 2 *', '2026-01-01T00:00:00Z'), undefined);
  });
});

describe('cron schedules in a timeZone (the wall clock of an IANA zone)', () => {
  const inZone = (spec: string, zone: string, iso: string): string | undefined => {
    const t = parseSchedule(spec, zone).next(at(iso));
    return t === undefined ? undefined : new Date(t).toISOString();
  };

  it('matches the fields against the zone’s local time', () => {
    // 09:00 in Tokyo (UTC+9, no DST) is 00:00 UTC.
    assert.equal(inZone('0 9 * * *', 'Asia/Tokyo', '2026-01-01T10:00:00Z'), '2026-01-02T00:00:00.000Z');
    // 09:00 in New York is 14:00 UTC in winter and 13:00 UTC in summer.
    assert.equal(inZone('0 9 * * *', 'America/New_York', '2026-01-10T00:00:00Z'), '2026-01-10T14:00:00.000Z');
    assert.equal(inZone('0 9 * * *', 'America/New_York', '2026-07-10T00:00:00Z'), '2026-07-10T13:00:00.000Z');
    // Half-hour zones, and a day of the week taken in the zone (Monday in Kolkata, Sunday in UTC).
    assert.equal(inZone('30 1 * * mon', 'Asia/Kolkata', '2026-01-01T00:00:00Z'), '2026-01-04T20:00:00.000Z');
  });

  it('crosses a daylight-saving change', () => {
    // New York springs forward on 8 March 2026: 02:30 does not exist that day (robfig skips it).
    const gap = inZone('30 2 * * *', 'America/New_York', '2026-03-08T05:00:00Z');
    assert.equal(gap, '2026-03-09T06:30:00.000Z');
    // Hourly schedules keep firing each real hour around the change.
    assert.equal(inZone('0 * * * *', 'America/New_York', '2026-03-08T06:30:00Z'), '2026-03-08T07:00:00.000Z');
    // Falling back on 1 November: 01:30 happens twice (EDT at 05:30Z, EST at 06:30Z); both fire.
    const twice = (iso: string) => inZone('30 1 * * *', 'America/New_York', iso);
    assert.equal(twice('2026-11-01T04:00:00Z'), '2026-11-01T05:30:00.000Z');
    assert.equal(twice('2026-11-01T05:30:00Z'), '2026-11-01T06:30:00.000Z');
    assert.equal(twice('2026-11-01T06:30:00Z'), '2026-11-02T06:30:00.000Z');
  });

  it('UTC as a timeZone is the default', () => {
    assert.equal(inZone('0 9 * * *', 'UTC', '2026-01-01T10:00:00Z'), '2026-01-02T09:00:00.000Z');
  });
});
