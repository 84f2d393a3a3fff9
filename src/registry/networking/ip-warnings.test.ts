import assert from 'node:assert/strict';
import { it } from 'node:test';
import { FieldPath } from '../../machinery/validation/index.js';
import { warningsForIP } from './ip-warnings.js';

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
