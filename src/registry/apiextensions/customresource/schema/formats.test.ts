import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchesFormat } from './formats.js';

describe('matchesFormat', () => {
  // strfmt's rgbcolor and ISBN expressions are Go's: \s is ASCII whitespace, not a no-break space.
  const cases: { format: string; value: string; want: boolean }[] = [
    { format: 'rgbcolor', value: 'rgb( 1, 2 ,3 )', want: true },
    { format: 'rgbcolor', value: 'rgb(\u00a01,2,3)', want: false },
    { format: 'isbn10', value: '0-306-40615-2', want: true },
    { format: 'isbn10', value: '0\u00a0306406152', want: false },
  ];
  for (const c of cases) {
    it(`${c.format} ${JSON.stringify(c.value)} is ${String(c.want)}`, () => {
      assert.equal(matchesFormat(c.format, c.value), c.want);
    });
  }
});
