import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NetworkPolicy } from '../../../api/networking/v1/network-policy.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { newNetworkPolicyREST } from './storage.js';
import { networkPolicyStrategy } from './strategy.js';
import {
  validateNetworkPolicy,
  validateNetworkPolicySpec,
  validateNetworkPolicyUpdate,
} from './validation.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { FieldPath } from '../../../machinery/validation/index.js';

const np = (name: string, spec: NonNullable<NetworkPolicy['spec']>): NetworkPolicy => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name },
  spec,
});

const put = (obj: NetworkPolicy): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});
const causes = (status: { details?: { causes?: { field?: string; message?: string }[] } }): string[] =>
  status.details?.causes?.map((c) => `${c.field ?? ''}: ${c.message ?? ''}`) ?? [];

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

  it('checks ipBlocks as kube 1.33 does: legacy CIDRs, each except a strict subset', () => {
    const errs = (cidr: string, except: string[]) =>
      validateNetworkPolicySpec(
        { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr, except } }] }] },
        FieldPath.of('spec'),
      ).map((e) => e.error());
    assert.deepEqual(errs('010.0.0.0/8', ['10.1.0.0/16']), []);
    assert.deepEqual(errs('10.0.0.0/8', ['10.0.0.0/8', '11.0.0.0/16', 'fd00::%lo/64']), [
      'spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "10.0.0.0/8": must be a strict subset of `cidr`',
      'spec.ingress[0].from[0].ipBlock.except[1]: Invalid value: "11.0.0.0/16": must be a strict subset of `cidr`',
      'spec.ingress[0].from[0].ipBlock.except[2]: Invalid value: "fd00::%lo/64": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ]);
    assert.deepEqual(errs('nope', ['also-nope']), [
      'spec.ingress[0].from[0].ipBlock.cidr: Invalid value: "nope": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ]);
  });

  it('warns of ipBlock CIDRs in non-standard forms', () => {
    const policy = np('w', {
      podSelector: {},
      egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/08', except: ['10.1.0.1/16'] } }] }],
    });
    const want = [
      'spec.egress[0].to[0].ipBlock.cidr: non-standard CIDR value "10.0.0.0/08" will be considered invalid in a future Kubernetes release: use "10.0.0.0/8"',
      'spec.egress[0].to[0].ipBlock.except[0]: CIDR value "10.1.0.1/16" is ambiguous in this context (should be "10.1.0.0/16" or "10.1.0.1/32"?)',
    ];
    assert.deepEqual(networkPolicyStrategy.warningsOnCreate(ctx, policy), want);
    assert.deepEqual(networkPolicyStrategy.warningsOnUpdate(ctx, policy), want);
  });

  it('prints more than two policyTypes as kube does, with the internal slice in Go syntax', () => {
    const errs = validateNetworkPolicySpec(
      { podSelector: {}, policyTypes: ['Ingress', 'Egress', 'Ingress'] },
      FieldPath.of('spec'),
    ).map((e) => e.error());
    assert.deepEqual(errs, [
      'spec.policyTypes: Invalid value: []networking.PolicyType{"Ingress", "Egress", "Ingress"}: may not specify more than two policyTypes',
    ]);
  });

  it('reports a spec error twice on update, as kube validates the object then the update', async () => {
    await store.create(ctx, np('twice', {}), { options: {} });
    const current = await store.get(ctx, 'twice', {});
    const bad = { ...current, spec: { ...current.spec, ingress: [{ ports: [{ port: 0 }] }] } };
    const status = await rejectsWithStatus(store.update(ctx, 'twice', put(bad)), {
      code: 422,
      reason: 'Invalid',
      message:
        'NetworkPolicy.networking.k8s.io "twice" is invalid: spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
    });
    const once = 'spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive';
    assert.deepEqual(causes(status), [once, once]);
  });

  it('lets an update keep invalid selector values when the stored podSelector already had one', () => {
    const badValue = { matchExpressions: [{ key: 'app', operator: 'In', values: ['-bad-'] }] };
    const withMeta = (spec: NonNullable<NetworkPolicy['spec']>): NetworkPolicy => ({
      ...np('legacy', spec),
      metadata: { name: 'legacy', namespace: 'default', resourceVersion: '1' },
    });
    const old = withMeta({ podSelector: badValue, policyTypes: ['Ingress'] });
    const next = withMeta({
      podSelector: badValue,
      ingress: [{ from: [{ namespaceSelector: badValue }] }],
      policyTypes: ['Ingress'],
    });
    const detail =
      "Invalid value: \"-bad-\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
    assert.deepEqual(
      networkPolicyStrategy.validate(ctx, next).map((e) => e.error()),
      [
        `spec.podSelector.matchExpressions[0].values[0]: ${detail}`,
        `spec.ingress[0].from[0].namespaceSelector.matchExpressions[0].values[0]: ${detail}`,
      ],
    );
    assert.deepEqual(networkPolicyStrategy.validateUpdate(ctx, next, old), []);
  });

  it("takes the stored policy's CIDRs unchecked in the update's second pass only", () => {
    const withCIDR = (cidr: string): NetworkPolicy => ({
      ...np('old-cidr', { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr } }] }] }),
      metadata: { name: 'old-cidr', namespace: 'default', resourceVersion: '1' },
    });
    const stored = withCIDR('10.0.0.0/8/8');
    const invalid =
      'spec.ingress[0].from[0].ipBlock.cidr: Invalid value: "10.0.0.0/8/8": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';
    assert.deepEqual(validateNetworkPolicyUpdate(stored, stored, {}), []);
    assert.deepEqual(
      validateNetworkPolicyUpdate(withCIDR('nope'), stored, {}).map((e) => e.error()),
      [
        'spec.ingress[0].from[0].ipBlock.cidr: Invalid value: "nope": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      ],
    );
    assert.deepEqual(
      validateNetworkPolicy(stored).map((e) => e.error()),
      [invalid],
    );
  });
});
