import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluateCel } from '../../testing/evaluate-cel.js';

// kube's pkg/cel/library/ip_test.go and cidr_test.go cases.

async function expectAll(cases: readonly (readonly [string, unknown])[]): Promise<void> {
  for (const [expr, want] of cases) assert.equal(await evaluateCel(expr), want, expr);
}

describe("kube's IP library", () => {
  it('parses IPv4 and IPv6 addresses as Go does, with its errors', async () => {
    await expectAll([
      ['string(ip("192.168.0.1"))', '192.168.0.1'],
      [
        'ip("192.168.0.1.0")',
        'error: IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long',
      ],
      ['isIP("192.168.0.1")', true],
      ['isIP("192.168.0.1.0")', false],
      ['isIP("01.2.3.4")', false],
      ['ip.isCanonical("127.0.0.1")', true],
      [
        'ip.isCanonical("127.0.0.1.0")',
        'error: IP Address "127.0.0.1.0" parse error during conversion from string: ParseAddr("127.0.0.1.0"): IPv4 address too long',
      ],
      [
        'ip("2001:db8:::68")',
        'error: IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")',
      ],
      ['isIP("2001:db8::68")', true],
      ['ip.isCanonical("2001:db8::68")', true],
      ['ip.isCanonical("2001:DB8::68")', false],
      ['string(ip("2001:0db8:0:0::68"))', '2001:db8::68'],
      ['ip("fe80::1%eth0")', 'error: IP address "fe80::1%eth0" with zone value is not allowed'],
      ['ip("::ffff:1.2.3.4")', 'error: IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed'],
      ['ip("1.2.3.4") == ip("1.2.3.4")', true],
    ]);
  });

  it("tells an address's family and kind", async () => {
    await expectAll([
      ['ip("192.168.0.1").family()', 4n],
      ['ip("2001:db8::68").family()', 6n],
      ['ip("0.0.0.0").isUnspecified()', true],
      ['ip("127.0.0.1").isUnspecified()', false],
      ['ip("127.0.0.1").isLoopback()', true],
      ['ip("1.2.3.4").isLoopback()', false],
      ['ip("224.0.0.1").isLinkLocalMulticast()', true],
      ['ip("224.0.1.1").isLinkLocalMulticast()', false],
      ['ip("169.254.169.254").isLinkLocalUnicast()', true],
      ['ip("192.168.0.1").isLinkLocalUnicast()', false],
      ['ip("192.168.0.1").isGlobalUnicast()', true],
      ['ip("255.255.255.255").isGlobalUnicast()', false],
      ['ip("::").isUnspecified()', true],
      ['ip("::1").isUnspecified()', false],
      ['ip("::1").isLoopback()', true],
      ['ip("2001:db8::abcd").isLoopback()', false],
      ['ip("ff02::1").isLinkLocalMulticast()', true],
      ['ip("fd00::1").isLinkLocalMulticast()', false],
      ['ip("fe80::1").isLinkLocalUnicast()', true],
      ['ip("fd80::1").isLinkLocalUnicast()', false],
      ['ip("2001:db8::abcd").isGlobalUnicast()', true],
      ['ip("ff00::1").isGlobalUnicast()', false],
    ]);
  });
});

describe("kube's CIDR library", () => {
  it('parses prefixes as Go does, with kube’s doubled prefix on errors', async () => {
    await expectAll([
      ['string(cidr("192.168.0.0/24"))', '192.168.0.0/24'],
      ['isCIDR("192.168.0.0/24")', true],
      ['isCIDR("192.168.0.0/33")', false],
      ['isCIDR("192.168.0.0")', false],
      [
        'cidr("192.168.0.0/08")',
        'error: network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("192.168.0.0/08"): bad bits after slash: "08"',
      ],
      [
        'cidr("::ffff:1.2.3.4/120")',
        'error: network address parse error during conversion from string: IPv4-mapped IPv6 address "::ffff:1.2.3.4/120" is not allowed',
      ],
      ['cidr("192.168.0.1/24").prefixLength()', 24n],
      ['string(cidr("192.168.0.1/24").ip())', '192.168.0.1'],
      ['cidr("192.168.0.1/24").masked() == cidr("192.168.0.0/24")', true],
      ['cidr("192.168.0.1/24") == cidr("192.168.0.0/24")', false],
      ['string(cidr("2001:db8::1/64").masked())', '2001:db8::/64'],
    ]);
  });

  it('tells which addresses and prefixes a prefix holds', async () => {
    await expectAll([
      ['cidr("192.168.0.0/24").containsIP(ip("192.168.0.1"))', true],
      ['cidr("192.168.0.0/24").containsIP("192.168.1.1")', false],
      ['cidr("192.168.0.0/24").containsIP("::1")', false],
      ['cidr("192.168.0.0/24").containsIP("bad")', 'error: no such overload'],
      ['cidr("192.168.0.0/16").containsCIDR("192.168.1.0/24")', true],
      ['cidr("192.168.1.0/24").containsCIDR(cidr("192.168.0.0/16"))', false],
      ['cidr("192.168.0.0/24").containsCIDR("192.168.0.0/24")', true],
      ['cidr("2001:db8::/32").containsCIDR("2001:db8:1::/48")', true],
    ]);
  });
});
