import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { IPAddress, ParentReference } from '../../../api/networking/v1/ip-address.js';
import type { KubeObject } from '../../../api/meta.js';
import type { ServiceCIDR } from '../../../api/networking/v1/service-cidr.js';
import type { StatusREST } from '../../generic/status-rest.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { newIPAddressREST } from '../ipaddress/storage.js';
import { newServiceCIDRREST } from './storage.js';

const cidr = (name: string, cidrs: string[]): ServiceCIDR => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'ServiceCIDR',
  metadata: { name },
  spec: { cidrs },
});
const put = <T extends KubeObject>(obj: T): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});
const invalid = (kind: string, name: string, detail: string) => ({
  code: 422,
  reason: 'Invalid',
  message: `${kind}.networking.k8s.io "${name}" is invalid: ${detail}`,
});

describe('servicecidrs and ipaddresses', () => {
  let env: MemoryRESTOptions;
  let cidrs: Store<ServiceCIDR>;
  let status: StatusREST<ServiceCIDR>;
  let ips: Store<IPAddress>;
  const ctx = testContext('');
  before(async () => {
    env = await memoryRESTOptions();
    const s = await newServiceCIDRREST({ restOptionsGetter: env.getter });
    cidrs = s.serviceCIDRs;
    status = s.status;
    ips = await newIPAddressREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('validates CIDRs as kube 1.33 does', async () => {
    const cases: [string[], string][] = [
      [[], 'spec.cidrs: Required value: at least one CIDR required'],
      [
        ['10.0.0.1/24'],
        'spec.cidrs[0]: Invalid value: "10.0.0.1/24": must not have bits set beyond the prefix length',
      ],
      [
        ['10.0.0.0'],
        'spec.cidrs[0]: Invalid value: "10.0.0.0": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      ],
      [
        ['010.0.0.0/8'],
        'spec.cidrs[0]: Invalid value: "010.0.0.0/8": must not have leading 0s in IP or prefix length',
      ],
      [
        ['10.0.0.0/08'],
        'spec.cidrs[0]: Invalid value: "10.0.0.0/08": must not have leading 0s in IP or prefix length',
      ],
      [
        ['::ffff:10.0.0.0/104'],
        'spec.cidrs[0]: Invalid value: "::ffff:10.0.0.0/104": must not have an IPv4-mapped IPv6 address',
      ],
      [['FD00::/64'], 'spec.cidrs[0]: Invalid value: "FD00::/64": must be in canonical form ("fd00::/64")'],
      [
        ['fd00::%eth0/64'],
        'spec.cidrs[0]: Invalid value: "fd00::%eth0/64": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      ],
      [
        ['10.0.0.0/24', '10.1.0.0/24'],
        'spec.cidrs: Invalid value: []string{"10.0.0.0/24", "10.1.0.0/24"}: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64',
      ],
      [
        ['10.0.0.0/24', 'fd00::/64', '10.2.0.0/24'],
        'spec.cidrs: Invalid value: &networking.ServiceCIDRSpec{CIDRs:[]string{"10.0.0.0/24", "fd00::/64", "10.2.0.0/24"}}: may only hold up to 2 values',
      ],
    ];
    for (const [value, detail] of cases) {
      await rejectsWithStatus(
        cidrs.create(ctx, cidr('bad', value), { options: {} }),
        invalid('ServiceCIDR', 'bad', detail),
      );
    }
  });

  it('keeps CIDRs immutable but lets a single-stack range become dual-stack', async () => {
    await cidrs.create(ctx, cidr('extra', ['10.96.0.0/16']), { options: {} });
    const current = await cidrs.get(ctx, 'extra', {});
    await rejectsWithStatus(
      cidrs.update(ctx, 'extra', put({ ...current, spec: { cidrs: ['10.97.0.0/16'] } })),
      invalid('ServiceCIDR', 'extra', 'spec.cidrs[0]: Invalid value: "10.97.0.0/16": field is immutable'),
    );
    const { object: dual } = await cidrs.update(
      ctx,
      'extra',
      put({ ...current, spec: { cidrs: ['10.96.0.0/16', 'fd00::/108'] } }),
    );
    assert.deepEqual(dual.spec?.cidrs, ['10.96.0.0/16', 'fd00::/108']);
    assert.equal(dual.metadata?.generation, undefined);
  });

  it('sets the Ready condition through the status subresource only, and prints NAME CIDRS AGE', async () => {
    const current = await cidrs.get(ctx, 'extra', {});
    const condition = {
      type: 'Ready',
      status: 'True',
      lastTransitionTime: '2026-01-01T00:00:00Z',
      reason: '',
      message: 'ok',
    };
    const { object: updated } = await status.update(
      ctx,
      'extra',
      put({ ...current, spec: { cidrs: ['1.0.0.0/8'] }, status: { conditions: [condition] } }),
    );
    assert.deepEqual(updated.spec?.cidrs, ['10.96.0.0/16', 'fd00::/108']);
    assert.deepEqual(updated.status?.conditions, [condition]);
    const table = cidrs.convertToTable(ctx, updated, {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'CIDRs', 'Age'],
    );
    assert.deepEqual(table.rows[0]?.cells.slice(0, 2), ['extra', '10.96.0.0/16,fd00::/108']);
  });

  it('names an IPAddress by its canonical IP and keeps its parent immutable', async () => {
    const ip = (name: string, parentRef?: ParentReference): IPAddress => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IPAddress',
      metadata: { name },
      spec: parentRef === undefined ? {} : { parentRef },
    });
    const svc = { group: '', resource: 'services', namespace: 'default', name: 'web' };
    await rejectsWithStatus(
      ips.create(ctx, ip('2001:DB8::1', svc), { options: {} }),
      invalid(
        'IPAddress',
        '2001:DB8::1',
        'metadata.name: Invalid value: "2001:DB8::1": must be in canonical form ("2001:db8::1")',
      ),
    );
    await rejectsWithStatus(
      ips.create(ctx, ip('10.0.0.300', svc), { options: {} }),
      invalid(
        'IPAddress',
        '10.0.0.300',
        'metadata.name: Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      ),
    );
    for (const [name, detail] of [
      ['010.0.0.9', 'must not have leading 0s'],
      ['::ffff:10.0.0.9', 'must not be an IPv4-mapped IPv6 address'],
      ['fe80::1%eth0', 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'],
    ] as const)
      await rejectsWithStatus(
        ips.create(ctx, ip(name, svc), { options: {} }),
        invalid('IPAddress', name, `metadata.name: Invalid value: "${name}": ${detail}`),
      );
    await rejectsWithStatus(
      ips.create(ctx, ip('10.0.0.9'), { options: {} }),
      invalid('IPAddress', '10.0.0.9', 'spec.parentRef: Required value'),
    );
    const created = await ips.create(ctx, ip('10.0.0.9', svc), { options: {} });
    await rejectsWithStatus(
      ips.update(ctx, '10.0.0.9', put({ ...created, spec: { parentRef: { ...svc, name: 'other' } } })),
      invalid(
        'IPAddress',
        '10.0.0.9',
        'spec.parentRef: Invalid value: &networking.ParentReference{Group:"", Resource:"services", Namespace:"default", Name:"other"}: field is immutable',
      ),
    );
    const table = ips.convertToTable(ctx, created, {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'ParentRef'],
    );
    assert.deepEqual(table.rows[0]?.cells.slice(0, 2), ['10.0.0.9', 'services/default/web']);
  });
});
