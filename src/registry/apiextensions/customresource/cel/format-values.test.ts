import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseBase64, parseDate, parseDateTime, parseDuration } from './format-values.js';

describe('format values', () => {
  it('reads durations in Go syntax, then in strfmt units', () => {
    assert.deepEqual(parseDuration('1h30m'), { seconds: 5400n, nanos: 0 });
    assert.deepEqual(parseDuration('1.5s'), { seconds: 1n, nanos: 500_000_000 });
    assert.deepEqual(parseDuration('-250ms'), { seconds: 0n, nanos: -250_000_000 });
    assert.deepEqual(parseDuration('3d'), { seconds: 259_200n, nanos: 0 });
    assert.deepEqual(parseDuration('2 weeks 1 hour'), { seconds: 1_213_200n, nanos: 0 });
    assert.equal(parseDuration('soon'), undefined);
    assert.equal(parseDuration('3 fortnights'), undefined);
  });

  it('reads RFC 3339 times, with or without a zone, and dates', () => {
    assert.deepEqual(parseDateTime('2024-02-29T12:00:00Z'), { seconds: 1_709_208_000n, nanos: 0 });
    assert.deepEqual(parseDateTime('2024-02-29T13:30:00+01:30'), { seconds: 1_709_208_000n, nanos: 0 });
    assert.deepEqual(parseDateTime('2024-02-29T12:00:00.123456789123Z'), {
      seconds: 1_709_208_000n,
      nanos: 123_456_789,
    });
    assert.deepEqual(parseDateTime('2024-02-29T12:00:00'), { seconds: 1_709_208_000n, nanos: 0 });
    assert.deepEqual(parseDateTime('0001-01-01T00:00:00Z'), { seconds: -62_135_596_800n, nanos: 0 });
    assert.equal(parseDateTime('yesterday'), undefined);
    assert.deepEqual(parseDate('2024-02-29'), { seconds: 1_709_164_800n, nanos: 0 });
    assert.equal(parseDate('2024-02-29T00:00:00Z'), undefined);
  });

  it('reads standard base64', () => {
    assert.deepEqual(parseBase64('aGk='), new Uint8Array([104, 105]));
    assert.equal(parseBase64('aGk'), undefined);
    assert.equal(parseBase64('a-_='), undefined);
  });
});
