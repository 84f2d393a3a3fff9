import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Endpoints } from '../../../api/core/v1/endpoints.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { newEndpointsREST } from './storage.js';
import { endpointsStrategy, validateEndpointsUpdate } from './strategy.js';
import { formatEndpoints } from './table.js';

const ep = (name: string, subsets: NonNullable<Endpoints['subsets']>): Endpoints => ({
  apiVersion: 'v1',
  kind: 'Endpoints',
  metadata: { name },
  subsets,
});

/** An endpoints as stored, to be the old object of an update. */
const stored = (subsets: NonNullable<Endpoints['subsets']>): Endpoints => ({
  ...ep('e', subsets),
  metadata: { name: 'e', namespace: 'default', resourceVersion: '1' },
});

describe('endpoints', () => {
  let env: MemoryRESTOptions;
  let store: Store<Endpoints>;
  const ctx = testContext('default');
  before(async () => {
    env = await memoryRESTOptions();
    store = await newEndpointsREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('creates, lists and prints NAME ENDPOINTS AGE', async () => {
    await store.create(
      ctx,
      ep('web', [
        { addresses: [{ ip: '10.1.0.1' }, { ip: '10.1.0.2' }], ports: [{ port: 80, protocol: 'TCP' }] },
      ]),
      { options: {} },
    );
    assert.deepEqual(store.shortNames(), ['ep']);
    const list = await store.list(ctx, {});
    assert.equal(list.items.length, 1);
    const table = store.convertToTable(ctx, list, {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Endpoints', 'Age'],
    );
    assert.deepEqual(table.rows[0]?.cells.slice(0, 2), ['web', '10.1.0.1:80,10.1.0.2:80']);
  });

  it('shows three endpoints and counts the rest', () => {
    const addresses = ['10.0.0.1', '10.0.0.2', 'fd00::1'].map((ip) => ({ ip }));
    const ports = [
      { name: 'a', port: 80 },
      { name: 'b', port: 443 },
    ];
    assert.equal(
      formatEndpoints(ep('x', [{ addresses, ports }])),
      '10.0.0.1:80,10.0.0.2:80,[fd00::1]:80 + 3 more...',
    );
    assert.equal(formatEndpoints(ep('x', [])), '<none>');
    assert.equal(formatEndpoints(ep('x', [{ addresses }])), '10.0.0.1,10.0.0.2,fd00::1');
  });

  it('validates subsets with kube messages', async () => {
    await rejectsWithStatus(
      store.create(
        ctx,
        ep('bad', [
          { ports: [{ port: 0, protocol: 'TCP' }] },
          {
            addresses: [{ ip: 'nope' }],
            ports: [
              { port: 1, protocol: 'XTP' },
              { name: 'b', port: 2, protocol: 'UDP' },
            ],
          },
        ]),
        { options: {} },
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'Endpoints "bad" is invalid: [subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`, subsets[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive, subsets[1].addresses[0].ip: Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff), subsets[1].ports[0].name: Required value, subsets[1].ports[0].protocol: Unsupported value: "XTP": supported values: "TCP", "UDP", "SCTP"]',
      },
    );
  });

  it('reads IPs as netutils.ParseIPSloppy does: leading zeros pass, zones do not', () => {
    const errs = (ip: string) =>
      validateEndpointsUpdate(stored([{ addresses: [{ ip }] }]), stored([])).map((e) => e.error());
    assert.deepEqual(errs('010.001.002.003'), []);
    assert.deepEqual(errs('fe80::1%eth0'), [
      'subsets[0].addresses[0].ip: Invalid value: "fe80::1%eth0": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
  });

  it('lets an update keep subsets that no longer validate', () => {
    const old = stored([{ addresses: [{ ip: 'fe80::1%eth0' }] }]);
    assert.deepEqual(validateEndpointsUpdate(structuredClone(old), old), []);
    assert.equal(validateEndpointsUpdate(stored([{ addresses: [{ ip: 'fe80::2%eth0' }] }]), old).length, 1);
  });

  it('warns of non-standard IPs unless the endpoints controller wrote them', () => {
    const odd = ep('e', [{ addresses: [{ ip: '010.0.0.1' }], notReadyAddresses: [{ ip: '2001:DB8::1' }] }]);
    const want = [
      'subsets[0].addresses[0].ip: non-standard IP address "010.0.0.1" will be considered invalid in a future Kubernetes release: use "10.0.0.1"',
      'subsets[0].notReadyAddresses[0].ip: IPv6 address "2001:DB8::1" should be in RFC 5952 canonical format ("2001:db8::1")',
    ];
    assert.deepEqual(endpointsStrategy.warningsOnCreate(ctx, odd), want);
    assert.deepEqual(endpointsStrategy.warningsOnUpdate(ctx, odd), want);
    odd.metadata = { name: 'e', labels: { 'endpoints.kubernetes.io/managed-by': 'endpoint-controller' } };
    assert.deepEqual(endpointsStrategy.warningsOnCreate(ctx, odd), []);
  });
});
