import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  addQuantities,
  approximateFloat,
  canonicalQuantity,
  compareQuantities,
  isIntegerQuantity,
  milliValue,
  mustParseQuantity,
  parseQuantity,
  quantityErrors,
  quantitySign,
  quantityString,
  roundUpToScale,
  scaledValue,
} from './quantity.js';

const q = mustParseQuantity;

describe('parseQuantity + quantityString (ParseQuantity then String())', () => {
  // [input, canonical text, format]
  const cases: [string, string, string][] = [
    // Zero in every form is "0".
    ['0', '0', 'DecimalSI'],
    ['-0', '0', 'DecimalSI'],
    ['+0', '0', 'DecimalSI'],
    ['00', '0', 'DecimalSI'],
    ['0.0', '0', 'DecimalSI'],
    ['0Mi', '0', 'BinarySI'],
    ['0e5', '0', 'DecimalExponent'],
    ['0n', '0', 'DecimalSI'],
    // Decimal SI: the largest suffix that leaves no fraction.
    ['1000m', '1', 'DecimalSI'],
    ['1500m', '1500m', 'DecimalSI'],
    ['0.5', '500m', 'DecimalSI'],
    ['.5', '500m', 'DecimalSI'],
    ['1.0', '1', 'DecimalSI'],
    ['1.5', '1500m', 'DecimalSI'],
    ['2000000k', '2G', 'DecimalSI'],
    ['1000M', '1G', 'DecimalSI'],
    ['0.1M', '100k', 'DecimalSI'],
    ['12345', '12345', 'DecimalSI'],
    ['100', '100', 'DecimalSI'],
    ['1000', '1k', 'DecimalSI'],
    ['1k', '1k', 'DecimalSI'],
    ['5T', '5T', 'DecimalSI'],
    ['5P', '5P', 'DecimalSI'],
    ['1E', '1E', 'DecimalSI'],
    ['1000000u', '1', 'DecimalSI'],
    ['1000n', '1u', 'DecimalSI'],
    ['100n', '100n', 'DecimalSI'],
    ['0.1m', '100u', 'DecimalSI'],
    // Precision is kept down to a nano; anything finer rounds up (away from zero) to one.
    ['0.0001', '100u', 'DecimalSI'],
    ['0.000000001', '1n', 'DecimalSI'],
    ['0.0000000001', '1n', 'DecimalSI'],
    ['-0.0000000001', '-1n', 'DecimalSI'],
    ['0.30000000000000004', '300000001n', 'DecimalSI'],
    ['1.0000000001', '1000000001n', 'DecimalSI'],
    ['0.1n', '1n', 'DecimalSI'],
    // Text already canonical is kept as given, sign and all (the `s` cache of ParseQuantity).
    ['+5', '+5', 'DecimalSI'],
    ['-5', '-5', 'DecimalSI'],
    ['1.', '1.', 'DecimalSI'],
    ['-1500m', '-1500m', 'DecimalSI'],
    // Signs on values that are rewritten.
    ['+1000m', '1', 'DecimalSI'],
    ['-1000m', '-1', 'DecimalSI'],
    ['-0.5', '-500m', 'DecimalSI'],
    // Binary SI: the largest power of 1024 that divides the whole value.
    ['1024Mi', '1Gi', 'BinarySI'],
    ['1536Mi', '1536Mi', 'BinarySI'],
    ['1.5Gi', '1536Mi', 'BinarySI'],
    ['1Ki', '1Ki', 'BinarySI'],
    ['2048Ki', '2Mi', 'BinarySI'],
    ['1023Ki', '1023Ki', 'BinarySI'],
    ['128974848', '128974848', 'DecimalSI'],
    ['123Mi', '123Mi', 'BinarySI'],
    ['8Mi', '8Mi', 'BinarySI'],
    ['1.1Mi', '1153433600m', 'BinarySI'],
    ['-1.5Gi', '-1536Mi', 'BinarySI'],
    ['1Ei', '1Ei', 'BinarySI'],
    // Fractions that are not whole fall back to decimal SI; values under 1024 are written decimal.
    ['0.9Gi', '966367641600m', 'BinarySI'],
    ['.001Ki', '1024m', 'BinarySI'],
    ['.000001Ki', '1024u', 'DecimalSI'],
    ['.000000000001Ki', '2n', 'DecimalSI'],
    ['0.5Ki', '512', 'BinarySI'],
    // Binary values are capped at the largest int64.
    ['10Ei', '9223372036854775807', 'BinarySI'],
    ['8Ei', '9223372036854775807', 'BinarySI'],
    // Decimal exponents stay exponents.
    ['1e3', '1e3', 'DecimalExponent'],
    ['1E3', '1E3', 'DecimalExponent'],
    ['100e-3', '100e-3', 'DecimalExponent'],
    ['1000e-3', '1', 'DecimalExponent'],
    ['10e3', '10e3', 'DecimalExponent'],
    ['1.5e3', '1500', 'DecimalExponent'],
    ['1e+3', '1e+3', 'DecimalExponent'],
    ['1000e3', '1e6', 'DecimalExponent'],
    ['1.5e-3', '1500e-6', 'DecimalExponent'],
    ['1e-10', '1e-9', 'DecimalExponent'],
    // Large values.
    ['9223372036854775807', '9223372036854775807', 'DecimalSI'],
    ['9223372036854775808', '9223372036854775808', 'DecimalSI'],
    ['123456789012345678901234567890', '123456789012345678901234567890', 'DecimalSI'],
    ['1e30', '1e30', 'DecimalExponent'],
    // An exponent beyond E has no SI suffix; kube then writes the mantissa alone.
    ['1000E', '1', 'DecimalSI'],
  ];
  for (const [input, canonical, format] of cases) {
    it(`${input} -> ${canonical}`, () => {
      const parsed = q(input);
      assert.equal(quantityString(parsed), canonical);
      assert.equal(parsed.format, format);
      // The canonical text parses to the same value and writes itself again.
      const again = q(canonical);
      if (!input.endsWith('E') || input === '1E') {
        assert.equal(compareQuantities(parsed, again), 0);
        assert.equal(quantityString(again), canonical);
      }
    });
  }

  it('keeps canonical text as given and rewrites every other spelling of the same value', () => {
    // [canonical, another spelling]: the pairs of kube's TestQuantityString.
    const pairs: [string, string][] = [
      ['1Gi', '1024Mi'],
      ['300Mi', '307200Ki'],
      ['6Ki', ''],
      ['1001Gi', '1025024Mi'],
      ['1Ti', '1024Gi'],
      ['5', '5000m'],
      ['500m', '0.5'],
      ['1G', '1000M'],
      ['1G', '0.001T'],
      ['1m', '1000u'],
      ['80m', ''],
      ['1080m', '1.08'],
      ['1080m', '1080000000n'],
      ['300M', ''],
      ['1T', ''],
      ['1234567M', ''],
      ['1234567m', ''],
      ['3k', ''],
      ['1025', ''],
      ['0', '00'],
      ['1e9', '.001e12'],
      ['1e-3', '0.001e0'],
      ['1e-9', '1000e-12'],
      ['80e-3', ''],
      ['300e6', ''],
      ['1e12', ''],
      ['3e3', ''],
      ['1n', ''],
      ['80n', ''],
      ['1080n', ''],
      ['1u', ''],
      ['80u', ''],
      ['1080u', ''],
    ];
    for (const [canonical, other] of pairs) {
      assert.equal(q(canonical).text, canonical, canonical);
      assert.equal(quantityString(q(canonical)), canonical);
      if (other === '') continue;
      assert.equal(q(other).text, undefined, other);
      assert.equal(quantityString(q(other)), canonical, other);
    }
  });

  it('keeps large exponents without writing out their digits', () => {
    const big = q('1e2147483647');
    assert.equal(quantityString(big), '10e2147483646');
    assert.equal(quantityString(q('1e2147483646')), '1e2147483646');
    assert.equal(compareQuantities(big, q('9223372036854775807')), 1);
    assert.equal(compareQuantities(q('1e-2147483647'), q('1n')), 0);
  });
});

describe('parse errors (ErrFormatWrong, ErrNumeric, ErrSuffix)', () => {
  const cases: [string, string][] = [
    ['', quantityErrors.formatWrong],
    ['1.2.3', quantityErrors.formatWrong],
    ['abc', quantityErrors.formatWrong],
    ['1 k', quantityErrors.formatWrong],
    ['1e3.5', quantityErrors.formatWrong],
    ['1Mi ', quantityErrors.formatWrong],
    ['--1', quantityErrors.suffix],
    ['1e3e', quantityErrors.formatWrong],
    ['1e', quantityErrors.suffix],
    ['1ee3', quantityErrors.suffix],
    ['1Kii', quantityErrors.suffix],
    ['1ki', quantityErrors.suffix],
    ['1Mi5', quantityErrors.suffix],
    ['1i', quantityErrors.suffix],
    ['1e99999999999999999999', quantityErrors.suffix],
    ['.e-10', quantityErrors.numeric],
  ];
  for (const [input, error] of cases) {
    it(JSON.stringify(input), () => {
      assert.deepEqual(parseQuantity(input), { ok: false, error });
      assert.deepEqual(canonicalQuantity(input), { ok: false, error });
    });
  }

  it('words the format error with kube\u2019s regular expression', () => {
    assert.equal(
      quantityErrors.formatWrong,
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
    assert.throws(() => q('x'), /cannot parse 'x': quantities must match/);
  });

  it('parses the bare signs and dots kube accepts as zero', () => {
    for (const s of ['+', '-', '.', '-.']) assert.equal(quantityString(q(s)), '0');
  });
});

describe('compare and values', () => {
  it('compares exactly across suffix families', () => {
    const cases: [string, string, -1 | 0 | 1][] = [
      ['1', '1000m', 0],
      ['1Ki', '1024', 0],
      ['1Gi', '1073741824', 0],
      ['1G', '1Gi', -1],
      ['1e3', '1k', 0],
      ['100m', '0.1', 0],
      ['-1', '1', -1],
      ['-2', '-1', -1],
      ['0', '-0', 0],
      ['1n', '0', 1],
      ['9223372036854775807', '9223372036854775806', 1],
      ['100000000000000000001', '100000000000000000000', 1],
      ['0.30000000000000004', '300m', 1],
      ['1.5Gi', '1536Mi', 0],
    ];
    for (const [a, b, want] of cases) {
      assert.equal(compareQuantities(q(a), q(b)), want, `${a} vs ${b}`);
      assert.equal(compareQuantities(q(b), q(a)), want === 0 ? 0 : -want, `${b} vs ${a}`);
    }
  });

  it('adds exactly', () => {
    assert.equal(compareQuantities(addQuantities(q('100m'), q('900m')), q('1')), 0);
    assert.equal(compareQuantities(addQuantities(q('1Gi'), q('1Gi')), q('2Gi')), 0);
    assert.equal(quantityString(addQuantities(q('0'), q('1Ki'))), '1Ki');
    assert.equal(compareQuantities(addQuantities(q('0.1'), q('0.2')), q('300m')), 0);
  });

  it('gives milli values rounded away from zero, and whole values', () => {
    assert.equal(milliValue(q('1')), 1000n);
    assert.equal(milliValue(q('1.5Gi')), 1610612736000n);
    assert.equal(milliValue(q('1n')), 1n);
    assert.equal(milliValue(q('-1n')), -1n);
    assert.equal(milliValue(q('1.0001')), 1001n);
    assert.equal(scaledValue(q('500m'), 0), 1n);
    assert.equal(scaledValue(q('1k'), 0), 1000n);
    assert.equal(quantityString(roundUpToScale(q('1.5'), 0)), '2');
    assert.equal(isIntegerQuantity(q('2')), true);
    assert.equal(isIntegerQuantity(q('2000m')), true);
    assert.equal(isIntegerQuantity(q('1.5')), false);
    assert.equal(isIntegerQuantity(q('1n')), false);
    assert.equal(quantitySign(q('-1n')), -1);
    assert.equal(quantitySign(q('-0')), 0);
  });

  it('approximates as a float', () => {
    assert.equal(approximateFloat(q('1.5Gi')), 1610612736);
    assert.equal(approximateFloat(q('100m')), 0.1);
    assert.equal(approximateFloat(q('-2k')), -2000);
    assert.equal(approximateFloat(q('1e400')), Infinity);
  });
});
