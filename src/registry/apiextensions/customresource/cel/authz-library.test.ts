// The authz library over an authorizer that answers promises: resource and path checks as the
// requester or a service account, authorizer.requestResource, decisions' allowed/reason/errored/
// error, and a replay asking each distinct check once.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { AuthorizationAttributes, Authorizer } from '../../../rest/authorizer.js';
import { loadCel, type CelLibrary } from './load.js';

describe('CEL authz library', () => {
  let lib: CelLibrary;
  const asked: AuthorizationAttributes[] = [];
  const authorizer: Authorizer = {
    authorize: (a) => {
      asked.push(a);
      if (a.resource === 'boom') return Promise.reject(new Error('authorizer down'));
      if (!a.resourceRequest)
        return Promise.resolve({ decision: a.path === '/healthz' ? 'Allow' : 'NoOpinion', reason: '' });
      const alice = a.user.name === 'alice' && a.verb === 'get' && a.namespace === 'team';
      const robot = a.user.name === 'system:serviceaccount:ci:deployer' && a.apiGroup === 'apps';
      return Promise.resolve(
        alice || robot
          ? { decision: 'Allow', reason: `allowed ${a.user.name}` }
          : { decision: 'NoOpinion', reason: '' },
      );
    },
    rulesFor: () => Promise.reject(new Error('not used')),
  };

  before(async () => {
    lib = await loadCel();
  });

  function evaluate(expression: string): Promise<unknown> {
    const program = lib.cel.plan(lib.env, lib.cel.parse(expression));
    return lib.authz.withSession(
      {
        authorizer,
        user: { name: 'alice', groups: ['devs'] },
        requestResource: {
          group: 'apps',
          resource: 'deployments',
          subresource: 'scale',
          namespace: 'team',
          name: 'web',
        },
      },
      (session) => session.evaluate(() => program({ authorizer: session.variable })),
    );
  }

  it('checks a resource as the requester', async () => {
    assert.equal(
      await evaluate("authorizer.group('').resource('pods').namespace('team').check('get').allowed()"),
      true,
    );
    assert.equal(
      await evaluate("authorizer.group('').resource('pods').namespace('team').check('delete').allowed()"),
      false,
    );
    assert.equal(
      await evaluate(
        "authorizer.group('').resource('pods').namespace('team').name('x').check('get').reason()",
      ),
      'allowed alice',
    );
    const last = asked.at(-1);
    assert.deepEqual(last, {
      user: { name: 'alice', groups: ['devs'] },
      verb: 'get',
      resourceRequest: true,
      apiGroup: '',
      apiVersion: '*',
      resource: 'pods',
      subresource: '',
      namespace: 'team',
      name: 'x',
    });
  });

  it('takes field and label selectors on a resource check, as kube 1.32+ does, and checks the same', async () => {
    const withSelectors =
      "authorizer.group('').resource('pods').namespace('team').fieldSelector('spec.nodeName=n1').labelSelector('app=web').check('get')";
    assert.equal(await evaluate(`${withSelectors}.allowed()`), true);
    assert.equal(await evaluate(`${withSelectors.replace("'get'", "'delete'")}.allowed()`), false);
    // kube's selectorCostEstimate: 10, a tenth of the selector, 50 for each two of its characters.
    const check = lib.plan(
      lib.parse("authorizer.group('').resource('pods').fieldSelector('spec.nodeName=n1')"),
    );
    const cost = await lib.authz.withSession({ authorizer, user: { name: 'alice', groups: [] } }, (session) =>
      Promise.resolve(check({ authorizer: session.variable }).cost),
    );
    assert.equal(cost, 1 + 1 + 1 + (10 + 2 + 8 * 50));
  });

  it('checks as a service account, a path, and the request resource', async () => {
    assert.equal(
      await evaluate(
        "authorizer.serviceAccount('ci', 'deployer').group('apps').resource('deployments').check('create').allowed()",
      ),
      true,
    );
    assert.deepEqual(asked.at(-1)?.user, {
      name: 'system:serviceaccount:ci:deployer',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:ci'],
    });
    assert.equal(await evaluate("authorizer.path('/healthz').check('get').allowed()"), true);
    assert.equal(await evaluate("authorizer.path('/metrics').check('get').allowed()"), false);
    assert.equal(await evaluate("authorizer.requestResource.check('get').allowed()"), true);
    assert.deepEqual(
      { ...asked.at(-1), user: undefined },
      {
        user: undefined,
        verb: 'get',
        resourceRequest: true,
        apiGroup: 'apps',
        apiVersion: '*',
        resource: 'deployments',
        subresource: 'scale',
        namespace: 'team',
        name: 'web',
      },
    );
  });

  it('reports an authorizer failure as an errored decision', async () => {
    assert.equal(await evaluate("authorizer.group('').resource('boom').check('get').errored()"), true);
    assert.equal(
      await evaluate("authorizer.group('').resource('boom').check('get').error()"),
      'authorizer down',
    );
    assert.equal(await evaluate("authorizer.group('').resource('pods').check('get').errored()"), false);
  });

  it('asks each distinct check once however often the expressions replay', async () => {
    const before = asked.length;
    const expression =
      "[1, 2, 3].all(i, authorizer.group('').resource('pods').namespace('team').check('get').allowed()) && " +
      "!authorizer.group('').resource('secrets').namespace('team').check('list').allowed()";
    assert.equal(await evaluate(expression), true);
    assert.equal(asked.length - before, 2);
  });
});
