import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFloat, parseFloat64, parseInt64, parseUint64 } from './conversions-library.js';
import { loadCel } from './load.js';

const lib = await loadCel();
const run = (source: string): unknown => lib.cel.plan(lib.env, lib.parse(source))({});
const error = (source: string): string => {
  const out = run(source);
  assert.ok(lib.cel.isCelError(out), source);
  return out.message;
};

describe("cel-go's conversions", () => {
  it('read strings as Go’s strconv reads them', () => {
    assert.equal(parseInt64('+5'), 5n);
    assert.equal(parseInt64('-9223372036854775808'), -(2n ** 63n));
    assert.equal(parseUint64('18446744073709551615'), 2n ** 64n - 1n);
    assert.equal(parseFloat64('1.5e3'), 1500);
    assert.equal(parseFloat64('.5'), 0.5);
    assert.equal(parseFloat64('-Inf'), -Infinity);
    assert.equal(parseFloat64('0x1p-2'), 0.25);
    assert.ok(Number.isNaN(parseFloat64('nan')));
    assert.equal(error("int('')"), 'strconv.ParseInt: parsing "": invalid syntax');
    assert.equal(error("int(' 1')"), 'strconv.ParseInt: parsing " 1": invalid syntax');
    assert.equal(error("int('0x10')"), 'strconv.ParseInt: parsing "0x10": invalid syntax');
    assert.equal(error("int('1.5')"), 'strconv.ParseInt: parsing "1.5": invalid syntax');
    assert.equal(
      error("int('9223372036854775808')"),
      'strconv.ParseInt: parsing "9223372036854775808": value out of range',
    );
    assert.equal(error("uint('-1')"), 'strconv.ParseUint: parsing "-1": invalid syntax');
    assert.equal(error("double('')"), 'strconv.ParseFloat: parsing "": invalid syntax');
    assert.equal(error("double('1_0')"), 'strconv.ParseFloat: parsing "1_0": invalid syntax');
    assert.equal(error("double('0x10')"), 'strconv.ParseFloat: parsing "0x10": invalid syntax');
    assert.equal(error("double('1e400')"), 'strconv.ParseFloat: parsing "1e400": value out of range');
    assert.equal(run("int('-42') == -42 && uint('7') == 7u && double('inf') > 1e308"), true);
  });

  it("write doubles as strconv.FormatFloat(d, 'g', -1, 64)", () => {
    const cases: [number, string][] = [
      [10.5, '10.5'],
      [100, '100'],
      [123456, '123456'],
      [1234567, '1.234567e+06'],
      [1e20, '1e+20'],
      [1e21, '1e+21'],
      [0.0001, '0.0001'],
      [0.00001, '1e-05'],
      [1.5e-7, '1.5e-07'],
      [1e100, '1e+100'],
      [0.1 + 0.2, '0.30000000000000004'],
      [-0, '-0'],
      [Infinity, '+Inf'],
      [-Infinity, '-Inf'],
      [NaN, 'NaN'],
    ];
    for (const [d, text] of cases) assert.equal(formatFloat(d), text, String(d));
    assert.equal(run("string(1234567.0) == '1.234567e+06'"), true);
  });

  it('write timestamps as Go’s RFC 3339 with nanoseconds and durations as shortest fixed seconds', () => {
    const cases: [string, string][] = [
      ["string(timestamp('2020-01-01T00:00:00.5Z'))", '2020-01-01T00:00:00.5Z'],
      ["string(timestamp('2020-01-01T00:00:00Z'))", '2020-01-01T00:00:00Z'],
      ["string(timestamp('2011-08-18T19:03:37.01+01:00'))", '2011-08-18T18:03:37.01Z'],
      ["string(timestamp('1969-12-31T23:59:59.123456789Z'))", '1969-12-31T23:59:59.123456789Z'],
      ["string(duration('1.5s'))", '1.5s'],
      ["string(duration('1ns'))", '0.000000001s'],
      ["string(duration('1h'))", '3600s'],
      ["string(duration('-1.25s'))", '-1.25s'],
    ];
    for (const [source, text] of cases) assert.equal(run(source), text, source);
  });

  it('refuse bytes that are not UTF-8 as a string', () => {
    assert.equal(error("string(b'\\xff')"), 'invalid UTF-8 in bytes, cannot convert to string');
    assert.equal(run("string(b'\\xc3\\xbf') == 'ÿ'"), true);
  });
});
