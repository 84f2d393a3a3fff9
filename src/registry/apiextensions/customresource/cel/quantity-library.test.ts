import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluateCel } from '../../testing/evaluate-cel.js';

// kube's pkg/cel/library/quantity_test.go cases.

const errorText = (v: unknown): string =>
  typeof v === 'string' && v.startsWith('error: ') ? v.slice(7) : `not an error: ${String(v)}`;

describe('the Quantity library', () => {
  it('parses quantities and tells which strings are ones', async () => {
    assert.match(
      errorText(await evaluateCel('quantity("10Mo")')),
      /^quantities must match the regular expression/,
    );
    assert.equal(errorText(await evaluateCel('quantity("10Mm")')), "unable to parse quantity's suffix");
    for (const [s, ok] of [
      ['20', true],
      ['20M', true],
      ['20Mi', true],
      ['20Mo', false],
      ['10Mm', false],
    ] as const)
      assert.equal(await evaluateCel(`isQuantity("${s}")`), ok, s);
  });

  it('compares values, whatever their suffixes', async () => {
    const cases: [string, unknown][] = [
      ['quantity("200M") == quantity("200M")', true],
      ['quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")', true],
      ['quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M")', true],
      ['quantity("1Ki") == quantity("1024")', true],
      ['quantity("200M") == quantity("0.3G")', false],
      ['quantity("50M").isLessThan(quantity("50Mi"))', true],
      ['quantity("100M").isLessThan(quantity("50M"))', false],
      ['quantity("50Mi").isGreaterThan(quantity("50M"))', true],
      ['quantity("50M").isGreaterThan(quantity("100M"))', false],
      ['quantity("200M").compareTo(quantity("0.2G"))', 0n],
      ['quantity("50M").compareTo(quantity("50Mi"))', -1n],
      ['quantity("50Mi").compareTo(quantity("50M"))', 1n],
      ['sign(quantity("-3m"))', -1n],
      ['sign(quantity("0"))', 0n],
    ];
    for (const [expr, want] of cases) assert.equal(await evaluateCel(expr), want, expr);
  });

  it('adds, subtracts and converts', async () => {
    const cases: [string, unknown][] = [
      ['quantity("50k").add(quantity("20")) == quantity("50.02k")', true],
      ['quantity("50k").add(20).isLessThan(quantity("50020"))', false],
      ['quantity("50k").sub(quantity("20")) == quantity("49.98k")', true],
      ['quantity("50k").sub(20) == quantity("49980")', true],
      ['quantity("50k").add(20).sub(quantity("100k")).asInteger()', -49980n],
      ['quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger()', 20n],
      ['quantity("50k").asInteger()', 50000n],
      ['quantity("9999999999999999999999999999999999999G").isInteger()', false],
      ['quantity("50").isInteger()', true],
      ['quantity("1.5").isInteger()', false],
      ['quantity("50.703k").asApproximateFloat()', 50703],
    ];
    for (const [expr, want] of cases) assert.equal(await evaluateCel(expr), want, expr);
    assert.equal(
      errorText(await evaluateCel('quantity("9999999999999999999999999999999999999G").asInteger()')),
      'cannot convert value to integer',
    );
  });
});
