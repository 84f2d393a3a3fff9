// authentication.k8s.io/v1 tokenreviews over HTTP as kube-apiserver 1.33 answers them: the server's
// own token chain (a --token-auth-file token, a bound service account token with its audiences),
// 201 Created and nothing stored, kube's 400 for an empty token, dry run, discovery and OpenAPI,
// and RBAC's `create tokenreviews` through the bootstrap system:auth-delegator role.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type InProcessServer } from './support/in-process-server.js';

const api = 'https://kubernetes.default.svc.cluster.local';
const path = '/apis/authentication.k8s.io/v1/tokenreviews';
const delegate = 'delegate-token-0123456789';
const bob = 'bob-token-0123456789';

const review = (spec: Record<string, unknown>): Record<string, unknown> => ({
  apiVersion: 'authentication.k8s.io/v1',
  kind: 'TokenReview',
  spec,
});

describe('tokenreviews', () => {
  let dir: string;
  let server: InProcessServer;
  /** A TokenReview posted by the token-reviewer `as` (the admin by default). */
  const post = async (
    spec: Record<string, unknown>,
    opts: { as?: string; query?: string } = {},
  ): Promise<{ status: number; json: Record<string, unknown> }> => {
    const res = await server.request(`${path}${opts.query ?? ''}`, {
      method: 'POST',
      body: review(spec),
      ...(opts.as === undefined ? {} : { headers: { authorization: `Bearer ${opts.as}` } }),
    });
    return { status: res.status, json: JSON.parse(res.body) as Record<string, unknown> };
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-token-reviews-'));
    const tokenFile = join(dir, 'tokens.csv');
    await writeFile(tokenFile, `${delegate},delegate,u-delegate\n${bob},bob,u-bob,"dev,ops"\n`);
    server = await startInProcess((o) => {
      o.storage.backend = 'memory';
      o.storage.dataDir = dir;
      o.tokenAuthFile = tokenFile;
      o.authorizationModes = ['RBAC'];
    });
  });
  after(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('authenticates a static token: 201, kube’s body, for the API audiences', async () => {
    const res = await post({ token: bob });
    assert.equal(res.status, 201);
    const { metadata, ...rest } = res.json as { metadata: { managedFields?: { manager: string }[] } };
    assert.deepEqual(rest, {
      kind: 'TokenReview',
      apiVersion: 'authentication.k8s.io/v1',
      spec: { token: bob },
      status: {
        authenticated: true,
        user: { username: 'bob', uid: 'u-bob', groups: ['dev', 'ops', 'system:authenticated'] },
        audiences: [api],
      },
    });
    // Only what the create handler adds to every object: no name, uid or resourceVersion; and the
    // zero creationTimestamp kube writes as null (a metav1.Time held by value).
    assert.deepEqual(Object.keys(metadata), ['creationTimestamp', 'managedFields']);
    assert.equal((metadata as Record<string, unknown>)['creationTimestamp'], null);
    // Audience agnostic: another audience is not the static token's.
    const other = await post({ token: bob, audiences: ['vault'] });
    assert.deepEqual(other.json['status'], { user: {}, error: 'invalid bearer token' });
  });

  it('answers an unknown token unauthenticated, an empty one 400; dry run alike; nothing kept', async () => {
    const unknown = await post({ token: 'nobody-knows' }, { query: '?dryRun=All' });
    assert.equal(unknown.status, 201);
    assert.deepEqual(unknown.json['status'], { user: {}, error: 'invalid bearer token' });
    const empty = await post({ token: '' });
    assert.equal(empty.status, 400);
    assert.deepEqual(empty.json, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'token is required for TokenReview in authentication',
      reason: 'BadRequest',
      code: 400,
    });
    const list = await server.request(path);
    assert.equal(list.status, 405);
  });

  it('checks a bound service account token against the review’s audiences', async () => {
    await server.json('/api/v1/namespaces/default/serviceaccounts', {
      method: 'POST',
      body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } },
    });
    const issued = await server.json<{ status: { token: string } }>(
      '/api/v1/namespaces/default/serviceaccounts/robot/token',
      {
        method: 'POST',
        body: {
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenRequest',
          spec: { audiences: ['vault'] },
        },
      },
    );
    const token = issued.status.token;
    const ok = await post({ token, audiences: ['vault', 'other'] });
    const status = ok.json['status'] as {
      authenticated: boolean;
      audiences: string[];
      user: { username: string; groups: string[]; extra: Record<string, string[]> };
    };
    assert.equal(status.authenticated, true);
    assert.deepEqual(status.audiences, ['vault']);
    assert.equal(status.user.username, 'system:serviceaccount:default:robot');
    assert.deepEqual(status.user.groups, [
      'system:serviceaccounts',
      'system:serviceaccounts:default',
      'system:authenticated',
    ]);
    assert.ok(status.user.extra['authentication.kubernetes.io/credential-id']);
    const wrong = await post({ token });
    assert.deepEqual(wrong.json['status'], {
      user: {},
      error: `token audiences ["vault"] is invalid for the target audiences ["${api}"]`,
    });
  });

  it('is create-only and cluster scoped in discovery, and described in OpenAPI v3', async () => {
    const list = await server.json<{
      resources: { name: string; namespaced: boolean; kind: string; verbs: string[] }[];
    }>('/apis/authentication.k8s.io/v1');
    const found = list.resources.find((r) => r.name === 'tokenreviews');
    assert.deepEqual(
      found && { name: found.name, namespaced: found.namespaced, kind: found.kind, verbs: found.verbs },
      { name: 'tokenreviews', namespaced: false, kind: 'TokenReview', verbs: ['create'] },
    );
    const doc = await server.json<{
      paths: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    }>('/openapi/v3/apis/authentication.k8s.io/v1');
    assert.ok(doc.paths[path]);
    assert.ok(doc.components.schemas['io.k8s.api.authentication.v1.TokenReview']);
    assert.ok(doc.components.schemas['io.k8s.api.authentication.v1.TokenReviewStatus']);
  });

  it('needs `create tokenreviews`: system:auth-delegator grants it', async () => {
    const denied = await post({ token: bob }, { as: delegate });
    assert.equal(denied.status, 403);
    assert.equal(
      denied.json['message'],
      'tokenreviews.authentication.k8s.io is forbidden: User "delegate" cannot create resource "tokenreviews" in API group "authentication.k8s.io" at the cluster scope',
    );
    await server.json('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      method: 'POST',
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'delegate-auth' },
        roleRef: {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'ClusterRole',
          name: 'system:auth-delegator',
        },
        subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'delegate' }],
      },
    });
    const deadline = Date.now() + 10_000;
    let allowed = await post({ token: bob }, { as: delegate });
    while (allowed.status === 403 && Date.now() < deadline) {
      await new Promise((resolve) => setImmediate(resolve));
      allowed = await post({ token: bob }, { as: delegate });
    }
    assert.equal(allowed.status, 201);
    assert.equal((allowed.json['status'] as { authenticated: boolean }).authenticated, true);
  });
});
