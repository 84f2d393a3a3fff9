import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PodSpec } from '../../../../api/core/v1/pod.js';
import { FieldPath } from '../../../../machinery/validation/index.js';
import { validatePodDNSConfig } from './dns-config.js';

const check = (spec: Partial<PodSpec>): string[] =>
  validatePodDNSConfig({ containers: [], ...spec }, FieldPath.of('spec', 'dnsConfig')).map((e) =>
    e.toString(),
  );

describe('validatePodDNSConfig', () => {
  it('takes a config with nameservers, searches (trailing dot, ".", underscores) and options', () => {
    assert.deepEqual(
      check({
        dnsPolicy: 'None',
        dnsConfig: {
          nameservers: ['1.1.1.1', '2001:db8::1'],
          searches: ['svc.cluster.local.', '.', '_tcp.example.com'],
          options: [{ name: 'ndots', value: '2' }],
        },
      }),
      [],
    );
    assert.deepEqual(check({ dnsPolicy: 'ClusterFirst' }), []);
  });

  it('needs a config with a nameserver when the policy is None', () => {
    assert.deepEqual(check({ dnsPolicy: 'None' }), [
      'spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None',
    ]);
    assert.deepEqual(check({ dnsPolicy: 'None', dnsConfig: { searches: ['a.b'] } }), [
      'spec.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None',
    ]);
  });

  it('refuses too many or bad nameservers, bad search paths and nameless options', () => {
    assert.deepEqual(
      check({
        dnsConfig: {
          nameservers: ['1.1.1.1', '8.8.8.8', '9.9.9.9', 'dns.example'],
          searches: ['Upper.Case'],
          options: [{ value: '1' }],
        },
      }),
      [
        'spec.dnsConfig.nameservers: Invalid value: ["1.1.1.1","8.8.8.8","9.9.9.9","dns.example"]: must not have more than 3 nameservers',
        'spec.dnsConfig.nameservers[3]: Invalid value: "dns.example": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
        "spec.dnsConfig.searches[0]: Invalid value: \"Upper.Case\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        'spec.dnsConfig.options[0]: Required value: Option.Name must not be empty',
      ],
    );
  });

  it('reads nameservers as netutils.ParseIPSloppy does: leading zeros pass, zones do not', () => {
    assert.deepEqual(
      check({ dnsConfig: { nameservers: ['010.001.002.003', '::ffff:1.2.3.4', 'fe80::1%eth0'] } }),
      [
        'spec.dnsConfig.nameservers[2]: Invalid value: "fe80::1%eth0": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      ],
    );
  });

  it('limits the search list to 32 paths', () => {
    const searches = Array.from({ length: 33 }, (_, i) => `s${String(i)}.example`);
    assert.match(check({ dnsConfig: { searches } })[0] ?? '', /must not have more than 32 search paths$/);
  });
});
