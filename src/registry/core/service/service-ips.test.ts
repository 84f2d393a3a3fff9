// The IP and CIDR fields of a Service as kube 1.33 validates them (legacy fields: what netutils'
// sloppy parsers read; old values pass) and warns of them (GetWarningsForService and the status
// strategy's warnings).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Service } from '../../../api/core/v1/service.js';
import { testContext } from '../../generic/testing/widgets.js';
import { setServiceDefaults } from './defaults.js';
import { serviceStatusStrategy, serviceStrategy } from './strategy.js';
import { svc } from './testing/service-env.js';
import { validateService, validateServiceUpdate } from './validation.js';

const ctx = testContext('default');

/** A service as the store holds it: namespaced, defaulted, with a resourceVersion. */
function service(spec: Service['spec'], annotations?: Record<string, string>): Service {
  const s = svc('web', spec);
  s.metadata = {
    name: 'web',
    namespace: 'default',
    resourceVersion: '1',
    ...(annotations === undefined ? {} : { annotations }),
  };
  setServiceDefaults(s);
  return s;
}

const errors = (s: Service, old?: Service): string[] =>
  (old === undefined ? validateService(s) : validateServiceUpdate(s, old)).map((e) => e.error());

describe('service IP fields as kube 1.33 validates them', () => {
  it('takes cluster and external IPs with leading zeros, refuses zoned ones', () => {
    assert.deepEqual(errors(service({ clusterIP: '10.0.0.010', clusterIPs: ['10.0.0.010'] })), []);
    assert.deepEqual(errors(service({ externalIPs: ['192.0.002.1'] })), []);
    assert.deepEqual(errors(service({ clusterIP: 'fd00::1%eth0', clusterIPs: ['fd00::1%eth0'] })), [
      'spec.clusterIPs[0]: Invalid value: "fd00::1%eth0": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
  });

  it('refuses external IPs no endpoint may have; an old one skips only the IP check, as in kube', () => {
    const bad = service({ externalIPs: ['127.0.0.1', 'fe80::1%lo'] });
    const loopback =
      'spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)';
    assert.deepEqual(errors(bad), [
      loopback,
      'spec.externalIPs[1]: Invalid value: "fe80::1%lo": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
    assert.deepEqual(errors(structuredClone(bad), bad), [
      loopback,
      'spec.externalIPs[1]: Invalid value: "fe80::1%lo": must be a valid IP address',
    ]);
  });

  it('counts an IPv4-mapped cluster IP as IPv4 when checking families', () => {
    const ips = ['10.0.0.1', '::ffff:10.0.0.2'];
    const spec = { clusterIPs: ips, ipFamilyPolicy: 'PreferDualStack', ipFamilies: ['IPv4', 'IPv6'] };
    assert.deepEqual(errors(service({ clusterIP: '10.0.0.1', ...spec })), [
      'spec.clusterIPs: Invalid value: ["10.0.0.1","::ffff:10.0.0.2"]: may specify no more than one IP for each IP family',
      'spec.clusterIPs[1]: Invalid value: "::ffff:10.0.0.2": expected an IPv6 value as indicated by `ipFamilies[1]`',
    ]);
  });

  it('checks load balancer source ranges, in the field or its annotation, only on load balancers', () => {
    assert.deepEqual(
      errors(service({ type: 'LoadBalancer', loadBalancerSourceRanges: [' 10.0.0.0/08 '] })),
      [],
    );
    assert.deepEqual(errors(service({ loadBalancerSourceRanges: ['10.0.0.0/33'] })), [
      "spec.loadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'",
      'spec.loadBalancerSourceRanges[0]: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ]);
    const annotated = service(
      { type: 'LoadBalancer' },
      { 'service.beta.kubernetes.io/load-balancer-source-ranges': '10.0.0.0/8, nope' },
    );
    assert.deepEqual(errors(annotated), [
      'metadata.annotations[service.beta.kubernetes.io/load-balancer-source-ranges]: Invalid value: "nope": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ]);
    assert.deepEqual(errors(structuredClone(annotated), annotated), []);
  });
});

describe('service warnings as kube 1.33 gives them', () => {
  it('warns of non-standard IPs and CIDRs, the topology-hints annotation and ignored fields', () => {
    const s = service(
      {
        clusterIP: '10.0.0.010',
        clusterIPs: ['10.0.0.010'],
        externalIPs: ['::ffff:192.0.2.1'],
        loadBalancerIP: '2001:DB8::1',
        loadBalancerSourceRanges: ['10.0.0.1/8'],
        externalName: 'x.example',
      },
      { 'service.kubernetes.io/topology-aware-hints': 'auto' },
    );
    const want = [
      'annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead',
      'spec.clusterIPs[0]: non-standard IP address "10.0.0.010" will be considered invalid in a future Kubernetes release: use "10.0.0.10"',
      'spec.externalIPs[0]: non-standard IP address "::ffff:192.0.2.1" will be considered invalid in a future Kubernetes release: use "192.0.2.1"',
      'spec.loadBalancerIP: IPv6 address "2001:DB8::1" should be in RFC 5952 canonical format ("2001:db8::1")',
      'spec.loadBalancerSourceRanges[0]: CIDR value "10.0.0.1/8" is ambiguous in this context (should be "10.0.0.0/8" or "10.0.0.1/32"?)',
      'spec.externalName is ignored when spec.type is not "ExternalName"',
    ];
    assert.deepEqual(serviceStrategy.warningsOnCreate(ctx, s), want);
    assert.deepEqual(serviceStrategy.warningsOnUpdate(ctx, s), want);
  });

  it('warns of non-standard load balancer ingress IPs on a status write', () => {
    const s = service({ type: 'LoadBalancer' });
    s.status = {
      loadBalancer: { ingress: [{ ip: '192.0.2.01', ipMode: 'VIP' }, { hostname: 'lb.example' }] },
    };
    assert.deepEqual(serviceStatusStrategy.warningsOnUpdate(ctx, s), [
      'status.loadBalancer.ingress[0]: non-standard IP address "192.0.2.01" will be considered invalid in a future Kubernetes release: use "192.0.2.1"',
    ]);
  });

  it('refuses load balancer ingress on a service that is no load balancer', () => {
    const s = service({});
    const old = structuredClone(s);
    s.status = { loadBalancer: { ingress: [{ ip: '192.0.2.1', ipMode: 'VIP' }] } };
    assert.deepEqual(
      serviceStatusStrategy.validateUpdate(ctx, s, old).map((e) => e.error()),
      ["status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is 'LoadBalancer'"],
    );
  });
});
