import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testServer, adminToken, admin } from '../testing/test-server.js';
import type { APIMount } from '../generic-api-server.js';
import {
  alwaysAllowAuthorizer,
  type AuthorizationAttributes,
  type Authorizer,
} from '../../registry/rest/authorizer.js';
import { authorizerForModes } from '../authorization/modes.js';
import { RBACAuthorizer, RBACIndex } from '../../registry/rbac/authorizer.js';
import { parseRequestURL, type RequestURL } from '../../endpoints/request/request-url.js';
import { authorizationAttributes } from './authorization.js';

const bobToken = 'bob-token';
const tokens = new Map([
  [adminToken, admin],
  [bobToken, { name: 'bob', groups: ['dev'] }],
]);

const ok: APIMount = async (scope) => {
  scope.res.end('{}');
  return Promise.resolve(true);
};

/** RBAC with one ClusterRole granting get/list on configmaps, bound to group dev in namespace "dev". */
function rbac(): Authorizer {
  const index = new RBACIndex();
  index.replace('clusterroles', [
    {
      kind: 'ClusterRole',
      metadata: { name: 'cm' },
      rules: [{ verbs: ['list'], apiGroups: [''], resources: ['configmaps'] }],
    },
  ]);
  index.replace('roles', []);
  index.replace('clusterrolebindings', []);
  index.replace('rolebindings', [
    {
      kind: 'RoleBinding',
      metadata: { name: 'b', namespace: 'dev' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cm' },
      subjects: [{ kind: 'Group', name: 'dev' }],
    },
  ]);
  return authorizerForModes(['RBAC'], () => new RBACAuthorizer(index));
}

const bob = (
  url: string,
  method = 'GET',
): { url: string; method: string; headers: Record<string, string> } => ({
  url,
  method,
  headers: { authorization: `Bearer ${bobToken}` },
});

function status(message: string, details: Record<string, string>): Record<string, unknown> {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'Forbidden',
    details,
    code: 403,
  };
}

describe('authorization filter', () => {
  it('answers denials with kube 403 Status bodies', async () => {
    const { request, adminRequest } = testServer({ config: { tokens, authorizer: rbac() }, api: ok });
    assert.equal((await request(bob('/api/v1/namespaces/dev/configmaps'))).statusCode, 200);
    assert.equal((await adminRequest('/api/v1/nodes')).statusCode, 200);

    const ns = await request(bob('/api/v1/namespaces/prod/configmaps'));
    assert.equal(ns.statusCode, 403);
    assert.equal(ns.headers['x-content-type-options'], 'nosniff');
    assert.deepEqual(
      ns.json(),
      status(
        'configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "prod"',
        { kind: 'configmaps' },
      ),
    );
    const cluster = await request(bob('/apis/storage.k8s.io/v1/storageclasses/fast', 'DELETE'));
    assert.deepEqual(
      cluster.json(),
      status(
        'storageclasses.storage.k8s.io "fast" is forbidden: User "bob" cannot delete resource "storageclasses" in API group "storage.k8s.io" at the cluster scope',
        { name: 'fast', group: 'storage.k8s.io', kind: 'storageclasses' },
      ),
    );
    const sub = await request(bob('/api/v1/namespaces/dev/pods/p1/log'));
    assert.deepEqual(
      sub.json(),
      status(
        'pods "p1" is forbidden: User "bob" cannot get resource "pods/log" in API group "" in the namespace "dev"',
        { name: 'p1', kind: 'pods' },
      ),
    );
    const path = await request(bob('/metrics?x=<y>'));
    assert.deepEqual(path.json(), status('forbidden: User "bob" cannot get path "/metrics"', {}));
    const post = await request(bob('/logs/a<b>', 'POST'));
    assert.equal(
      post.json<{ message: string }>().message,
      'forbidden: User "bob" cannot post path "/logs/a&lt;b&gt;"',
    );
  });

  it('hands the authorizer the RequestInfo attributes', async () => {
    const seen: AuthorizationAttributes[] = [];
    const recorder: Authorizer = {
      authorize: (attrs) => {
        seen.push(attrs);
        return Promise.resolve({ decision: 'Allow', reason: '' });
      },
      rulesFor: () => Promise.reject(new Error('unused')),
    };
    const { request } = testServer({ config: { tokens, authorizer: recorder }, api: ok });
    await request(bob('/apis/apps/v1/namespaces/dev/deployments/web/scale', 'PUT'));
    await request(bob('/healthz', 'HEAD'));
    assert.deepEqual(seen[0], {
      user: { name: 'bob', groups: ['dev', 'system:authenticated'] },
      verb: 'update',
      resourceRequest: true,
      path: '/apis/apps/v1/namespaces/dev/deployments/web/scale',
      namespace: 'dev',
      apiGroup: 'apps',
      apiVersion: 'v1',
      resource: 'deployments',
      subresource: 'scale',
      name: 'web',
    });
    assert.deepEqual(seen[1], {
      user: { name: 'bob', groups: ['dev', 'system:authenticated'] },
      verb: 'head',
      resourceRequest: false,
      path: '/healthz',
    });
  });

  it('answers an authorizer error with a plain-text 500', async () => {
    const failing: Authorizer = {
      authorize: () => Promise.reject(new Error('boom')),
      rulesFor: () => Promise.reject(new Error('boom')),
    };
    const { request } = testServer({ config: { tokens, authorizer: failing }, api: ok });
    const res = await request(bob('/api/v1/pods?limit=1'));
    assert.equal(res.statusCode, 500);
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(res.body, 'Internal Server Error: "/api/v1/pods?limit=1": boom\n');
  });

  it('is not in the chain with AlwaysAllow alone', async () => {
    let calls = 0;
    // eslint-disable-next-line @typescript-eslint/unbound-method -- its functions use no `this`
    const original = alwaysAllowAuthorizer.authorize;
    alwaysAllowAuthorizer.authorize = (attrs) => {
      calls++;
      return original(attrs);
    };
    try {
      const { request } = testServer({ config: { tokens, authorizer: alwaysAllowAuthorizer }, api: ok });
      assert.equal((await request(bob('/api/v1/nodes'))).statusCode, 200);
      assert.equal(calls, 0);
      // Any other authorizer is asked once per request.
      const other = testServer({ config: { tokens, authorizer: { ...alwaysAllowAuthorizer } }, api: ok });
      assert.equal((await other.request(bob('/api/v1/nodes'))).statusCode, 200);
      assert.equal(calls, 1);
    } finally {
      alwaysAllowAuthorizer.authorize = original;
    }
    assert.equal(
      authorizerForModes(['AlwaysAllow'], () => assert.fail('no RBAC')),
      alwaysAllowAuthorizer,
    );
  });
});

describe('authorizationAttributes', () => {
  const info = {
    isResourceRequest: true,
    path: '/api/v1/pods',
    verb: 'list',
    namespace: '',
    apiGroup: '',
    apiVersion: 'v1',
    resource: 'pods',
    subresource: '',
    name: '',
  };
  const url = (q: string): RequestURL => parseRequestURL(`/api/v1/pods${q}`);

  it('keeps a collection request’s field and label selectors as sent, unparsed', () => {
    const attrs = authorizationAttributes(info, admin, url('?labelSelector=app%3Dweb&fieldSelector=a%3Db'));
    assert.equal(attrs.fieldSelector, 'a=b');
    assert.equal(attrs.labelSelector, 'app=web');
    const get = authorizationAttributes({ ...info, verb: 'get' }, admin, url('?labelSelector=app%3Dweb'));
    assert.equal(get.labelSelector, undefined);
    assert.equal(authorizationAttributes(info, admin, url('')).labelSelector, undefined);
  });
});
