import assert from 'node:assert/strict';
import { it } from 'node:test';
import { FieldPath } from '../../machinery/validation/index.js';
import { warningsForCIDR, warningsForIP } from './ip-warnings.js';

const at = () => FieldPath.of('spec', 'ip');

it('says nothing of canonical addresses, nor of what is no address at all (validation has spoken)', () => {
  for (const value of [
    '10.0.0.1',
    '0.0.0.0',
    '2001:db8::1',
    '::',
    '::1',
    'fe80::1%eth0',
    'nope',
    '1.2.3',
    '256.0.0.1',
    '',
  ])
    assert.deepEqual(warningsForIP(at, value), [], value);
});

it('warns of leading zeros and IPv4-mapped IPv6, giving the form to use', () => {
  assert.deepEqual(warningsForIP(at, '010.001.0.1'), [
    'spec.ip: non-standard IP address "010.001.0.1" will be considered invalid in a future Kubernetes release: use "10.1.0.1"',
  ]);
  assert.deepEqual(warningsForIP(at, '::ffff:192.168.0.1'), [
    'spec.ip: non-standard IP address "::ffff:192.168.0.1" will be considered invalid in a future Kubernetes release: use "192.168.0.1"',
  ]);
  assert.deepEqual(warningsForIP(at, '::ffff:192.168.00.1'), [
    'spec.ip: non-standard IP address "::ffff:192.168.00.1" will be considered invalid in a future Kubernetes release: use "192.168.0.1"',
  ]);
});

it('asks for IPv6 in its RFC 5952 form', () => {
  assert.deepEqual(warningsForIP(at, '2001:DB8:0:0:0:0:0:1'), [
    'spec.ip: IPv6 address "2001:DB8:0:0:0:0:0:1" should be in RFC 5952 canonical format ("2001:db8::1")',
  ]);
  assert.deepEqual(warningsForIP(at, '::1.2.3.4'), [
    'spec.ip: IPv6 address "::1.2.3.4" should be in RFC 5952 canonical format ("::102:304")',
  ]);
});

it('warns of CIDRs as GetWarningsForCIDR does: ambiguous, non-standard, then non-canonical IPv6', () => {
  const cidr = (value: string) => warningsForCIDR(at, value);
  for (const value of ['10.0.0.0/8', 'fd00::/64', '0.0.0.0/0', 'nope', '10.0.0.0/33', 'fe80::%eth0/64'])
    assert.deepEqual(cidr(value), [], value);
  assert.deepEqual(cidr('010.0.0.1/08'), [
    'spec.ip: CIDR value "010.0.0.1/08" is ambiguous in this context (should be "10.0.0.0/8" or "10.0.0.1/32"?)',
    'spec.ip: non-standard CIDR value "010.0.0.1/08" will be considered invalid in a future Kubernetes release: use "10.0.0.0/8"',
  ]);
  assert.deepEqual(cidr('::ffff:10.0.0.0/104'), [
    'spec.ip: non-standard CIDR value "::ffff:10.0.0.0/104" will be considered invalid in a future Kubernetes release: use "10.0.0.0/8"',
  ]);
  assert.deepEqual(cidr('FD00:0::/64'), [
    'spec.ip: IPv6 CIDR value "FD00:0::/64" should be in RFC 5952 canonical format ("fd00::/64")',
  ]);
  assert.deepEqual(cidr('fd00::1/64'), [
    'spec.ip: CIDR value "fd00::1/64" is ambiguous in this context (should be "fd00::/64" or "fd00::1/128"?)',
  ]);
});
