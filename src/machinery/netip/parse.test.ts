import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatAddr, formatPrefix, parseAddr, parsePrefix } from './parse.js';

const error = (s: string): string => {
  const parsed = parseAddr(s);
  return parsed.ok ? `parsed ${formatAddr(parsed.value)}` : parsed.error;
};

describe('netip parseAddr', () => {
  it("refuses what Go's ParseAddr refuses, with its texts", () => {
    const cases: [string, string][] = [
      ['', 'unable to parse IP'],
      ['1.2.3.4.5', 'IPv4 address too long'],
      ['1.2.3', 'IPv4 address too short'],
      ['1.2.3.256', 'IPv4 field has value >255'],
      ['1.02.3.4', 'IPv4 field has octet with leading zero'],
      ['1..2.3', 'IPv4 field must have at least one digit (at ".2.3")'],
      ['1.2.3.4a', 'unexpected character (at "a")'],
      ['%eth0', 'missing IPv6 address'],
      ['fe80::1%', 'zone must be a non-empty string'],
      ['::1:2:3:4:5:6:7:8', 'the :: must expand to at least one field of zeros'],
      ['1:2:3:4:5:6:7', 'address string too short'],
      ['1:2:3:4:5:6:7:8:9', 'trailing garbage after address (at "9")'],
      ['12345::', 'each group must have 4 or less digits (at "12345::")'],
      ['1::2::3', 'multiple :: in address (at ":3")'],
      [
        '1:2:3:4:5:1.2.3.4',
        'embedded IPv4 address must replace the final 2 fields of the address (at "1.2.3.4")',
      ],
      ['::1.2.3', 'ParseAddr("1.2.3"): IPv4 address too short (at "1.2.3")'],
      ['1:', 'colon must be followed by more characters (at ":")'],
      ['1:2x', 'unexpected character, want colon (at "x")'],
    ];
    for (const [s, msg] of cases) assert.equal(error(s), `ParseAddr(${JSON.stringify(s)}): ${msg}`, s);
  });

  it('reads and writes addresses as Go does', () => {
    const cases: [string, string][] = [
      ['192.0.2.1', '192.0.2.1'],
      ['::', '::'],
      ['2001:DB8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
      ['1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:102:304'],
      ['::ffff:1.2.3.4', '::ffff:1.2.3.4'],
      ['fe80::1%eth0', 'fe80::1%eth0'],
    ];
    for (const [s, text] of cases) assert.equal(error(s), `parsed ${text}`, s);
  });
});

describe('netip parsePrefix', () => {
  it("refuses what Go's ParsePrefix refuses, with its texts", () => {
    const cases: [string, string][] = [
      ['10.0.0.0', "no '/'"],
      ['10.0.0.0/33', 'prefix length out of range'],
      ['10.0.0.0/08', 'bad bits after slash: "08"'],
      ['10.0.0.0/+8', 'bad bits after slash: "+8"'],
      ['10.0.0.0/', 'bad bits after slash: ""'],
      ['10.0.0.0/99999999999999999999', 'bad bits after slash: "99999999999999999999"'],
      ['fe80::1%eth0/64', 'IPv6 zones cannot be present in a prefix'],
      ['999/8', 'ParseAddr("999"): unable to parse IP'],
    ];
    for (const [s, msg] of cases) {
      const parsed = parsePrefix(s);
      assert.equal(parsed.ok ? 'parsed' : parsed.error, `netip.ParsePrefix(${JSON.stringify(s)}): ${msg}`, s);
    }
    const parsed = parsePrefix('10.1.2.3/8');
    assert.ok(parsed.ok);
    assert.equal(formatPrefix(parsed.value), '10.1.2.3/8');
  });
});
