import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ipNetString,
  isIPSloppy,
  netIPString,
  parseCIDRSloppy,
  parseIPSloppy,
  sloppyIPFamily,
} from './sloppy.js';

const read = (s: string): string | undefined => {
  const ip = parseIPSloppy(s);
  return ip === undefined ? undefined : netIPString(ip);
};

describe('netutils.ParseIPSloppy', () => {
  it('reads IPv4 parts with leading zeros as decimal, as Go before 1.17 did', () => {
    assert.equal(read('010.001.002.003'), '10.1.2.3');
    assert.equal(read('0000000001.2.3.4'), '1.2.3.4');
    assert.equal(read('10.0.0.1'), '10.0.0.1');
    assert.equal(read('::ffff:010.1.2.3'), '10.1.2.3');
    assert.equal(read('0001::00001'), '1::1');
  });

  it('refuses zones, out-of-range parts and what is no address', () => {
    for (const s of [
      'fe80::1%eth0',
      '10.0.0.1%eth0',
      '256.0.0.1',
      '1.2.3',
      '1.2.3.4.5',
      '1..2.3',
      '',
      'nope',
      '1:2:3:4:5:6:7',
      '1::2::3',
      '::1:2:3:4:5:6:7:8',
      '1:2:3:4:5:1.2.3.4',
      '10000::',
      '10.0.0.0/8',
      '1.2.3.4 ',
    ]) {
      assert.equal(read(s), undefined, s);
      assert.equal(isIPSloppy(s), false, s);
    }
  });

  it('prints as net.IP does: IPv4-mapped as IPv4, IPv6 in RFC 5952 form', () => {
    assert.equal(read('::FFFF:192.168.0.1'), '192.168.0.1');
    assert.equal(read('2001:DB8:0:0:0:0:0:1'), '2001:db8::1');
    assert.equal(read('::1.2.3.4'), '::102:304');
    assert.equal(read('1:0:1:0:0:1:0:0'), '1:0:1::1:0:0');
    assert.equal(read('::'), '::');
  });

  it('gives an IPv4-mapped address the IPv4 family, as net.IP.To4 does', () => {
    assert.equal(sloppyIPFamily('::ffff:1.2.3.4'), 'IPv4');
    assert.equal(sloppyIPFamily('01.2.3.4'), 'IPv4');
    assert.equal(sloppyIPFamily('fd00::1'), 'IPv6');
    assert.equal(sloppyIPFamily('fd00::1%lo'), undefined);
  });
});

describe('netutils.ParseCIDRSloppy', () => {
  const net = (s: string): string | undefined => {
    const cidr = parseCIDRSloppy(s);
    return cidr === undefined ? undefined : ipNetString(cidr);
  };

  it('reads leading zeros in the address and the length, and prints the network', () => {
    assert.equal(net('010.0.0.0/08'), '10.0.0.0/8');
    assert.equal(net('10.1.2.3/16'), '10.1.0.0/16');
    assert.equal(net('2001:DB8::1/64'), '2001:db8::/64');
    assert.equal(net('::ffff:1.2.3.4/120'), '1.2.3.0/24');
    assert.equal(net('::ffff:1.2.3.4/64'), '::/64');
    assert.equal(net('0.0.0.0/0'), '0.0.0.0/0');
  });

  it('refuses a missing or out-of-range length, a signed one and zones', () => {
    for (const s of ['10.0.0.0', '10.0.0.0/', '10.0.0.0/33', '::/129', '10.0.0.0/+8', 'fe80::%eth0/64'])
      assert.equal(net(s), undefined, s);
  });
});
