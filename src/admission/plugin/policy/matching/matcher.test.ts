// Rule and selector matching of matchConstraints and matchResources, as kube's matching tests.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  MatchResources,
  NamedRuleWithOperations,
} from '../../../../api/admissionregistration/v1/policy.js';
import type { KubeObject } from '../../../../api/meta.js';
import type { Attributes } from '../../../attributes.js';
import { MatchConfigError, matchesResources, type MatchEnvironment } from './matcher.js';
import { ruleMatches } from './rules.js';

const attrs = (over: Partial<Attributes> = {}): Attributes => ({
  operation: 'CREATE',
  kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
  resource: { group: 'apps', version: 'v1', resource: 'deployments' },
  subresource: '',
  namespace: 'ns',
  name: 'web',
  object: { metadata: { name: 'web', labels: { app: 'web' } } },
  oldObject: null,
  userInfo: { name: 'u', groups: [] },
  dryRun: false,
  ...over,
});

const rule = (over: Partial<NamedRuleWithOperations> = {}): NamedRuleWithOperations => ({
  apiGroups: ['apps'],
  apiVersions: ['v1'],
  operations: ['CREATE'],
  resources: ['deployments'],
  ...over,
});

const env: MatchEnvironment = {
  namespaceLabels: (name) => Promise.resolve(name === 'ns' ? { env: 'prod' } : undefined),
  equivalentResources: (gvr) =>
    gvr.group === 'apps' && gvr.version === 'v1' ? [{ ...gvr, version: 'v1beta1' }] : [],
};

describe('policy rule matching', () => {
  it('matches operations, groups, versions and resources, "*" included', () => {
    assert.equal(ruleMatches(rule(), attrs()), true);
    assert.equal(ruleMatches(rule({ operations: ['UPDATE'] }), attrs()), false);
    assert.equal(
      ruleMatches(rule({ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'] }), attrs()),
      true,
    );
    assert.equal(ruleMatches(rule({ apiGroups: [''] }), attrs()), false);
  });

  it('takes subresources only through "res/sub", "res/*" or "*/sub"; a bare "*" is main resources', () => {
    const scale = attrs({ subresource: 'scale', operation: 'UPDATE' });
    const on = (resources: string[]): boolean => ruleMatches(rule({ operations: ['*'], resources }), scale);
    assert.equal(on(['deployments']), false);
    assert.equal(on(['*']), false);
    assert.equal(on(['deployments/scale']), true);
    assert.equal(on(['deployments/*']), true);
    assert.equal(on(['*/scale']), true);
    assert.equal(on(['*/*']), true);
    assert.equal(on(['deployments/status']), false);
  });

  it('checks scope, namespaces counting as cluster-scoped, and resourceNames', () => {
    assert.equal(ruleMatches(rule({ scope: 'Namespaced' }), attrs()), true);
    assert.equal(ruleMatches(rule({ scope: 'Cluster' }), attrs()), false);
    const ns = attrs({
      resource: { group: '', version: 'v1', resource: 'namespaces' },
      namespace: 'ns',
      name: 'ns',
    });
    const nsRule = rule({ apiGroups: [''], resources: ['namespaces'] });
    assert.equal(ruleMatches({ ...nsRule, scope: 'Cluster' }, ns), true);
    assert.equal(ruleMatches({ ...nsRule, scope: 'Namespaced' }, ns), false);
    assert.equal(ruleMatches(rule({ resourceNames: ['web'] }), attrs({ name: '' })), true);
    assert.equal(ruleMatches(rule({ resourceNames: ['db'] }), attrs()), false);
  });
});

describe('policy matchResources', () => {
  const m = (over: Partial<MatchResources>): MatchResources => ({ resourceRules: [rule()], ...over });

  it('uses equivalent versions unless matchPolicy is Exact', async () => {
    const beta = [rule({ apiVersions: ['v1beta1'] })];
    assert.equal(await matchesResources(m({ resourceRules: beta }), attrs(), env), true);
    assert.equal(
      await matchesResources(m({ resourceRules: beta, matchPolicy: 'Exact' }), attrs(), env),
      false,
    );
  });

  it('excludes what excludeResourceRules name, and empty rules match everything', async () => {
    assert.equal(await matchesResources(m({ excludeResourceRules: [rule()] }), attrs(), env), false);
    assert.equal(await matchesResources({ resourceRules: [] }, attrs({ operation: 'DELETE' }), env), true);
  });

  it('selects by the namespace’s labels, cluster-scoped objects always passing', async () => {
    const sel = m({ namespaceSelector: { matchLabels: { env: 'prod' } } });
    assert.equal(await matchesResources(sel, attrs(), env), true);
    assert.equal(await matchesResources(sel, attrs({ namespace: 'other' }), env), false);
    const clusterRule = {
      resourceRules: [rule({ resources: ['*'] })],
      namespaceSelector: { matchLabels: { env: 'x' } },
    };
    assert.equal(await matchesResources(clusterRule, attrs({ namespace: '' }), env), true);
  });

  it('selects by the new or old object’s labels, and refuses a bad selector as a configuration error', async () => {
    const sel = m({ objectSelector: { matchLabels: { app: 'db' } } });
    assert.equal(await matchesResources(sel, attrs(), env), false);
    const old = { metadata: { labels: { app: 'db' } } } as KubeObject;
    assert.equal(await matchesResources(sel, attrs({ operation: 'CREATE', oldObject: old }), env), true);
    const bad = m({ objectSelector: { matchExpressions: [{ key: 'a', operator: 'Bogus' }] } });
    await assert.rejects(matchesResources(bad, attrs(), env), MatchConfigError);
  });
});
