// The `authorizer` variable of admission expressions, answered by RBAC (--authorization-mode=RBAC):
// a ValidatingAdmissionPolicy lets a ConfigMap name only a Secret its creator may read (and says
// in its message whether the creator may delete ConfigMaps, through authorizer.requestResource); a
// webhook's matchCondition sends it only the requests of users who may not delete ConfigMaps, or
// who act for a service account that may not.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { adminToken, call, type Reply } from './support/https-call.js';
import { waitFor } from './support/wait-for.js';
import { deny, startWebhookServer, type WebhookServer } from './support/webhook-server.js';

const bob = 'bob-token-0123456789';

describe('admission expressions: authorizer', () => {
  let server: CapstanServer;
  let hooks: WebhookServer;
  let dir: string;

  const as = (token: string, method: string, path: string, body?: unknown): Promise<Reply> =>
    call(server, { method, path, token, ...(body === undefined ? {} : { body }) });
  const admin = (method: string, path: string, body?: unknown): Promise<Reply> =>
    as(adminToken(server), method, path, body);
  async function created(method: string, path: string, body: unknown): Promise<void> {
    const r = await admin(method, path, body);
    assert.equal(r.status, 201, r.body);
  }
  const configMap = (name: string, secretName: string) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name },
    data: { secretName },
  });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-authz-cel-'));
    const tokenFile = join(dir, 'tokens.csv');
    await writeFile(tokenFile, `${bob},bob,u-bob\n`);
    hooks = await startWebhookServer();
    hooks.handle('/deny', (review) => deny(review, 'sent to the webhook'));
    server = await startCapstan({
      authorizationModes: ['RBAC'],
      tokenAuthFile: tokenFile,
      storage: 'memory',
    });
    const rbac = '/apis/rbac.authorization.k8s.io/v1';
    await created('POST', `${rbac}/clusterroles`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'cm-writer' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get'] }],
    });
    for (const ns of ['authz', 'authz-hook']) {
      await created('POST', '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: ns, labels: { case: ns } },
      });
      await created('POST', `${rbac}/namespaces/${ns}/rolebindings`, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'bob-cm-writer' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cm-writer' },
        subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }],
      });
    }
    await created('POST', `${rbac}/namespaces/authz/roles`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'one-secret' },
      rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['readable'] }],
    });
    await created('POST', `${rbac}/namespaces/authz/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'bob-one-secret' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'one-secret' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }],
    });
  });
  after(async () => {
    await server.stop();
    await hooks.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a policy checks what the requester may do, and what the request is', async () => {
    const base = '/apis/admissionregistration.k8s.io/v1';
    await created('POST', `${base}/validatingadmissionpolicies`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'readable-secret' },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          resourceRules: [
            { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] },
          ],
        },
        variables: [
          {
            name: 'secret',
            expression:
              "authorizer.group('').resource('secrets').namespace(object.metadata.namespace).name(object.data.secretName).check('get')",
          },
        ],
        validations: [
          {
            expression: 'variables.secret.allowed()',
            messageExpression:
              "'cannot read secret ' + object.data.secretName + ' (may delete configmaps: ' + string(authorizer.requestResource.check('delete').allowed()) + ')'",
          },
        ],
      },
    });
    await created('POST', `${base}/validatingadmissionpolicybindings`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'readable-secret' },
      spec: {
        policyName: 'readable-secret',
        validationActions: ['Deny'],
        matchResources: { namespaceSelector: { matchLabels: { case: 'authz' } } },
      },
    });
    const path = '/api/v1/namespaces/authz/configmaps';
    const denied = await waitFor(
      'the policy in force',
      () => as(bob, 'POST', `${path}?dryRun=All`, configMap('probe', 'hidden')),
      (r) => r.status === 422,
    );
    assert.equal(
      denied.json['message'],
      `configmaps "probe" is forbidden: ValidatingAdmissionPolicy 'readable-secret' with binding 'readable-secret' denied request: cannot read secret hidden (may delete configmaps: false)`,
    );
    const ok = await as(bob, 'POST', path, configMap('fine', 'readable'));
    assert.equal(ok.status, 201, ok.body);
    // The admin may read every secret.
    const mine = await admin('POST', path, configMap('admin', 'hidden'));
    assert.equal(mine.status, 201, mine.body);
  });

  it("a webhook's matchCondition sends only the requests of users who may not delete", async () => {
    await created('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'non-deleters' },
      webhooks: [
        {
          name: 'non-deleters.example.com',
          clientConfig: { url: hooks.url('/deny'), caBundle: hooks.caBundle },
          rules: [
            { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] },
          ],
          namespaceSelector: { matchLabels: { case: 'authz-hook' } },
          matchConditions: [
            {
              name: 'cannot-delete',
              expression:
                "!authorizer.group('').resource('configmaps').namespace(request.namespace).check('delete').allowed()",
            },
          ],
          admissionReviewVersions: ['v1'],
          sideEffects: 'None',
        },
      ],
    });
    const path = '/api/v1/namespaces/authz-hook/configmaps';
    const denied = await waitFor(
      'the webhook in force',
      () => as(bob, 'POST', `${path}?dryRun=All`, configMap('probe', 'x')),
      (r) => r.status === 400,
    );
    assert.equal(
      denied.json['message'],
      'admission webhook "non-deleters.example.com" denied the request: sent to the webhook',
    );
    const calls = hooks.received('/deny').length;
    const mine = await admin('POST', path, configMap('admin', 'x'));
    assert.equal(mine.status, 201, mine.body);
    assert.equal(hooks.received('/deny').length, calls);
  });
});
