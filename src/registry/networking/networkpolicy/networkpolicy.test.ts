import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NetworkPolicy } from '../../../api/networking/v1/network-policy.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { newNetworkPolicyREST } from './storage.js';

const np = (name: string, spec: NonNullable<NetworkPolicy['spec']>): NetworkPolicy => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name },
  spec,
});

describe('networkpolicies', () => {
  let env: MemoryRESTOptions;
  let store: Store<NetworkPolicy>;
  const ctx = testContext('default');
  before(async () => {
    env = await memoryRESTOptions();
    store = await newNetworkPolicyREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('defaults policyTypes from the rules and port protocols to TCP', async () => {
    const ingressOnly = await store.create(ctx, np('deny-all', {}), { options: {} });
    assert.deepEqual(ingressOnly.spec, { podSelector: {}, policyTypes: ['Ingress'] });
    const both = await store.create(
      ctx,
      np('dns', { podSelector: { matchLabels: { app: 'web' } }, egress: [{ ports: [{ port: 53 }] }] }),
      { options: {} },
    );
    assert.equal(both.metadata?.generation, 1);
    const spec = both.spec ?? {};
    assert.deepEqual(spec.policyTypes, ['Ingress', 'Egress']);
    assert.deepEqual(spec.egress?.[0]?.ports, [{ port: 53, protocol: 'TCP' }]);
    assert.deepEqual(store.shortNames(), ['netpol']);
  });

  it('prints NAME POD-SELECTOR AGE', async () => {
    const list = await store.list(ctx, {});
    const table = store.convertToTable(ctx, list, {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Pod-Selector', 'Age'],
    );
    assert.deepEqual(
      table.rows.map((r) => r.cells.slice(0, 2)),
      [
        ['deny-all', '<none>'],
        ['dns', 'app=web'],
      ],
    );
  });

  it('rejects empty peers, bad ports and unknown policy types', async () => {
    const status = await rejectsWithStatus(
      store.create(
        ctx,
        np('bad', {
          ingress: [{ from: [{}], ports: [{ protocol: 'ICMP', port: 'http', endPort: 90 }] }],
          policyTypes: ['Sideways'],
        }),
        { options: {} },
      ),
      { code: 422, reason: 'Invalid' },
    );
    assert.deepEqual(
      status.details?.causes?.map((c) => `${c.field ?? ''}: ${c.message ?? ''}`),
      [
        'spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"',
        'spec.ingress[0].ports[0].endPort: Invalid value: 90: may not be specified when `port` is non-numeric',
        'spec.ingress[0].from[0]: Required value: must specify a peer',
        'spec.policyTypes[0]: Unsupported value: "Sideways": supported values: "Ingress", "Egress"',
      ],
    );
  });
});
