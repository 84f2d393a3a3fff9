import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import type { ClusterRole, PolicyRule, Role, RoleBinding } from '../../api/rbac/v1/rbac.js';
import type { Store } from '../generic/store.js';
import { rejectsWithStatus } from '../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../generic/testing/memory-rest-options.js';
import { alwaysAllowAuthorizer, type Authorizer } from '../rest/authorizer.js';
import { internalContext, type RequestContext, type UserInfo } from '../rest/context.js';
import { RBACAuthorizer, RBACIndex } from './authorizer.js';
import { escalationAllowed, RBACEscalationPolicy } from './escalation.js';
import { compactRules, compactString, escalationMessage, uncoveredRules } from './policy-rules.js';
import { newClusterRoleBindingREST, newClusterRoleREST, newRoleBindingREST, newRoleREST } from './storage.js';

const apiVersion = 'rbac.authorization.k8s.io/v1';
const bobUser: UserInfo = { name: 'bob', groups: ['system:authenticated'] };
const held =
  'user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n';

const rule = (verbs: string[], resources: string[], extra: Partial<PolicyRule> = {}): PolicyRule => ({
  verbs,
  apiGroups: [''],
  resources,
  ...extra,
});

describe('escalation: rule coverage and the message', () => {
  it('covers by verb, group and resource, with `*` in any of them', () => {
    const owner = [rule(['get', 'list'], ['pods'])];
    assert.deepEqual(uncoveredRules(owner, [rule(['get'], ['pods'])]), []);
    assert.deepEqual(uncoveredRules(owner, [rule(['get', 'delete'], ['pods', 'secrets'])]), [
      rule(['delete'], ['pods']),
      rule(['get'], ['secrets']),
      rule(['delete'], ['secrets']),
    ]);
    const star = [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }];
    assert.deepEqual(
      uncoveredRules(star, [{ verbs: ['delete'], apiGroups: ['apps'], resources: ['deployments'] }]),
      [],
    );
    // `*` on resources holds no non-resource URL.
    assert.equal(uncoveredRules(star, [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }]).length, 1);
    // Another group is not covered.
    assert.equal(
      uncoveredRules(owner, [{ verbs: ['get'], apiGroups: ['apps'], resources: ['pods'] }]).length,
      1,
    );
  });

  it('covers subresources by name or by `*/sub`', () => {
    assert.deepEqual(uncoveredRules([rule(['get'], ['*/status'])], [rule(['get'], ['pods/status'])]), []);
    assert.equal(uncoveredRules([rule(['get'], ['*/status'])], [rule(['get'], ['pods'])]).length, 1);
    assert.equal(uncoveredRules([rule(['get'], ['pods'])], [rule(['get'], ['pods/log'])]).length, 1);
  });

  it('covers resourceNames: none held covers any, some held cover only those', () => {
    assert.deepEqual(
      uncoveredRules(
        [rule(['get'], ['configmaps'])],
        [rule(['get'], ['configmaps'], { resourceNames: ['a'] })],
      ),
      [],
    );
    const named = [rule(['get'], ['configmaps'], { resourceNames: ['a', 'b'] })];
    assert.deepEqual(uncoveredRules(named, [rule(['get'], ['configmaps'], { resourceNames: ['b'] })]), []);
    assert.deepEqual(uncoveredRules(named, [rule(['get'], ['configmaps'], { resourceNames: ['b', 'c'] })]), [
      rule(['get'], ['configmaps'], { resourceNames: ['c'] }),
    ]);
    // Holding some names does not cover all of them.
    assert.equal(uncoveredRules(named, [rule(['get'], ['configmaps'])]).length, 1);
  });

  it('covers nonResourceURLs exactly or by a prefix ending in `*`', () => {
    const owner = [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/api/*'] }];
    assert.deepEqual(
      uncoveredRules(owner, [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/api/v1'] }]),
      [],
    );
    assert.deepEqual(
      uncoveredRules(owner, [{ verbs: ['get', 'post'], nonResourceURLs: ['/metrics', '/api'] }]),
      [
        { verbs: ['get'], nonResourceURLs: ['/metrics'] },
        { verbs: ['post'], nonResourceURLs: ['/metrics'] },
        { verbs: ['get'], nonResourceURLs: ['/api'] },
        { verbs: ['post'], nonResourceURLs: ['/api'] },
      ],
    );
    assert.deepEqual(uncoveredRules([{ verbs: ['*'], nonResourceURLs: ['*'] }], owner), []);
  });

  it("compacts by resource and prints kube's sorted text", () => {
    const missing = uncoveredRules(
      [],
      [
        rule(['get', 'delete'], ['pods']),
        rule(['watch'], ['configmaps'], { resourceNames: ['x'] }),
        { verbs: ['get'], nonResourceURLs: ['/metrics'] },
      ],
    );
    assert.deepEqual(compactRules(missing).map(compactString), [
      '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
      '{APIGroups:[""], Resources:["pods"], Verbs:["get" "delete"]}',
      '{APIGroups:[""], Resources:["configmaps"], ResourceNames:["x"], Verbs:["watch"]}',
    ]);
    assert.equal(
      escalationMessage(bobUser, { held: [], wanted: [rule(['get', 'delete'], ['pods'])], errors: [] }),
      `${held}{APIGroups:[""], Resources:["pods"], Verbs:["get" "delete"]}`,
    );
    assert.equal(
      escalationMessage(
        { name: 'x', groups: [] },
        {
          held: [rule(['get'], ['pods'])],
          wanted: [rule(['get', 'list'], ['pods', 'secrets'])],
          errors: ['a', 'b', 'a'],
        },
      ),
      'user "x" (groups=[]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["list"]}\n' +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}; resolution errors: [[a, b]]',
    );
    assert.equal(
      escalationMessage(bobUser, {
        held: [rule(['*'], ['pods'])],
        wanted: [rule(['get'], ['pods'])],
        errors: ['e'],
      }),
      undefined,
    );
  });

  it('lets system:masters escalate', () => {
    assert.equal(escalationAllowed(internalContext().user), true);
    assert.equal(escalationAllowed(bobUser), false);
  });
});

/** A real RBAC decision over what the stores hold now. */
function storeBackedRBAC(policy: () => RBACEscalationPolicy): Authorizer {
  return {
    authorize: async (attrs) =>
      new RBACAuthorizer(await policy().resolver.snapshot(attrs.namespace ?? '')).authorize(attrs),
    rulesFor: async (user, namespace) =>
      new RBACAuthorizer(await policy().resolver.snapshot(namespace)).rulesFor(user, namespace),
  };
}

function userContext(namespace: string, user: UserInfo = bobUser): RequestContext {
  return { signal: new AbortController().signal, namespace, user, addWarning: () => undefined };
}

const role = (name: string, rules: PolicyRule[]): Role => ({
  apiVersion,
  kind: 'Role',
  metadata: { name },
  rules,
});
const binding = (name: string, ref: { kind: string; name: string }, user = 'bob'): RoleBinding => ({
  apiVersion,
  kind: 'RoleBinding',
  metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...ref },
  subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: user }],
});

describe('escalation: the RBAC stores', () => {
  let env: MemoryRESTOptions;
  let policy: RBACEscalationPolicy;
  let roles: Store<Role>;
  let clusterRoles: Store<ClusterRole>;
  let bindings: Store<RoleBinding>;
  let clusterBindings: Store<RoleBinding>;
  const admin = internalContext({ namespace: 'team' });
  const bob = userContext('team');

  before(async () => {
    env = await memoryRESTOptions();
    policy = new RBACEscalationPolicy(storeBackedRBAC(() => policy));
    const opts = { restOptionsGetter: env.getter, escalation: policy };
    roles = await newRoleREST(opts);
    clusterRoles = await newClusterRoleREST(opts);
    bindings = await newRoleBindingREST(opts);
    clusterBindings = await newClusterRoleBindingREST(opts);
    // The server's own writes (system:masters) are never checked.
    await clusterRoles.create(
      internalContext(),
      {
        apiVersion,
        kind: 'ClusterRole',
        metadata: { name: 'cluster-admin' },
        rules: [
          { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
          { verbs: ['*'], nonResourceURLs: ['*'] },
        ],
      },
      { options: {} },
    );
    await roles.create(
      admin,
      role('manager', [
        {
          verbs: ['create', 'update', 'get'],
          apiGroups: ['rbac.authorization.k8s.io'],
          resources: ['roles', 'rolebindings'],
        },
        rule(['get', 'list'], ['pods']),
      ]),
      { options: {} },
    );
    await bindings.create(admin, binding('bob-manager', { kind: 'Role', name: 'manager' }), { options: {} });
  });
  after(() => env.close());

  it('lets bob grant what he holds and refuses the rest', async () => {
    await roles.create(bob, role('pod-getter', [rule(['get'], ['pods'], { resourceNames: ['web'] })]), {
      options: {},
    });
    await rejectsWithStatus(
      roles.create(bob, role('pod-deleter', [rule(['get', 'delete'], ['pods'])]), { options: {} }),
      {
        code: 403,
        reason: 'Forbidden',
        message: `roles.rbac.authorization.k8s.io "pod-deleter" is forbidden: ${held}{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}`,
      },
    );
    // A ClusterRole is checked against what bob holds cluster-wide: nothing.
    await rejectsWithStatus(
      clusterRoles.create(
        userContext(''),
        { apiVersion, kind: 'ClusterRole', metadata: { name: 'c' }, rules: [rule(['get'], ['pods'])] },
        { options: {} },
      ),
      {
        code: 403,
        reason: 'Forbidden',
        message: `clusterroles.rbac.authorization.k8s.io "c" is forbidden: ${held}{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`,
      },
    );
  });

  it('checks the object an update computes, but not a change of finalizers alone', async () => {
    await roles.create(admin, role('wide', [rule(['delete'], ['pods'])]), { options: {} });
    const update = (change: (old: Role) => Role) =>
      roles.update(bob, 'wide', {
        objInfo: {
          preconditions: () => undefined,
          updatedObject: (_ctx, old) => Promise.resolve(change(structuredClone(old as Role))),
        },
        options: {},
      });
    const out = await update((r) => ({
      ...r,
      metadata: { ...r.metadata, finalizers: ['example.com/keep'] },
    }));
    assert.deepEqual(out.object.metadata?.finalizers, ['example.com/keep']);
    await rejectsWithStatus(
      update((r) => ({ ...r, metadata: { ...r.metadata, labels: { a: 'b' } } })),
      { code: 403, reason: 'Forbidden' },
    );
    await rejectsWithStatus(
      roles.update(bob, 'pod-getter', {
        objInfo: {
          preconditions: () => undefined,
          updatedObject: (_ctx, old) =>
            Promise.resolve({ ...(old as Role), rules: [rule(['list', 'watch'], ['pods'])] }),
        },
        options: {},
      }),
      {
        code: 403,
        reason: 'Forbidden',
        message: `roles.rbac.authorization.k8s.io "pod-getter" is forbidden: ${held}{APIGroups:[""], Resources:["pods"], Verbs:["watch"]}`,
      },
    );
  });

  it('lets bob bind a role he holds, not cluster-admin unless he may bind it', async () => {
    await bindings.create(bob, binding('getter', { kind: 'Role', name: 'pod-getter' }, 'alice'), {
      options: {},
    });
    const toAdmin = binding('admin', { kind: 'ClusterRole', name: 'cluster-admin' });
    await rejectsWithStatus(bindings.create(bob, toAdmin, { options: {} }), {
      code: 403,
      reason: 'Forbidden',
      message: `rolebindings.rbac.authorization.k8s.io "admin" is forbidden: ${held}{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}`,
    });
    await rejectsWithStatus(
      clusterBindings.create(userContext(''), { ...toAdmin, kind: 'ClusterRoleBinding' }, { options: {} }),
      { code: 403, reason: 'Forbidden' },
    );
    await rejectsWithStatus(
      bindings.create(bob, binding('ghost', { kind: 'Role', name: 'nope' }), { options: {} }),
      {
        code: 404,
        reason: 'NotFound',
        message: 'roles.rbac.authorization.k8s.io "nope" not found',
      },
    );
    // `bind` on clusterroles/cluster-admin in team lets him.
    await roles.create(
      admin,
      role('binder', [
        {
          verbs: ['bind'],
          apiGroups: ['rbac.authorization.k8s.io'],
          resources: ['clusterroles'],
          resourceNames: ['cluster-admin'],
        },
      ]),
      { options: {} },
    );
    await bindings.create(admin, binding('bob-binder', { kind: 'Role', name: 'binder' }), { options: {} });
    await bindings.create(bob, toAdmin, { options: {} });
    // ...but only there: no `bind` cluster-wide.
    await rejectsWithStatus(
      clusterBindings.create(userContext(''), { ...toAdmin, kind: 'ClusterRoleBinding' }, { options: {} }),
      { code: 403, reason: 'Forbidden' },
    );
  });

  it('names rule resolution errors in the refusal', async () => {
    const ns = internalContext({ namespace: 'other' });
    await bindings.create(ns, binding('dangling', { kind: 'Role', name: 'ghost' }), { options: {} });
    await rejectsWithStatus(
      roles.create(userContext('other'), role('r', [rule(['get'], ['pods'])]), { options: {} }),
      {
        code: 403,
        reason: 'Forbidden',
        message: `roles.rbac.authorization.k8s.io "r" is forbidden: ${held}{APIGroups:[""], Resources:["pods"], Verbs:["get"]}; resolution errors: [roles.rbac.authorization.k8s.io "ghost" not found]`,
      },
    );
  });

  it('lets `escalate` on roles grant anything', async () => {
    const carol = userContext('team', { name: 'carol', groups: ['system:authenticated'] });
    await roles.create(
      admin,
      role('escalator', [
        { verbs: ['escalate', 'create'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'] },
      ]),
      { options: {} },
    );
    await bindings.create(admin, binding('carol-escalates', { kind: 'Role', name: 'escalator' }, 'carol'), {
      options: {},
    });
    await roles.create(carol, role('carol-wide', [rule(['*'], ['*'])]), { options: {} });
  });

  it('asks for cluster-admin to set an aggregationRule, however small its rules', async () => {
    const agg = (name: string): ClusterRole => ({
      apiVersion,
      kind: 'ClusterRole',
      metadata: { name },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { team: 'x' } }] },
      rules: [],
    });
    await clusterRoles.create(
      internalContext(),
      { apiVersion, kind: 'ClusterRole', metadata: { name: 'small' }, rules: [rule(['get'], ['pods'])] },
      { options: {} },
    );
    const dave = { name: 'dave', groups: ['system:authenticated'] };
    await clusterBindings.create(
      internalContext(),
      {
        ...binding('dave-small', { kind: 'ClusterRole', name: 'small' }, 'dave'),
        kind: 'ClusterRoleBinding',
      },
      { options: {} },
    );
    await rejectsWithStatus(clusterRoles.create(userContext('', dave), agg('agg'), { options: {} }), {
      code: 403,
      reason: 'Forbidden',
      message:
        'clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule',
    });
    await clusterBindings.create(
      internalContext(),
      {
        ...binding('dave-admin', { kind: 'ClusterRole', name: 'cluster-admin' }, 'dave'),
        kind: 'ClusterRoleBinding',
      },
      { options: {} },
    );
    await clusterRoles.create(userContext('', dave), agg('agg'), { options: {} });
  });

  it('binds an aggregated ClusterRole by the rules stored in it, not by what its selectors match', async () => {
    const sys = internalContext();
    const aggregated = (name: string, rules: PolicyRule[]): ClusterRole => ({
      apiVersion,
      kind: 'ClusterRole',
      metadata: { name },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { aggregate: 'viewer' } }] },
      rules,
    });
    // A role its selector matches grants more than the aggregated role holds yet: the aggregation
    // controller has not written it in, so it does not count.
    await clusterRoles.create(
      sys,
      {
        apiVersion,
        kind: 'ClusterRole',
        metadata: { name: 'v-secrets', labels: { aggregate: 'viewer' } },
        rules: [rule(['get'], ['secrets'])],
      },
      { options: {} },
    );
    await clusterRoles.create(sys, aggregated('viewer', [rule(['get'], ['pods'])]), { options: {} });
    await clusterRoles.create(
      sys,
      aggregated('viewer-2', [rule(['get'], ['pods']), rule(['get'], ['secrets'])]),
      {
        options: {},
      },
    );
    // In `views` bob holds get pods: the first role is covered, the second is not.
    const views = userContext('views');
    await roles.create(internalContext({ namespace: 'views' }), role('pods', [rule(['get'], ['pods'])]), {
      options: {},
    });
    await bindings.create(
      internalContext({ namespace: 'views' }),
      binding('bob-pods', { kind: 'Role', name: 'pods' }),
      {
        options: {},
      },
    );
    await bindings.create(views, binding('view-1', { kind: 'ClusterRole', name: 'viewer' }, 'alice'), {
      options: {},
    });
    await rejectsWithStatus(
      bindings.create(views, binding('view-2', { kind: 'ClusterRole', name: 'viewer-2' }, 'alice'), {
        options: {},
      }),
      {
        code: 403,
        reason: 'Forbidden',
        message: `rolebindings.rbac.authorization.k8s.io "view-2" is forbidden: ${held}{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}`,
      },
    );
  });

  it('allows everything when the authorizer allows escalate and bind (AlwaysAllow)', async () => {
    const env2 = await memoryRESTOptions();
    try {
      const opts = {
        restOptionsGetter: env2.getter,
        escalation: new RBACEscalationPolicy(alwaysAllowAuthorizer),
      };
      const r = await newRoleREST(opts);
      const b = await newRoleBindingREST(opts);
      await r.create(bob, role('all', [rule(['*'], ['*'])]), { options: {} });
      const created: KubeObject = await b.create(
        bob,
        binding('x', { kind: 'ClusterRole', name: 'cluster-admin' }),
        {
          options: {},
        },
      );
      assert.equal(created.metadata?.name, 'x');
    } finally {
      await env2.close();
    }
  });
});

describe('rule resolution errors', () => {
  it("are reported by the RBAC authorizer as the rules' evaluationError", async () => {
    const index = new RBACIndex();
    index.replace('roles', []);
    index.replace('clusterroles', []);
    index.replace('clusterrolebindings', [
      { ...binding('c', { kind: 'ClusterRole', name: 'gone' }), kind: 'ClusterRoleBinding' },
    ]);
    index.replace('rolebindings', [
      { ...binding('r', { kind: 'Role', name: 'ghost' }), metadata: { name: 'r', namespace: 'team' } },
    ]);
    const a = new RBACAuthorizer(index);
    assert.deepEqual(await a.rulesFor(bobUser, 'team'), {
      resourceRules: [],
      nonResourceRules: [],
      incomplete: false,
      evaluationError:
        '[clusterrole.rbac.authorization.k8s.io "gone" not found, role.rbac.authorization.k8s.io "ghost" not found]',
    });
    assert.equal(
      (await a.rulesFor(bobUser, 'other')).evaluationError,
      'clusterrole.rbac.authorization.k8s.io "gone" not found',
    );
    assert.equal((await a.rulesFor({ name: 'x', groups: [] }, 'team')).evaluationError, undefined);
  });
});
