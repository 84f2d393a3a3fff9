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
