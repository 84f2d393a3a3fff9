// validatePodIPs, validateHostIPs and validatePodResourceClaimStatuses in ValidatePodStatusUpdate,
// with kube's exact texts, types and paths.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../../../api/core/v1/pod.js';
import type { PodStatus } from '../../../../api/core/v1/pod-status.js';
import type { ErrorList } from '../../../../machinery/validation/index.js';
import { setPodDefaults } from '../defaults.js';
import { validatePodStatusUpdate } from '../validation.js';

function pod(status: PodStatus = {}): Pod {
  const p: Pod = {
    metadata: { name: 'p', namespace: 'default', resourceVersion: '1' },
    spec: { containers: [{ name: 'app', image: 'nginx' }], nodeName: 'n' },
    status,
  };
  setPodDefaults(p);
  return p;
}

const texts = (errs: ErrorList): string[] => errs.map((e) => `${e.type} ${e.error()}`);
const check = (status: PodStatus): string[] => texts(validatePodStatusUpdate(pod(status), pod()));
const ips = (...values: string[]): { ip: string }[] => values.map((ip) => ({ ip }));

describe('validatePodIPs as kube', () => {
  it('accepts one IP of each family, IPv4 parts with leading zeros included', () => {
    assert.deepEqual(check({ podIP: '10.0.0.1', podIPs: ips('010.0.0.1', 'fd00::1') }), []);
  });

  it('refuses an invalid IP, and then cannot tell the families apart', () => {
    assert.deepEqual(check({ podIPs: ips('10.0.0.1', 'nope') }), [
      'FieldValueInvalid status.podIPs[1]: Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'InternalError status.podIPs: Internal error: failed to check for dual stack with error:invalid IP[1]: nope',
      'FieldValueInvalid status.podIPs: Invalid value: []core.PodIP{core.PodIP{IP:"10.0.0.1"}, core.PodIP{IP:"nope"}}: may specify no more than one IP for each IP family',
    ]);
  });

  it('refuses two of one family (an IPv4-mapped IPv6 address is IPv4); 1.33 has no duplicate check', () => {
    assert.deepEqual(check({ podIPs: ips('10.0.0.1', '::ffff:10.0.0.1', '10.0.0.1') }), [
      'FieldValueInvalid status.podIPs: Invalid value: []core.PodIP{core.PodIP{IP:"10.0.0.1"}, core.PodIP{IP:"::ffff:10.0.0.1"}, core.PodIP{IP:"10.0.0.1"}}: may specify no more than one IP for each IP family',
    ]);
  });

  it('refuses a zoned IPv6 address, unless the old pod already held it', () => {
    const zoned: PodStatus = { podIP: 'fe80::1%eth0', podIPs: ips('fe80::1%eth0') };
    assert.deepEqual(check(zoned), [
      'FieldValueInvalid status.podIPs[0]: Invalid value: "fe80::1%eth0": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
    assert.deepEqual(texts(validatePodStatusUpdate(pod(zoned), pod(zoned))), []);
  });
});

describe('validateHostIPs as kube', () => {
  it('needs the first to be hostIP', () => {
    assert.deepEqual(check({ hostIP: '10.0.0.2', hostIPs: ips('10.0.0.1') }), [
      'FieldValueInvalid status.hostIPs[0].ip: Invalid value: "10.0.0.1": must be equal to `hostIP`',
    ]);
  });

  it('refuses two of one family', () => {
    assert.deepEqual(check({ hostIP: '10.0.0.1', hostIPs: ips('10.0.0.1', '10.0.0.1') }), [
      'FieldValueInvalid status.hostIPs: Invalid value: []core.HostIP{core.HostIP{IP:"10.0.0.1"}, core.HostIP{IP:"10.0.0.1"}}: may specify no more than one IP for each IP family',
    ]);
  });

  it('accepts a dual-stack pair', () => {
    assert.deepEqual(check({ hostIP: 'fd00::2', hostIPs: ips('fd00::2', '10.0.0.2') }), []);
  });
});

describe('validatePodResourceClaimStatuses as kube', () => {
  it("names only the spec's claims, once, with a valid generated name", () => {
    const next = pod({
      resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: 'Bad_' }, { name: 'gpu' }, { name: 'x' }],
    });
    const old = pod();
    for (const p of [next, old])
      if (p.spec !== undefined) p.spec.resourceClaims = [{ name: 'gpu', resourceClaimName: 'c' }];
    assert.deepEqual(texts(validatePodStatusUpdate(next, old)), [
      `FieldValueInvalid status.resourceClaimStatuses[0].name: Invalid value: "Bad_": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      'FieldValueDuplicate status.resourceClaimStatuses[1].name: Duplicate value: "gpu"',
      'FieldValueInvalid status.resourceClaimStatuses[2].name: Invalid value: "x": must match the name of an entry in `spec.resourceClaims`',
    ]);
  });
});
