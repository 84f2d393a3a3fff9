import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatGoDuration, parseGoDuration, secondsDurationMs } from './go-duration.js';

describe('Go durations', () => {
  it('parses what time.ParseDuration accepts', () => {
    assert.equal(parseGoDuration('1m0s'), 60_000);
    assert.equal(parseGoDuration('1h2m3.5s'), 3_723_500);
    assert.equal(parseGoDuration('500ms'), 500);
    assert.equal(parseGoDuration('0'), 0);
    assert.equal(parseGoDuration('-2s'), -2000);
    assert.equal(parseGoDuration('1500us'), 1.5);
    assert.equal(parseGoDuration('1500\u00b5s'), 1.5); // micro sign
    assert.equal(parseGoDuration('2000\u03bcs'), 2); // Greek mu
  });

  it('refuses what it refuses, with its message', () => {
    assert.throws(() => parseGoDuration('60'), { message: 'time: invalid duration "60"' });
    assert.throws(() => parseGoDuration('1x'), { message: 'time: invalid duration "1x"' });
    assert.throws(() => parseGoDuration(''), { message: 'time: invalid duration ""' });
  });

  it('formats defaults as Go prints them', () => {
    assert.equal(formatGoDuration(60_000), '1m0s');
    assert.equal(formatGoDuration(300_000), '5m0s');
    assert.equal(formatGoDuration(1500), '1.5s');
  });

  it('multiplies seconds into int64 nanoseconds as Go does, wrapping past 2^63', () => {
    assert.equal(secondsDurationMs(30), 30_000);
    assert.equal(secondsDurationMs(-1), -1000);
    // The largest that fits, then one more: 9,223,372,037e9 - 2^64 ns.
    assert.equal(secondsDurationMs(9_223_372_036), 9_223_372_036_000);
    assert.ok(secondsDurationMs(9_223_372_037) < -9.2e12);
    // 18,446,744,074e9 - 2^64 = 290,448,384 ns: a 584-year watch lasts 0.29 s.
    assert.equal(secondsDurationMs(18_446_744_074), 290.448384);
    assert.equal(secondsDurationMs(-18_446_744_074), -290.448384);
    // 2^55 s is 1953125 * 2^64 ns: exactly zero.
    assert.equal(secondsDurationMs(2 ** 55), 0);
  });
});
