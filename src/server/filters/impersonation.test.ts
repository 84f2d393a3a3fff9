import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testServer, adminToken, admin } from '../testing/test-server.js';
import type { APIMount } from '../generic-api-server.js';
import { authorizerForModes } from '../authorization/modes.js';
import { RBACAuthorizer, RBACIndex } from '../../registry/rbac/authorizer.js';
import { buildImpersonationRequests, splitServiceAccountUsername } from '../authn/impersonation-requests.js';
import type { HttpRequest } from '../http/types.js';

const tokens = new Map([
  [adminToken, admin],
  ['bob-token', { name: 'bob', groups: ['dev'] }],
]);

const whoAmI: APIMount = async (scope) => {
  scope.res.end(JSON.stringify(scope.user));
  return Promise.resolve(true);
};

/** bob may impersonate user jane, group devs, any uid and the extra `scopes`; authenticated users list pods. */
function rbac(): ReturnType<typeof authorizerForModes> {
  const index = new RBACIndex();
  index.replace('clusterroles', [
    {
      kind: 'ClusterRole',
      metadata: { name: 'impersonator' },
      rules: [
        { verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: ['jane'] },
        { verbs: ['impersonate'], apiGroups: [''], resources: ['groups'], resourceNames: ['devs'] },
        {
          verbs: ['impersonate'],
          apiGroups: ['authentication.k8s.io'],
          resources: ['uids', 'userextras/scopes'],
        },
      ],
    },
    {
      kind: 'ClusterRole',
      metadata: { name: 'pod-lister' },
      rules: [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }],
    },
  ]);
  index.replace('roles', []);
  index.replace('rolebindings', []);
  index.replace('clusterrolebindings', [
    {
      kind: 'ClusterRoleBinding',
      metadata: { name: 'b' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'impersonator' },
      subjects: [{ kind: 'User', name: 'bob' }],
    },
    {
      kind: 'ClusterRoleBinding',
      metadata: { name: 'authenticated-list-pods' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'pod-lister' },
      subjects: [{ kind: 'Group', name: 'system:authenticated' }],
    },
  ]);
  return authorizerForModes(['RBAC'], () => new RBACAuthorizer(index));
}

const bob = (
  headers: Record<string, string | string[]>,
): { url: string; headers: Record<string, string | string[]> } => ({
  url: '/api/v1/namespaces/default/pods',
  headers: { authorization: 'Bearer bob-token', ...headers },
});

const forbidden = (message: string, details: Record<string, string>): Record<string, unknown> => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message,
  reason: 'Forbidden',
  details,
  code: 403,
});

describe('impersonation filter', () => {
  const { request } = testServer({ config: { tokens, authorizer: rbac() }, api: whoAmI });

  it('acts as the impersonated user, its groups, extras and uid once each is authorized', async () => {
    const res = await request(
      bob({
        'Impersonate-User': 'jane',
        'Impersonate-Group': 'devs',
        'Impersonate-Uid': '1234',
        'Impersonate-Extra-Scopes': 'view',
      }),
    );
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {
      name: 'jane',
      uid: '1234',
      groups: ['devs', 'system:authenticated'],
      extra: { scopes: ['view'] },
    });
    const plain = await request(bob({ 'Impersonate-User': 'jane' }));
    assert.deepEqual(plain.json(), { name: 'jane', groups: ['system:authenticated'] });
  });

  it('keeps extras named like Object.prototype members (constructor, __proto__) as plain keys', async () => {
    const res = await request({
      url: '/api/v1/namespaces/default/pods',
      headers: {
        authorization: `Bearer ${adminToken}`,
        'Impersonate-User': 'jane',
        'Impersonate-Extra-constructor': ['a', 'b'],
        'Impersonate-Extra-__proto__': 'c',
        'Impersonate-Extra-toString': 'd',
      },
    });
    assert.equal(res.statusCode, 200, res.body);
    const user = JSON.parse(res.body) as { extra: Record<string, unknown> };
    assert.deepEqual(Object.entries(user.extra), [
      ['constructor', ['a', 'b']],
      ['__proto__', ['c']],
      ['tostring', ['d']],
    ]);
  });

  it('refuses what RBAC does not grant with kube 403 texts', async () => {
    const user = await request(bob({ 'Impersonate-User': 'alice' }));
    assert.equal(user.statusCode, 403);
    assert.deepEqual(
      user.json(),
      forbidden(
        'users "alice" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope',
        { name: 'alice', kind: 'users' },
      ),
    );
    const group = await request(bob({ 'Impersonate-User': 'jane', 'Impersonate-Group': 'system:masters' }));
    assert.deepEqual(
      group.json(),
      forbidden(
        'groups "system:masters" is forbidden: User "bob" cannot impersonate resource "groups" in API group "" at the cluster scope',
        { name: 'system:masters', kind: 'groups' },
      ),
    );
    const sa = await request(bob({ 'Impersonate-User': 'system:serviceaccount:kube-system:default' }));
    assert.deepEqual(
      sa.json(),
      forbidden(
        'serviceaccounts "default" is forbidden: User "bob" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "kube-system"',
        { name: 'default', kind: 'serviceaccounts' },
      ),
    );
    const extra = await request(bob({ 'Impersonate-User': 'jane', 'Impersonate-Extra-Reason': 'x' }));
    assert.deepEqual(
      extra.json(),
      forbidden(
        'userextras.authentication.k8s.io "x" is forbidden: User "bob" cannot impersonate resource "userextras/reason" in API group "authentication.k8s.io" at the cluster scope',
        { name: 'x', group: 'authentication.k8s.io', kind: 'userextras' },
      ),
    );
  });

  it('answers groups without a user with kube 500 text', async () => {
    const res = await request(bob({ 'Impersonate-Group': 'devs' }));
    assert.equal(res.statusCode, 500);
    assert.equal(
      res.body,
      'Internal Server Error: "/api/v1/namespaces/default/pods": requested [{Group  devs    }] without impersonating a user\n',
    );
  });

  it('lets system:masters impersonate a service account, with its groups', async () => {
    const res = await request({
      url: '/api/v1/namespaces/default/pods',
      headers: {
        authorization: `Bearer ${adminToken}`,
        'impersonate-user': 'system:serviceaccount:ns1:builder',
      },
    });
    assert.deepEqual(res.json(), {
      name: 'system:serviceaccount:ns1:builder',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'],
    });
  });
});

describe('buildImpersonationRequests', () => {
  const req = (rawHeaders: string[]): HttpRequest => ({ rawHeaders }) as unknown as HttpRequest;

  it('makes one request per repeated group and extra value, unescaping extra keys', () => {
    const parsed = buildImpersonationRequests(
      req([
        'Impersonate-User',
        'jane',
        'Impersonate-Group',
        'a',
        'Impersonate-Group',
        'b',
        'Impersonate-Extra-Acme.com%2Fproject',
        'p1',
      ]),
    );
    assert.ok(parsed.ok);
    assert.deepEqual(
      parsed.requests.map((r) => [r.kind, r.name, r.fieldPath]),
      [
        ['User', 'jane', ''],
        ['Group', 'a', ''],
        ['Group', 'b', ''],
        ['UserExtra', 'p1', 'acme.com/project'],
      ],
    );
  });

  it('tells service account user names from others', () => {
    assert.deepEqual(splitServiceAccountUsername('system:serviceaccount:ns:sa'), ['ns', 'sa']);
    assert.equal(splitServiceAccountUsername('system:serviceaccount:ns'), undefined);
    assert.equal(splitServiceAccountUsername('system:serviceaccount:NS:sa'), undefined);
    assert.equal(splitServiceAccountUsername('jane'), undefined);
  });
});

describe('impersonation filter: headers handed on', () => {
  const headersSeen: APIMount = async (scope) => {
    scope.res.end(JSON.stringify({ user: scope.user?.name, headers: Object.keys(scope.req.headers).sort() }));
    return Promise.resolve(true);
  };
  const { request } = testServer({ config: { tokens, authorizer: rbac() }, api: headersSeen });

  it('drops Authorization and Impersonate-* once they have been acted on', async () => {
    const res = await request(
      bob({ 'Impersonate-User': 'jane', 'Impersonate-Extra-Scopes': 'view', 'X-Other': 'kept' }),
    );
    assert.equal(res.statusCode, 200, res.body);
    const seen = res.json<{ user: string; headers: string[] }>();
    assert.equal(seen.user, 'jane');
    assert.ok(seen.headers.includes('x-other'));
    assert.deepEqual(
      seen.headers.filter((h) => h === 'authorization' || h.startsWith('impersonate-')),
      [],
    );
  });
});
