// The allocators' pure parts: IPs and CIDRs as Go prints them, the bitmap's bytes, and the
// --service-cluster-ip-range and --service-node-port-range flags with kube's errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatIP, parseCIDR, parseIP } from './ip-net.js';
import { formatPortRange, parsePortRange } from './port-range.js';
import { decodeBits, encodeBits, setBits } from './range-store.js';
import { parseServiceClusterIPRange } from './service-ip-ranges.js';

describe('allocator building blocks', () => {
  it('parses IPs and CIDRs as netutils.ParseIPSloppy and ParseCIDRSloppy do, and prints them as Go does', () => {
    assert.equal(formatIP('IPv6', parseIP('fd00:10:0:0::1')?.value ?? 0n), 'fd00:10::1');
    // An IPv4-mapped address is IPv4 (net.IP's To4), and IPv4 parts may have leading zeros.
    assert.deepEqual(parseIP('::ffff:1.2.3.4'), { family: 'IPv4', value: 0x01020304n });
    assert.deepEqual(parseIP('010.0.0.1'), { family: 'IPv4', value: 0x0a000001n });
    assert.equal(parseIP('fe80::1%eth0'), undefined);
    assert.deepEqual(parseCIDR('::ffff:10.0.0.0/104'), {
      family: 'IPv4',
      base: 0x0a000000n,
      ones: 8,
      bits: 32,
    });
    const net = parseCIDR('10.0.0.77/24');
    assert.equal(net === undefined ? '' : formatIP(net.family, net.base), '10.0.0.0');
  });

  it('stores the bitmap as big-endian bytes, as Go big.Int.Bytes()', () => {
    assert.equal(encodeBits(0n), '');
    assert.equal(encodeBits(0x0102n), Buffer.from([1, 2]).toString('base64'));
    assert.deepEqual(setBits(decodeBits(encodeBits((1n << 253n) | 1n))), [0, 253]);
  });

  it('parses --service-cluster-ip-range with kube errors', () => {
    assert.deepEqual(parseServiceClusterIPRange('10.96.0.0/12').errors, []);
    assert.deepEqual(parseServiceClusterIPRange('nope').errors, [
      'service-cluster-ip-range[0] is not a valid cidr',
    ]);
    assert.deepEqual(parseServiceClusterIPRange('10.0.0.0/24,x').errors, [
      'service-cluster-ip-range[1] is not an ip net',
    ]);
    assert.deepEqual(parseServiceClusterIPRange('10.0.0.0/24,10.1.0.0/24').errors, [
      '--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family',
    ]);
    assert.deepEqual(parseServiceClusterIPRange('10.0.0.0/8').errors, [
      'specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12',
    ]);
    assert.deepEqual(
      parseServiceClusterIPRange('a/1,b/2,c/3').errors[0],
      '--service-cluster-ip-range must not contain more than two entries',
    );
  });

  it('parses --service-node-port-range as utilnet.PortRange', () => {
    assert.deepEqual(parsePortRange('30000-32767'), { base: 30000, size: 2768 });
    assert.deepEqual(parsePortRange('30000+10'), { base: 30000, size: 11 });
    assert.equal(formatPortRange(parsePortRange('8080')), '8080-8080');
    assert.throws(() => parsePortRange('2-1'), { message: 'end port cannot be less than start port: 2-1' });
    assert.throws(() => parsePortRange('1-70000'), {
      message: 'the port range cannot be greater than 65535: 1-70000',
    });
    assert.throws(() => parsePortRange('a-b'), { message: 'strconv.Atoi: parsing "a": invalid syntax' });
  });
});
