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
    // ipv4 and cidr as netutils' sloppy parsers read them; ipv6 as Go's net.ParseIP (no zone).
    { format: 'ipv4', value: '010.001.002.003', want: true },
    { format: 'ipv4', value: '::ffff:1.2.3.4', want: true },
    { format: 'ipv4', value: '1.2.3.4%eth0', want: false },
    { format: 'ipv6', value: 'fe80::1', want: true },
    { format: 'ipv6', value: 'fe80::1%eth0', want: false },
    { format: 'ipv6', value: '::ffff:01.2.3.4', want: false },
    { format: 'cidr', value: '010.0.0.0/08', want: true },
    { format: 'cidr', value: 'fe80::%eth0/64', want: false },
  ];
  for (const c of cases) {
    it(`${c.format} ${JSON.stringify(c.value)} is ${String(c.want)}`, () => {
      assert.equal(matchesFormat(c.format, c.value), c.want);
    });
  }
});
