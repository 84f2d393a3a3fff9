import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EndpointSlice } from '../../../api/discovery/v1/endpoint-slice.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { newEndpointSliceREST } from './storage.js';
import { endpointSliceStrategy } from './strategy.js';
import { validateEndpointSlice, validateEndpointSliceUpdate } from './validation.js';

const slice = (name: string, more: Partial<EndpointSlice> = {}): EndpointSlice => ({
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: { name, labels: { 'kubernetes.io/service-name': 'web' } },
  addressType: 'IPv4',
  endpoints: [{ addresses: ['10.0.0.1'] }, { addresses: ['10.0.0.2'] }],
  ports: [{ name: 'http', port: 80 }],
  ...more,
});
const put = (obj: EndpointSlice): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});

describe('endpointslices', () => {
  let env: MemoryRESTOptions;
  let store: Store<EndpointSlice>;
  const ctx = testContext('default');
  before(async () => {
    env = await memoryRESTOptions();
    store = await newEndpointSliceREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('defaults port protocols, tracks generation and selects by service-name label', async () => {
    const out = await store.create(ctx, slice('web-abc'), { options: {} });
    assert.deepEqual(out.ports, [{ name: 'http', port: 80, protocol: 'TCP' }]);
    assert.equal(out.metadata?.generation, 1);
    const list = await store.list(ctx, { labelSelector: 'kubernetes.io/service-name=web' });
    assert.deepEqual(
      list.items.map((s) => s.metadata?.name),
      ['web-abc'],
    );
  });

  it('prints NAME ADDRESSTYPE PORTS ENDPOINTS AGE', () => {
    const many = slice('many', {
      endpoints: [
        { addresses: ['10.0.0.1', '10.0.0.2'] },
        { addresses: ['10.0.0.3', '10.0.0.4', '10.0.0.5'] },
      ],
      ports: [],
    });
    const table = store.convertToTable(ctx, { ...many, metadata: { name: 'many' } }, {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'AddressType', 'Ports', 'Endpoints', 'Age'],
    );
    assert.deepEqual(table.rows[0]?.cells.slice(0, 4), [
      'many',
      'IPv4',
      '<unset>',
      '10.0.0.1,10.0.0.2,10.0.0.3 + 2 more...',
    ]);
  });

  it('checks addresses against the address type and keeps the type immutable', async () => {
    await rejectsWithStatus(
      store.create(
        ctx,
        slice('bad', { endpoints: [{ addresses: ['fe80::1', '127.0.0.1'] }, { addresses: [] }] }),
        { options: {} },
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'EndpointSlice.discovery.k8s.io "bad" is invalid: [endpoints[0].addresses: Invalid value: "fe80::1": must be an IPv4 address, endpoints[0].addresses[0]: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10), endpoints[0].addresses[1]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128), endpoints[1].addresses: Required value: must contain at least 1 address]',
      },
    );
    // An endpoint without its (required) addresses is refused as Required, not a 500.
    await rejectsWithStatus(
      store.create(ctx, slice('none', { endpoints: [{} as { addresses: string[] }] }), { options: {} }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'EndpointSlice.discovery.k8s.io "none" is invalid: endpoints[0].addresses: Required value: must contain at least 1 address',
      },
    );
    await rejectsWithStatus(store.create(ctx, slice('type', { addressType: 'IPX' }), { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'EndpointSlice.discovery.k8s.io "type" is invalid: addressType: Unsupported value: "IPX": supported values: "FQDN", "IPv4", "IPv6"',
    });
    const current = await store.get(ctx, 'web-abc', {});
    await rejectsWithStatus(
      store.update(
        ctx,
        'web-abc',
        put({ ...current, addressType: 'FQDN', endpoints: [{ addresses: ['a.example.com'] }] }),
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'EndpointSlice.discovery.k8s.io "web-abc" is invalid: addressType: Invalid value: "FQDN": field is immutable',
      },
    );
  });

  /** A slice as stored: namespaced, ports defaulted. */
  const stored = (more: Partial<EndpointSlice>): EndpointSlice => {
    const s = slice('s', { ports: [{ name: 'http', port: 80, protocol: 'TCP' }], ...more });
    s.metadata = { ...s.metadata, namespace: 'default', resourceVersion: '1' };
    return s;
  };

  it('reads IPv4 addresses as legacy fields and IPv6 ones strictly, as kube 1.33 does', () => {
    const errs = (addressType: string, address: string): string[] =>
      validateEndpointSlice(stored({ addressType, endpoints: [{ addresses: [address] }] })).map((e) =>
        e.error(),
      );
    assert.deepEqual(errs('IPv4', '010.0.0.1'), []);
    assert.deepEqual(errs('IPv4', '::ffff:10.0.0.1'), []);
    assert.deepEqual(errs('IPv6', 'fd00::1'), []);
    assert.deepEqual(errs('IPv4', '10.0.0.1%eth0'), [
      'endpoints[0].addresses[0]: Invalid value: "10.0.0.1%eth0": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
    assert.deepEqual(errs('IPv6', 'fd00::1%eth0'), [
      'endpoints[0].addresses[0]: Invalid value: "fd00::1%eth0": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
    assert.deepEqual(errs('IPv6', 'FD00::1'), [
      'endpoints[0].addresses[0]: Invalid value: "FD00::1": must be in canonical form ("fd00::1")',
    ]);
    assert.deepEqual(errs('IPv6', '::ffff:10.0.0.1'), [
      'endpoints[0].addresses[0]: Invalid value: "::ffff:10.0.0.1": must not be an IPv4-mapped IPv6 address',
    ]);
  });

  it('lets an update keep endpoints that no longer validate', () => {
    const old = stored({ endpoints: [{ addresses: ['127.0.0.1'] }] });
    assert.deepEqual(validateEndpointSliceUpdate(structuredClone(old), old), []);
    assert.equal(
      validateEndpointSliceUpdate({ ...structuredClone(old), endpoints: [{ addresses: ['127.0.0.2'] }] }, old)
        .length,
      1,
    );
  });

  it('warns of non-standard IPs (not in slices kube controllers wrote) and of FQDN slices', () => {
    const odd = slice('s', { endpoints: [{ addresses: ['10.0.0.1', '010.0.0.2'] }] });
    const bad =
      'endpoints[0].addresses[1]: non-standard IP address "010.0.0.2" will be considered invalid in a future Kubernetes release: use "10.0.0.2"';
    assert.deepEqual(endpointSliceStrategy.warningsOnCreate(ctx, odd), [bad]);
    assert.deepEqual(endpointSliceStrategy.warningsOnUpdate(ctx, odd), [bad]);
    odd.metadata = {
      name: 's',
      labels: { 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' },
    };
    assert.deepEqual(endpointSliceStrategy.warningsOnCreate(ctx, odd), []);
    const fqdn = slice('f', { addressType: 'FQDN', endpoints: [{ addresses: ['a.example.com'] }] });
    assert.deepEqual(endpointSliceStrategy.warningsOnCreate(ctx, fqdn), [
      'spec.addressType: FQDN endpoints are deprecated',
    ]);
  });
});
