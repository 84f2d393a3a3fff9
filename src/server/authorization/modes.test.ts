import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  alwaysAllowAuthorizer,
  type AuthorizationAttributes,
  type Authorizer,
} from '../../registry/rest/authorizer.js';
import {
  authorizerForChain,
  authorizerForModes,
  unionAuthorizer,
  validateAuthorizationModes,
} from './modes.js';

const attrs = (groups: string[]): AuthorizationAttributes => ({
  user: { name: 'u', groups },
  verb: 'get',
  resourceRequest: false,
  path: '/x',
});

const fixed = (decision: 'Allow' | 'Deny' | 'NoOpinion', reason = ''): Authorizer => ({
  authorize: () => Promise.resolve({ decision, reason }),
  rulesFor: () =>
    Promise.resolve({
      resourceRules: [{ verbs: [decision], apiGroups: [''], resources: ['r'] }],
      nonResourceRules: [],
      incomplete: decision === 'Deny',
    }),
});

describe('--authorization-mode', () => {
  it('validates with kube messages', () => {
    assert.deepEqual(validateAuthorizationModes(['RBAC']), []);
    assert.deepEqual(validateAuthorizationModes(['AlwaysAllow', 'AlwaysDeny', 'RBAC']), []);
    assert.deepEqual(validateAuthorizationModes([]), ['at least one authorization-mode must be passed']);
    assert.deepEqual(validateAuthorizationModes(['rbac']), ['authorization-mode "rbac" is not a valid mode']);
    assert.deepEqual(validateAuthorizationModes(['RBAC', 'RBAC']), [
      'authorization-mode ["RBAC" "RBAC"] has mode specified more than once',
    ]);
    assert.deepEqual(validateAuthorizationModes(['Node', 'RBAC']), []);
    assert.deepEqual(validateAuthorizationModes(['ABAC']), [
      'authorization-mode "ABAC" is not supported by Capstan (supported: AlwaysAllow,AlwaysDeny,Webhook,RBAC,Node)',
    ]);
  });

  it('puts each webhook where its Webhook mode stands', async () => {
    const rbac = fixed('NoOpinion', 'rbac');
    const chain = authorizerForChain(['Webhook', 'RBAC', 'Webhook'], {
      rbac: () => rbac,
      webhooks: [fixed('NoOpinion', 'first'), fixed('Deny', 'second')],
    });
    assert.deepEqual(await chain.authorize(attrs([])), { decision: 'Deny', reason: 'second' });
    assert.throws(
      () => authorizerForChain(['Webhook'], { rbac: () => rbac }),
      /"Webhook" is not a valid mode/,
    );
  });

  it('puts the Node authorizer where --authorization-mode lists it', async () => {
    const node = fixed('NoOpinion', 'node says no');
    const rbac = fixed('Allow');
    const chain = authorizerForModes(
      ['Node', 'RBAC'],
      () => rbac,
      () => node,
    );
    assert.equal((await chain.authorize(attrs([]))).decision, 'Allow');
    const nodeOnly = authorizerForModes(
      ['Node'],
      () => rbac,
      () => node,
    );
    assert.deepEqual(await nodeOnly.authorize(attrs([])), { decision: 'NoOpinion', reason: 'node says no' });
    assert.throws(() => authorizerForModes(['Node'], () => rbac), /"Node" is not a valid mode/);
  });

  it('chains system:masters then the modes; the first Allow or Deny decides', async () => {
    const rbac = fixed('NoOpinion', 'rbac says no');
    const deny = authorizerForModes(['AlwaysDeny'], () => rbac);
    assert.deepEqual(await deny.authorize(attrs(['dev'])), {
      decision: 'NoOpinion',
      reason: 'Everything is forbidden.',
    });
    assert.equal((await deny.authorize(attrs(['system:masters']))).decision, 'Allow');
    const both = authorizerForModes(['RBAC', 'AlwaysDeny'], () => rbac);
    assert.deepEqual(await both.authorize(attrs([])), {
      decision: 'NoOpinion',
      reason: 'rbac says no\nEverything is forbidden.',
    });
    const allowAfter = authorizerForModes(['RBAC', 'AlwaysAllow'], () => rbac);
    assert.equal((await allowAfter.authorize(attrs([]))).decision, 'Allow');
    assert.equal(
      authorizerForModes(['AlwaysAllow'], () => rbac),
      alwaysAllowAuthorizer,
    );
    const union = unionAuthorizer([fixed('NoOpinion'), fixed('Deny', 'no'), fixed('Allow')]);
    assert.deepEqual(await union.authorize(attrs([])), { decision: 'Deny', reason: 'no' });
  });

  it('reports errors only when no authorizer decides', async () => {
    const failing: Authorizer = {
      authorize: () => Promise.reject(new Error('down')),
      rulesFor: () => Promise.reject(new Error('down')),
    };
    assert.equal((await unionAuthorizer([failing, fixed('Allow')]).authorize(attrs([]))).decision, 'Allow');
    await assert.rejects(unionAuthorizer([failing, fixed('NoOpinion')]).authorize(attrs([])), {
      message: 'down',
    });
    const other: Authorizer = { ...failing, authorize: () => Promise.reject(new Error('also down')) };
    await assert.rejects(unionAuthorizer([failing, other]).authorize(attrs([])), {
      message: '[down, also down]',
    });
  });

  it('unions the rules of every authorizer', async () => {
    const rules = await unionAuthorizer([fixed('NoOpinion'), fixed('Deny')]).rulesFor(
      { name: 'u', groups: [] },
      'ns',
    );
    assert.deepEqual(rules, {
      resourceRules: [
        { verbs: ['NoOpinion'], apiGroups: [''], resources: ['r'] },
        { verbs: ['Deny'], apiGroups: [''], resources: ['r'] },
      ],
      nonResourceRules: [],
      incomplete: true,
    });
  });

  it("aggregates the authorizers' rule evaluation errors", async () => {
    const failing = (evaluationError: string): Authorizer => ({
      ...fixed('NoOpinion'),
      rulesFor: () =>
        Promise.resolve({ resourceRules: [], nonResourceRules: [], incomplete: false, evaluationError }),
    });
    const u = { name: 'u', groups: [] };
    assert.equal((await unionAuthorizer([fixed('NoOpinion')]).rulesFor(u, 'ns')).evaluationError, undefined);
    assert.equal(
      (await unionAuthorizer([failing('a'), fixed('Allow')]).rulesFor(u, 'ns')).evaluationError,
      'a',
    );
    assert.equal(
      (await unionAuthorizer([failing('a'), failing('b'), failing('a')]).rulesFor(u, 'ns')).evaluationError,
      '[a, b]',
    );
  });
});
