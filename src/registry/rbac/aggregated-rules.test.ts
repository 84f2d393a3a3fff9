import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClusterRole, PolicyRule } from '../../api/rbac/v1/rbac.js';
import { aggregatedRules, sameRules } from './aggregated-rules.js';

const role = (
  name: string,
  spec: Partial<ClusterRole> & { labels?: Record<string, string> },
): ClusterRole => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name, ...(spec.labels === undefined ? {} : { labels: spec.labels }) },
  ...(spec.rules === undefined ? {} : { rules: spec.rules }),
  ...(spec.aggregationRule === undefined ? {} : { aggregationRule: spec.aggregationRule }),
});
const pods: PolicyRule = { verbs: ['get'], apiGroups: [''], resources: ['pods'] };
const secrets: PolicyRule = { verbs: ['get'], apiGroups: [''], resources: ['secrets'] };
const nodes: PolicyRule = { verbs: ['list'], apiGroups: [''], resources: ['nodes'] };

describe('aggregatedRules (syncClusterRole)', () => {
  const byLabel = (key: string) => ({ clusterRoleSelectors: [{ matchLabels: { [key]: 'true' } }] });

  it('takes the matched roles by name, each rule once, leaving the role itself out', () => {
    const agg = role('agg', { aggregationRule: byLabel('a'), labels: { a: 'true' }, rules: [nodes] });
    const all = [
      agg,
      role('zeta', { labels: { a: 'true' }, rules: [secrets, pods] }),
      role('alpha', { labels: { a: 'true' }, rules: [pods] }),
      role('other', { rules: [nodes] }),
    ];
    assert.deepEqual(aggregatedRules(agg, all), [pods, secrets]);
    assert.equal(aggregatedRules(role('plain', { rules: [pods] }), all), undefined);
  });

  it('walks the selectors in order, and a rule equal but for empty lists is the same rule', () => {
    const agg = role('agg', {
      aggregationRule: {
        clusterRoleSelectors: [{ matchLabels: { b: 'true' } }, { matchLabels: { a: 'true' } }],
      },
    });
    const all = [
      agg,
      role('a1', { labels: { a: 'true' }, rules: [pods] }),
      role('b1', { labels: { b: 'true' }, rules: [nodes, { ...pods, resourceNames: [] }] }),
    ];
    assert.deepEqual(aggregatedRules(agg, all), [nodes, { ...pods, resourceNames: [] }]);
    assert.ok(sameRules([nodes, pods], [nodes, { ...pods, resourceNames: [] }]));
    assert.ok(!sameRules([pods, nodes], [nodes, pods]));
    assert.ok(sameRules(undefined, []));
  });

  it('fails on a selector that does not parse, as kube retries it', () => {
    const agg = role('agg', {
      aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Near' }] }] },
    });
    assert.throws(() => aggregatedRules(agg, [agg]), /"Near" is not a valid label selector operator/);
  });
});
