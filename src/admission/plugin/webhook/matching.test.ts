// Which webhooks a request reaches: rules (operations, groups, versions, resources and
// subresources, scope), the exempt configuration kinds, namespace and object selectors, and
// matchConditions with kube's error semantics.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RuleWithOperations, ValidatingWebhook } from '../../../api/admissionregistration/v1/webhook.js';
import type { KubeObject } from '../../../api/meta.js';
import { newNotFound } from '../../../machinery/errors/index.js';
import { internalContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { webhookAccessor } from './accessor.js';
import { isExemptAdmissionConfigurationResource, ruleMatches } from './rules.js';
import { shouldCallHook } from './should-call.js';

const ctx = internalContext();

function attrs(over: Partial<Attributes> = {}): Attributes {
  return {
    operation: 'CREATE',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    subresource: '',
    namespace: 'team-a',
    name: 'web',
    object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', labels: { app: 'web' } } },
    oldObject: null,
    userInfo: { name: 'alice', groups: ['devs'] },
    dryRun: false,
    ...over,
  };
}

const hook = (over: Partial<ValidatingWebhook> = {}) =>
  webhookAccessor('config', 0, {
    name: 'check.example.com',
    clientConfig: { url: 'https://127.0.0.1/x' },
    rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...over,
  });

const rule = (r: Partial<RuleWithOperations>) =>
  hook({ rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], ...r }] })
    .rules[0] ?? assert.fail('no rule');

const namespaceLabels = (labels: Record<string, Record<string, string>>) => (_c: unknown, name: string) => {
  const found = labels[name];
  if (found === undefined) return Promise.reject(newNotFound({ group: '', resource: 'namespaces' }, name));
  return Promise.resolve(found);
};

describe('webhook rules', () => {
  it('match operations, CONNECT included, and * for all', () => {
    assert.equal(ruleMatches(rule({ operations: ['CREATE'] }), attrs()), true);
    assert.equal(ruleMatches(rule({ operations: ['UPDATE', 'DELETE'] }), attrs()), false);
    assert.equal(ruleMatches(rule({ operations: ['CONNECT'] }), attrs({ operation: 'CONNECT' })), true);
    assert.equal(ruleMatches(rule({ operations: ['*'] }), attrs({ operation: 'DELETE' })), true);
  });

  it('match groups and versions exactly or by *', () => {
    const deploy = attrs({
      kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    });
    assert.equal(ruleMatches(rule({ apiGroups: ['apps'] }), deploy), true);
    assert.equal(ruleMatches(rule({ apiGroups: [''] }), deploy), false);
    assert.equal(ruleMatches(rule({ apiVersions: ['v1beta1'] }), deploy), false);
    assert.equal(ruleMatches(rule({ apiGroups: ['apps'], apiVersions: ['v1'] }), deploy), true);
  });

  it('match resources and subresources: * only main resources, */* all, pods/status one', () => {
    const status = attrs({ subresource: 'status' });
    assert.equal(ruleMatches(rule({ resources: ['*'] }), attrs()), true);
    assert.equal(ruleMatches(rule({ resources: ['*'] }), status), false);
    assert.equal(ruleMatches(rule({ resources: ['*/*'] }), status), true);
    assert.equal(ruleMatches(rule({ resources: ['pods/status'] }), status), true);
    assert.equal(ruleMatches(rule({ resources: ['pods/status'] }), attrs()), false);
    assert.equal(ruleMatches(rule({ resources: ['pods/*'] }), attrs({ subresource: 'exec' })), true);
    assert.equal(ruleMatches(rule({ resources: ['*/status'] }), status), true);
    assert.equal(ruleMatches(rule({ resources: ['services'] }), attrs()), false);
  });

  it('match scope: a namespace is cluster-scoped though its requests carry its name', () => {
    const ns = attrs({
      kind: { group: '', version: 'v1', kind: 'Namespace' },
      resource: { group: '', version: 'v1', resource: 'namespaces' },
      namespace: 'team-a',
      name: 'team-a',
    });
    const node = attrs({ resource: { group: '', version: 'v1', resource: 'nodes' }, namespace: '' });
    assert.equal(ruleMatches(rule({ scope: 'Namespaced' }), attrs()), true);
    assert.equal(ruleMatches(rule({ scope: 'Namespaced' }), ns), false);
    assert.equal(ruleMatches(rule({ scope: 'Namespaced' }), node), false);
    assert.equal(ruleMatches(rule({ scope: 'Cluster' }), ns), true);
    assert.equal(ruleMatches(rule({ scope: 'Cluster' }), node), true);
    assert.equal(ruleMatches(rule({ scope: 'Cluster' }), attrs()), false);
    assert.equal(ruleMatches(rule({ scope: '*' }), attrs()), true);
  });

  it('exempt the objects that configure admission', () => {
    const config = (kind: string) =>
      attrs({ kind: { group: 'admissionregistration.k8s.io', version: 'v1', kind } });
    assert.equal(isExemptAdmissionConfigurationResource(config('ValidatingWebhookConfiguration')), true);
    assert.equal(isExemptAdmissionConfigurationResource(config('MutatingWebhookConfiguration')), true);
    assert.equal(isExemptAdmissionConfigurationResource(config('ValidatingAdmissionPolicyBinding')), true);
    assert.equal(isExemptAdmissionConfigurationResource(attrs()), false);
  });
});

describe('shouldCallHook', () => {
  const deps = { namespaceLabels: namespaceLabels({ 'team-a': { env: 'prod' }, 'team-b': { env: 'dev' } }) };
  const call = async (h: ReturnType<typeof hook>, a: Attributes = attrs()) =>
    shouldCallHook(ctx, h, { attributes: a, deps });

  it('selects namespaces by their labels; cluster-scoped objects always; a namespace by its own labels', async () => {
    const prod = hook({ namespaceSelector: { matchLabels: { env: 'prod' } } });
    assert.equal((await call(prod)).call, true);
    assert.equal((await call(prod, attrs({ namespace: 'team-b' }))).call, false);
    const node = attrs({
      kind: { group: '', version: 'v1', kind: 'Node' },
      resource: { group: '', version: 'v1', resource: 'nodes' },
      namespace: '',
    });
    assert.equal((await call(prod, node)).call, true);
    const created: KubeObject = { metadata: { name: 'new-ns', labels: { env: 'prod' } } };
    const nsCreate = attrs({
      kind: { group: '', version: 'v1', kind: 'Namespace' },
      resource: { group: '', version: 'v1', resource: 'namespaces' },
      namespace: 'new-ns',
      name: 'new-ns',
      object: created,
    });
    assert.equal((await call(prod, nsCreate)).call, true);
    const missing = await call(prod, attrs({ namespace: 'gone' }));
    assert.ok('error' in missing);
    assert.equal(missing.error.code, 404);
    assert.equal(missing.error.message, 'namespaces "gone" not found');
  });

  it('selects objects by the new or the old object’s labels', async () => {
    const web = hook({ objectSelector: { matchLabels: { app: 'web' } } });
    assert.equal((await call(web)).call, true);
    const other = attrs({ object: { metadata: { labels: { app: 'db' } } } });
    assert.equal((await call(web, other)).call, false);
    const relabelled = attrs({
      operation: 'UPDATE',
      object: { metadata: { labels: { app: 'db' } } },
      oldObject: { metadata: { labels: { app: 'web' } } },
    });
    assert.equal((await call(web, relabelled)).call, true);
    const deleted = attrs({
      operation: 'DELETE',
      object: null,
      oldObject: { metadata: { labels: { app: 'web' } } },
    });
    assert.equal((await call(web, deleted)).call, true);
    const bad = hook({ objectSelector: { matchExpressions: [{ key: 'a', operator: 'Bogus' }] } });
    const failed = await call(bad);
    assert.ok('error' in failed);
    assert.equal(failed.error.code, 500);
  });

  it('evaluates matchConditions over object, oldObject and request', async () => {
    const conditions = (expression: string, failurePolicy = 'Fail') =>
      hook({ failurePolicy, matchConditions: [{ name: 'c', expression }] });
    assert.equal((await call(conditions("object.metadata.name == 'web'"))).call, true);
    assert.equal((await call(conditions("object.metadata.name == 'db'"))).call, false);
    assert.equal((await call(conditions("request.userInfo.username == 'alice'"))).call, true);
    assert.equal((await call(conditions("request.operation == 'UPDATE'"))).call, false);
    assert.equal((await call(conditions('oldObject == null'))).call, true);
  });

  it('skips on any false even beside an error; an error alone fails closed (Fail) or skips (Ignore)', async () => {
    const both = (failurePolicy: string) =>
      hook({
        failurePolicy,
        matchConditions: [
          { name: 'broken', expression: "object.metadata.labels['missing'] == 'x'" },
          { name: 'false', expression: 'false' },
        ],
      });
    assert.deepEqual(await call(both('Fail')), { call: false });
    const broken = (failurePolicy: string) =>
      hook({
        failurePolicy,
        matchConditions: [{ name: 'broken', expression: "object.metadata.labels['missing'] == 'x'" }],
      });
    const failed = await call(broken('Fail'));
    assert.ok('error' in failed);
    assert.equal(failed.error.code, 403);
    assert.equal(
      failed.error.message,
      `pods "web" is forbidden: expression 'object.metadata.labels['missing'] == 'x'' resulted in error: no such key: missing`,
    );
    assert.deepEqual(await call(broken('Ignore')), { call: false });
    const two = hook({
      matchConditions: [
        { name: 'a', expression: "object.metadata.labels['x'] == 'x'" },
        { name: 'b', expression: "object.metadata.labels['y'] == 'y'" },
      ],
    });
    const twoErrors = await call(two);
    assert.ok('error' in twoErrors);
    assert.equal(
      twoErrors.error.message,
      `pods "web" is forbidden: [expression 'object.metadata.labels['x'] == 'x'' resulted in error: no such key: x, expression 'object.metadata.labels['y'] == 'y'' resulted in error: no such key: y]`,
    );
  });

  it('answers the request’s own kind and resource as the invocation', async () => {
    const result = await call(hook());
    assert.ok(result.call);
    assert.deepEqual(result.invocation, {
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      subresource: '',
    });
  });
});
