import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { countValueKeys, hasDuplicateKeys, scanText } from './duplicate-scan.js';
import { goBase64Error } from './go-base64.js';
import { goQuote } from './go-quote.js';
import { parseGoTime } from './go-time.js';

const timeError = (s: string, micro = false): string | undefined => {
  const r = parseGoTime(s, micro);
  return r.ok ? undefined : r.error;
};
const L = '"2006-01-02T15:04:05Z07:00"';

describe('Go time.Parse(RFC3339)', () => {
  it('normalises to UTC and drops fractions for Time', () => {
    assert.deepEqual(parseGoTime('2024-01-01T10:00:00+02:00', false), {
      ok: true,
      iso: '2024-01-01T08:00:00Z',
    });
    assert.deepEqual(parseGoTime('2024-01-01T00:00:00.999Z', false), {
      ok: true,
      iso: '2024-01-01T00:00:00Z',
    });
    assert.deepEqual(parseGoTime('0099-01-01T00:00:00Z', false), { ok: true, iso: '0099-01-01T00:00:00Z' });
    assert.deepEqual(parseGoTime('2024-01-31T23:59:59Z', false), { ok: true, iso: '2024-01-31T23:59:59Z' });
    assert.equal(
      timeError('2024-01-01T00:60:00Z'),
      'parsing time "2024-01-01T00:60:00Z": minute out of range',
    );
  });

  it('keeps microseconds for MicroTime', () => {
    assert.deepEqual(parseGoTime('2024-01-01T00:00:00.000123Z', true), {
      ok: true,
      iso: '2024-01-01T00:00:00.000123Z',
    });
    assert.equal(
      timeError('2024-01-01T00:00:00Z', true),
      'parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
    );
  });

  it('reports the element that failed', () => {
    assert.equal(timeError('abc'), `parsing time "abc" as ${L}: cannot parse "abc" as "2006"`);
    assert.equal(timeError('2024-01-01'), `parsing time "2024-01-01" as ${L}: cannot parse "" as "T"`);
    assert.equal(
      timeError('2024-1-01T00:00:00Z'),
      `parsing time "2024-1-01T00:00:00Z" as ${L}: cannot parse "1-01T00:00:00Z" as "01"`,
    );
    assert.equal(
      timeError('2024-01-01T00:00:00'),
      `parsing time "2024-01-01T00:00:00" as ${L}: cannot parse "" as "Z07:00"`,
    );
    assert.equal(
      timeError('2024-01-01 00:00:00Z'),
      `parsing time "2024-01-01 00:00:00Z" as ${L}: cannot parse " 00:00:00Z" as "T"`,
    );
  });

  it('reports ranges and extra text', () => {
    assert.equal(
      timeError('2024-13-01T00:00:00Z'),
      'parsing time "2024-13-01T00:00:00Z": month out of range',
    );
    assert.equal(timeError('2023-02-29T00:00:00Z'), 'parsing time "2023-02-29T00:00:00Z": day out of range');
    assert.equal(timeError('2026-04-31T00:00:00Z'), 'parsing time "2026-04-31T00:00:00Z": day out of range');
    assert.equal(timeError('1900-02-29T00:00:00Z'), 'parsing time "1900-02-29T00:00:00Z": day out of range');
    // The last days of months, leap days, and year 0 (a leap year in Go's proleptic calendar).
    for (const t of [
      '2026-11-29T06:00:00Z',
      '2026-12-31T23:59:59Z',
      '2024-02-29T00:00:00Z',
      '2000-02-29T00:00:00Z',
      '0000-02-29T00:00:00Z',
    ]) {
      assert.deepEqual(parseGoTime(t, false), { ok: true, iso: t });
    }
    assert.deepEqual(parseGoTime('0000-02-29T01:00:00+01:00', false), {
      ok: true,
      iso: '0000-02-29T00:00:00Z',
    });
    assert.equal(timeError('2024-01-01T25:00:00Z'), 'parsing time "2024-01-01T25:00:00Z": hour out of range');
    assert.equal(
      timeError('2024-01-01T00:00:00Zjunk'),
      'parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"',
    );
  });
});

describe('Go base64.StdEncoding', () => {
  const cases: [string, string | undefined][] = [
    ['', undefined],
    ['YWJj', undefined],
    ['YQ==', undefined],
    ['YWI=', undefined],
    ['YW\nJj\r\n', undefined],
    ['abc', 'illegal base64 data at input byte 0'],
    ['YWJjZ', 'illegal base64 data at input byte 4'],
    ['YW=', 'illegal base64 data at input byte 3'],
    ['ab=c', 'illegal base64 data at input byte 2'],
    ['a===', 'illegal base64 data at input byte 1'],
    ['YQ==YQ==', 'illegal base64 data at input byte 4'],
    ['YW!j', 'illegal base64 data at input byte 2'],
    ['not base64!', 'illegal base64 data at input byte 3'],
  ];
  for (const [input, expected] of cases) {
    it(JSON.stringify(input), () => {
      assert.equal(goBase64Error(input), expected);
    });
  }
});

describe('Go strconv.Quote', () => {
  it('escapes as Go does', () => {
    assert.equal(goQuote('spec.foo'), '"spec.foo"');
    assert.equal(goQuote('a"b\\c\nd\te'), '"a\\"b\\\\c\\nd\\te"');
    assert.equal(goQuote('\u0001\u007f'), '"\\x01\\x7f"');
    assert.equal(goQuote('héllo✓'), '"héllo✓"');
    assert.equal(goQuote('\u0085\u2028'), '"\\u0085\\u2028"');
  });
});

// JSON values with strings full of what a scan of the text must skip: colons, quotes,
// backslashes and their escapes, digits before a dot or an `e`.
const tricky = fc.string({
  unit: fc.constantFrom('a', ':', '"', '\\', '{', ' ', '\\"', 'é', '1', '.', 'e', 'E'),
});
const trickyJSON = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    tricky,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constant(null),
    fc.boolean(),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(tricky, tie('value'), { maxKeys: 5 }),
  ),
})).value;

describe('key counting', () => {
  it('counts keys in text, skipping strings and escapes', () => {
    assert.equal(scanText('{"a":"x:y","b":{"c\\":":1},"d":[{"e":2}]}').keys, 5);
    assert.equal(scanText('[1,2,"a:b"]').keys, 0);
  });

  it('counts as many keys in any JSON text, spaced or not, as its parsed value holds', () => {
    fc.assert(
      fc.property(trickyJSON, fc.boolean(), (value, spaced) => {
        const text = spaced ? JSON.stringify(value, null, 1) : JSON.stringify(value);
        assert.equal(scanText(text).keys, countValueKeys(JSON.parse(text)));
      }),
      { numRuns: 500 },
    );
  });

  it('finds a number written with a fraction or an exponent exactly where the text has one', () => {
    // JSON.stringify writes a number with a `.` or an `e` exactly when it is not a whole number
    // below 1e21: those are the numbers to find, wherever strings hold look-alikes.
    const writtenAsFloat = (v: unknown): boolean => {
      if (typeof v === 'number') return /[.e]/.test(String(v));
      if (typeof v !== 'object' || v === null) return false;
      return Object.values(v).some(writtenAsFloat);
    };
    fc.assert(
      fc.property(trickyJSON, fc.boolean(), (value, spaced) => {
        const text = spaced ? JSON.stringify(value, null, 1) : JSON.stringify(value);
        assert.equal(scanText(text).fractionOrExponent, writtenAsFloat(value));
      }),
      { numRuns: 500 },
    );
  });

  it('counts keys in values', () => {
    assert.equal(countValueKeys({ a: 'x:y', b: { 'c":': 1 }, d: [{ e: 2 }] }), 5);
  });

  it('finds repeated keys at any depth, not across objects', () => {
    assert.equal(hasDuplicateKeys('{"a":1,"b":{"a":1},"c":[{"a":1},{"a":1}]}'), false);
    assert.equal(hasDuplicateKeys('{"a":1,"b":{"x":1,"x":2}}'), true);
    assert.equal(hasDuplicateKeys('{"a":[{"k":1,"k":1}]}'), true);
    const many = Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`);
    assert.equal(hasDuplicateKeys(`{${many.join(',')}}`), false);
    assert.equal(hasDuplicateKeys(`{${many.join(',')},"k3":0}`), true);
  });
});
