import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterRole, PolicyRule, Role, RoleBinding } from '../../api/rbac/v1/rbac.js';
import type { AuthorizationAttributes } from '../rest/authorizer.js';
import type { UserInfo } from '../rest/context.js';
import { aggregatedRules } from './aggregated-rules.js';
import { aggregateErrors, appliesToUser, RBACAuthorizer, RBACIndex, ruleAllows } from './authorizer.js';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from './bootstrap-policy.js';

const bob: UserInfo = { name: 'bob', groups: ['dev', 'system:authenticated'] };

const res = (
  verb: string,
  resource: string,
  more: Partial<AuthorizationAttributes> = {},
): AuthorizationAttributes => ({
  user: bob,
  verb,
  resourceRequest: true,
  apiGroup: '',
  resource,
  ...more,
});
const url = (verb: string, path: string): AuthorizationAttributes => ({
  user: bob,
  verb,
  resourceRequest: false,
  path,
});

describe('RBAC rule matching', () => {
  const cases: [string, PolicyRule, AuthorizationAttributes, boolean][] = [
    ['exact', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, res('get', 'pods'), true],
    ['other verb', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, res('list', 'pods'), false],
    ['verb *', { verbs: ['*'], apiGroups: [''], resources: ['pods'] }, res('deletecollection', 'pods'), true],
    ['other group', { verbs: ['get'], apiGroups: ['apps'], resources: ['pods'] }, res('get', 'pods'), false],
    [
      'group *',
      { verbs: ['get'], apiGroups: ['*'], resources: ['deployments'] },
      res('get', 'deployments', { apiGroup: 'apps' }),
      true,
    ],
    ['resource *', { verbs: ['get'], apiGroups: [''], resources: ['*'] }, res('get', 'secrets'), true],
    [
      'resource * covers subresources',
      { verbs: ['get'], apiGroups: [''], resources: ['*'] },
      res('get', 'pods', { subresource: 'log' }),
      true,
    ],
    [
      'resource does not cover its subresource',
      { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
      res('get', 'pods', { subresource: 'log' }),
      false,
    ],
    [
      'resource/subresource',
      { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] },
      res('get', 'pods', { subresource: 'log' }),
      true,
    ],
    [
      '*/subresource',
      { verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] },
      res('update', 'deployments', { apiGroup: 'apps', subresource: 'scale' }),
      true,
    ],
    [
      '*/subresource is not the resource',
      { verbs: ['get'], apiGroups: [''], resources: ['*/scale'] },
      res('get', 'deployments'),
      false,
    ],
    [
      '*/other subresource',
      { verbs: ['get'], apiGroups: [''], resources: ['*/status'] },
      res('get', 'pods', { subresource: 'log' }),
      false,
    ],
    [
      'resourceNames: the name',
      { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] },
      res('get', 'configmaps', { name: 'a' }),
      true,
    ],
    [
      'resourceNames: another name',
      { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] },
      res('get', 'configmaps', { name: 'b' }),
      false,
    ],
    [
      'resourceNames: list has no name',
      { verbs: ['list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] },
      res('list', 'configmaps'),
      false,
    ],
    [
      'resourceNames: create has no name',
      { verbs: ['create'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] },
      res('create', 'configmaps'),
      false,
    ],
    ['url exact', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, url('get', '/healthz'), true],
    ['url other', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, url('get', '/healthz/etcd'), false],
    ['url prefix *', { verbs: ['get'], nonResourceURLs: ['/healthz/*'] }, url('get', '/healthz/etcd'), true],
    [
      'url prefix * not the stem',
      { verbs: ['get'], nonResourceURLs: ['/api/*'] },
      url('get', '/apis'),
      false,
    ],
    ['url *', { verbs: ['get'], nonResourceURLs: ['*'] }, url('get', '/anything'), true],
    ['url verb', { verbs: ['get'], nonResourceURLs: ['*'] }, url('post', '/anything'), false],
    [
      'resource rule does not match a path',
      { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
      url('get', '/healthz'),
      false,
    ],
    [
      'url rule does not match a resource',
      { verbs: ['*'], nonResourceURLs: ['*'] },
      res('get', 'pods'),
      false,
    ],
  ];
  for (const [name, rule, attrs, want] of cases) {
    it(name, () => {
      assert.equal(ruleAllows(attrs, rule), want);
    });
  }
});

describe('RBAC subjects', () => {
  it('matches users, groups and service accounts', () => {
    const sa: UserInfo = { name: 'system:serviceaccount:ns1:robot', groups: [] };
    assert.equal(appliesToUser(bob, { kind: 'User', name: 'bob' }, ''), true);
    assert.equal(appliesToUser(bob, { kind: 'User', name: 'dev' }, ''), false);
    assert.equal(appliesToUser(bob, { kind: 'Group', name: 'dev' }, ''), true);
    assert.equal(appliesToUser(bob, { kind: 'Group', name: 'bob' }, ''), false);
    assert.equal(appliesToUser(sa, { kind: 'ServiceAccount', name: 'robot', namespace: 'ns1' }, ''), true);
    assert.equal(appliesToUser(sa, { kind: 'ServiceAccount', name: 'robot' }, 'ns1'), true);
    assert.equal(appliesToUser(sa, { kind: 'ServiceAccount', name: 'robot' }, ''), false);
    assert.equal(
      appliesToUser(sa, { kind: 'ServiceAccount', name: 'robot', namespace: 'ns2' }, 'ns1'),
      false,
    );
    assert.equal(appliesToUser(bob, { kind: 'Robot', name: 'bob' }, ''), false);
  });
});

const clusterRole = (name: string, rules: PolicyRule[], extra: Partial<ClusterRole> = {}): ClusterRole => ({
  kind: 'ClusterRole',
  metadata: { name, ...extra.metadata },
  rules,
  ...(extra.aggregationRule === undefined ? {} : { aggregationRule: extra.aggregationRule }),
});
const binding = (
  name: string,
  namespace: string,
  roleRef: { kind: string; name: string },
  subjects: RoleBinding['subjects'],
): RoleBinding => ({
  kind: namespace === '' ? 'ClusterRoleBinding' : 'RoleBinding',
  metadata: namespace === '' ? { name } : { name, namespace },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...roleRef },
  subjects: subjects ?? [],
});

function index(): RBACIndex {
  const ix = new RBACIndex();
  ix.replace('clusterroles', [
    clusterRole('node-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['nodes'] }]),
    clusterRole('cm-writer', [{ verbs: ['create'], apiGroups: [''], resources: ['configmaps'] }]),
    clusterRole('health', [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }]),
  ]);
  const role: Role = {
    kind: 'Role',
    metadata: { name: 'pod-reader', namespace: 'dev' },
    rules: [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }],
  };
  ix.replace('roles', [role]);
  ix.replace('clusterrolebindings', [
    binding('nodes', '', { kind: 'ClusterRole', name: 'node-reader' }, [{ kind: 'Group', name: 'dev' }]),
    binding('health', '', { kind: 'ClusterRole', name: 'health' }, [{ kind: 'User', name: 'bob' }]),
  ]);
  ix.replace('rolebindings', [
    binding('pods', 'dev', { kind: 'Role', name: 'pod-reader' }, [{ kind: 'User', name: 'bob' }]),
    binding('cms', 'dev', { kind: 'ClusterRole', name: 'cm-writer' }, [{ kind: 'User', name: 'bob' }]),
    binding('sa', 'dev', { kind: 'ClusterRole', name: 'cm-writer' }, [
      { kind: 'ServiceAccount', name: 'robot' },
    ]),
  ]);
  return ix;
}

describe('RBACAuthorizer', () => {
  it('grants by cluster role bindings everywhere and role bindings in their namespace', async () => {
    const a = new RBACAuthorizer(index());
    const decide = async (attrs: AuthorizationAttributes): Promise<string> =>
      (await a.authorize(attrs)).decision;
    assert.equal(await decide(res('list', 'nodes')), 'Allow');
    assert.equal(await decide(res('list', 'nodes', { namespace: 'prod' })), 'Allow');
    assert.equal(await decide(res('delete', 'nodes')), 'NoOpinion');
    assert.equal(await decide(res('list', 'pods', { namespace: 'dev' })), 'Allow');
    assert.equal(await decide(res('list', 'pods', { namespace: 'prod' })), 'NoOpinion');
    assert.equal(await decide(res('list', 'pods')), 'NoOpinion');
    assert.equal(await decide(res('create', 'configmaps', { namespace: 'dev' })), 'Allow');
    assert.equal(await decide(res('create', 'configmaps', { namespace: 'prod' })), 'NoOpinion');
    assert.equal(await decide(url('get', '/healthz')), 'Allow');
    assert.equal(await decide(url('get', '/metrics')), 'NoOpinion');
    const robot: UserInfo = { name: 'system:serviceaccount:dev:robot', groups: [] };
    assert.equal(
      await decide({ ...res('create', 'configmaps', { namespace: 'dev' }), user: robot }),
      'Allow',
    );
    const alice: UserInfo = { name: 'alice', groups: [] };
    assert.equal(await decide({ ...res('list', 'nodes'), user: alice }), 'NoOpinion');
  });

  it('says which binding allowed, and why nothing did when a role is missing', async () => {
    const ix = index();
    const a = new RBACAuthorizer(ix);
    assert.deepEqual(await a.authorize(res('list', 'pods', { namespace: 'dev' })), {
      decision: 'Allow',
      reason: 'RBAC: allowed by RoleBinding "pods/dev" of Role "pod-reader" to User "bob"',
    });
    assert.deepEqual(await a.authorize(res('get', 'nodes')), {
      decision: 'Allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "nodes" of ClusterRole "node-reader" to Group "dev"',
    });
    ix.apply('clusterroles', 'DELETED', clusterRole('cm-writer', []));
    ix.apply(
      'clusterrolebindings',
      'ADDED',
      binding('gone', '', { kind: 'ClusterRole', name: 'gone' }, [{ kind: 'User', name: 'bob' }]),
    );
    assert.deepEqual(await a.authorize(res('create', 'configmaps', { namespace: 'dev' })), {
      decision: 'NoOpinion',
      reason:
        'RBAC: [clusterrole.rbac.authorization.k8s.io "gone" not found, clusterrole.rbac.authorization.k8s.io "cm-writer" not found]',
    });
    assert.deepEqual(await a.authorize(res('create', 'configmaps')), {
      decision: 'NoOpinion',
      reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found',
    });
    assert.equal(aggregateErrors(['a', 'a']), 'a');
  });

  it('follows watch events: a deleted binding grants nothing, a relist replaces everything', async () => {
    const ix = index();
    const a = new RBACAuthorizer(ix);
    ix.apply('rolebindings', 'DELETED', binding('pods', 'dev', { kind: 'Role', name: 'pod-reader' }, []));
    assert.equal((await a.authorize(res('list', 'pods', { namespace: 'dev' }))).decision, 'NoOpinion');
    ix.replace('clusterrolebindings', []);
    assert.equal((await a.authorize(res('list', 'nodes'))).decision, 'NoOpinion');
  });

  it('waits for the first lists before deciding', async () => {
    const ix = new RBACIndex();
    const a = new RBACAuthorizer(ix);
    let decided = false;
    const pending = a.authorize(res('list', 'nodes')).then((r) => {
      decided = true;
      return r;
    });
    ix.replace('clusterroles', [
      clusterRole('node-reader', [{ verbs: ['list'], apiGroups: [''], resources: ['nodes'] }]),
    ]);
    ix.replace('roles', []);
    ix.replace('rolebindings', []);
    await new Promise((r) => setImmediate(r));
    assert.equal(decided, false);
    ix.replace('clusterrolebindings', [
      binding('n', '', { kind: 'ClusterRole', name: 'node-reader' }, [{ kind: 'User', name: 'bob' }]),
    ]);
    assert.equal((await pending).decision, 'Allow');
  });

  it("grants an aggregated ClusterRole's stored rules (the bootstrap admin, edit and view, filled)", async () => {
    const ix = new RBACIndex();
    // Stored as bootstrapped, the aggregated roles grant nothing until the aggregation controller
    // writes their rules in.
    ix.replace('clusterroles', [...bootstrapClusterRoles]);
    ix.replace('clusterrolebindings', []);
    ix.replace('roles', []);
    ix.replace('rolebindings', [
      binding('v', 'dev', { kind: 'ClusterRole', name: 'view' }, [{ kind: 'User', name: 'viewer' }]),
    ]);
    const unfilled = {
      ...res('list', 'configmaps', { namespace: 'dev' }),
      user: { name: 'viewer', groups: [] },
    };
    assert.equal((await new RBACAuthorizer(ix).authorize(unfilled)).decision, 'NoOpinion');
    // What the controller writes, view first: edit aggregates view's filled rules, admin edit's.
    const filled = [...bootstrapClusterRoles];
    for (const name of ['view', 'edit', 'admin']) {
      const i = filled.findIndex((r) => r.metadata?.name === name);
      const r = filled[i] as ClusterRole;
      filled[i] = { ...r, rules: aggregatedRules(r, filled) ?? [] };
    }
    ix.replace('clusterroles', filled);
    ix.replace('clusterrolebindings', [...bootstrapClusterRoleBindings]);
    ix.replace('roles', []);
    ix.replace('rolebindings', [
      binding('v', 'dev', { kind: 'ClusterRole', name: 'view' }, [{ kind: 'User', name: 'viewer' }]),
      binding('a', 'dev', { kind: 'ClusterRole', name: 'admin' }, [{ kind: 'User', name: 'bob' }]),
    ]);
    const a = new RBACAuthorizer(ix);
    const viewer: UserInfo = { name: 'viewer', groups: ['system:authenticated'] };
    const as = (user: UserInfo, attrs: AuthorizationAttributes): AuthorizationAttributes => ({
      ...attrs,
      user,
    });
    assert.equal(
      (await a.authorize(as(viewer, res('list', 'configmaps', { namespace: 'dev' })))).decision,
      'Allow',
    );
    assert.equal(
      (await a.authorize(as(viewer, res('list', 'secrets', { namespace: 'dev' })))).decision,
      'NoOpinion',
    );
    assert.equal(
      (await a.authorize(as(viewer, res('create', 'configmaps', { namespace: 'dev' })))).decision,
      'NoOpinion',
    );
    // admin = its own aggregate + edit (which aggregates view).
    assert.equal(
      (
        await a.authorize(
          res('create', 'rolebindings', { namespace: 'dev', apiGroup: 'rbac.authorization.k8s.io' }),
        )
      ).decision,
      'Allow',
    );
    assert.equal((await a.authorize(res('delete', 'secrets', { namespace: 'dev' }))).decision, 'Allow');
    assert.equal(
      (await a.authorize(res('get', 'deployments', { namespace: 'dev', apiGroup: 'apps' }))).decision,
      'Allow',
    );
    assert.equal((await a.authorize(res('get', 'nodes', { namespace: 'dev' }))).decision, 'NoOpinion');
    // The bootstrap bindings: discovery and basic-user for every authenticated user, public info for all.
    assert.equal((await a.authorize(as(viewer, url('get', '/apis/apps')))).decision, 'Allow');
    const anonymous: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
    assert.equal((await a.authorize(as(anonymous, url('get', '/version')))).decision, 'Allow');
    assert.equal((await a.authorize(as(anonymous, url('get', '/apis')))).decision, 'NoOpinion');
    const masters: UserInfo = { name: 'root', groups: ['system:masters'] };
    assert.equal(
      (
        await a.authorize(
          as(masters, res('escalate', 'clusterroles', { apiGroup: 'rbac.authorization.k8s.io' })),
        )
      ).decision,
      'Allow',
    );
    // A role labelled for view adds nothing to it until the controller writes view anew.
    ix.apply(
      'clusterroles',
      'ADDED',
      clusterRole('extra', [{ verbs: ['get'], apiGroups: ['x.io'], resources: ['widgets'] }], {
        metadata: { name: 'extra', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
      }),
    );
    const getWidgets = as(viewer, res('get', 'widgets', { namespace: 'dev', apiGroup: 'x.io' }));
    assert.equal((await a.authorize(getWidgets)).decision, 'NoOpinion');
    const view = filled.find((r) => r.metadata?.name === 'view') as ClusterRole;
    const extra = [{ verbs: ['get'], apiGroups: ['x.io'], resources: ['widgets'] }];
    ix.apply('clusterroles', 'MODIFIED', { ...view, rules: [...(view.rules ?? []), ...extra] });
    assert.equal((await a.authorize(getWidgets)).decision, 'Allow');
  });

  it('lists the rules a user holds in a namespace', async () => {
    const a = new RBACAuthorizer(index());
    assert.deepEqual(await a.rulesFor(bob, 'dev'), {
      resourceRules: [
        { verbs: ['get', 'list'], apiGroups: [''], resources: ['nodes'] },
        { verbs: ['list'], apiGroups: [''], resources: ['pods'] },
        { verbs: ['create'], apiGroups: [''], resources: ['configmaps'] },
      ],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
      incomplete: false,
    });
    assert.deepEqual((await a.rulesFor(bob, 'prod')).resourceRules, [
      { verbs: ['get', 'list'], apiGroups: [''], resources: ['nodes'] },
    ]);
  });
});
