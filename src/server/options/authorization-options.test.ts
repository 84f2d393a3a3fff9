import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadAuthorization } from '../authorization/load-authorization.js';
import { defaultServerRunOptions, validateServerRunOptions } from './server-run-options.js';

type Options = ReturnType<typeof defaultServerRunOptions>;

/** Options as the flags would set them (the flags themselves are tested in src/cmd/authz-flags.test.ts). */
const options = (modes: string[], authz: Partial<Options['authorization']> = {}): Options => {
  const o = defaultServerRunOptions();
  o.authorizationModes.push(...modes);
  Object.assign(o.authorization, authz);
  return o;
};

describe('authorization options', () => {
  let dir: string;
  let kubeconfig: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-authz-'));
    kubeconfig = join(dir, 'authz.yaml');
    await writeFile(
      kubeconfig,
      'clusters:\n- name: authz\n  cluster:\n    server: http://127.0.0.1:1/authorize\nusers:\n- name: api\n  user:\n    token: t\n',
    );
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('has kube’s defaults, and refuses what BuiltInAuthorizationOptions.Validate refuses', () => {
    assert.deepEqual(defaultServerRunOptions().authorization, {
      webhookConfigFile: '',
      webhookVersion: 'v1beta1',
      webhookCacheAuthorizedTTLMs: 300_000,
      webhookCacheUnauthorizedTTLMs: 30_000,
      configFile: '',
      legacyFlagsSet: false,
    });
    assert.deepEqual(
      validateServerRunOptions(options(['Node', 'Webhook', 'RBAC'], { webhookConfigFile: kubeconfig })),
      [],
    );
    assert.deepEqual(validateServerRunOptions(options(['Webhook'])), [
      "authorization-mode Webhook's authorization config file not passed",
    ]);
    assert.deepEqual(validateServerRunOptions(options([], { webhookConfigFile: '/x' })), [
      'cannot specify --authorization-webhook-config-file without mode Webhook',
    ]);
    assert.deepEqual(validateServerRunOptions(options([], { configFile: '/x', legacyFlagsSet: true })), [
      '--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined',
    ]);
  });

  it('builds the chain from the flags: the webhook named "default", its kubeconfig read', async () => {
    const o = options(['Webhook', 'RBAC'], { webhookConfigFile: kubeconfig });
    const loaded = await loadAuthorization(o);
    assert.deepEqual(loaded.modes, ['Webhook', 'RBAC']);
    assert.deepEqual(
      loaded.authorizers.map((a) => [a.type, a.name]),
      [
        ['Webhook', 'default'],
        ['RBAC', 'rbac'],
      ],
    );
    assert.deepEqual(loaded.authorizers[0]?.webhook, {
      name: 'default',
      target: { server: 'http://127.0.0.1:1/authorize', token: 't' },
      version: 'v1beta1',
      authorizedTTLMs: 300_000,
      unauthorizedTTLMs: 30_000,
      timeoutMs: 30_000,
      failurePolicy: 'NoOpinion',
    });
    o.authorization.webhookVersion = 'v2';
    await assert.rejects(loadAuthorization(o), {
      message: 'unsupported webhook authorizer version "v2", supported versions are "v1", "v1beta1"',
    });
  });

  it('reads --authorization-config: several webhooks, defaults, match conditions', async () => {
    const path = join(dir, 'authz-config.yaml');
    await writeFile(
      path,
      `apiVersion: apiserver.config.k8s.io/v1
kind: AuthorizationConfiguration
authorizers:
- type: Node
  name: node
- type: Webhook
  name: first
  webhook:
    timeout: 3s
    subjectAccessReviewVersion: v1
    matchConditionSubjectAccessReviewVersion: v1
    failurePolicy: Deny
    connectionInfo: {type: KubeConfigFile, kubeConfigFile: ${kubeconfig}}
    matchConditions:
    - expression: has(request.resourceAttributes)
- type: Webhook
  name: second
  webhook:
    timeout: 30s
    authorizedTTL: 1m
    subjectAccessReviewVersion: v1beta1
    failurePolicy: NoOpinion
    connectionInfo: {type: KubeConfigFile, kubeConfigFile: ${kubeconfig}}
- type: RBAC
  name: rbac
`,
    );
    const o = options([], { configFile: path });
    assert.deepEqual(validateServerRunOptions(o), []);
    const loaded = await loadAuthorization(o);
    assert.deepEqual(loaded.modes, ['Node', 'Webhook', 'Webhook', 'RBAC']);
    const webhooks = loaded.authorizers.flatMap((a) => (a.webhook === undefined ? [] : [a.webhook]));
    assert.deepEqual(
      webhooks.map((w) => [
        w.name,
        w.failurePolicy,
        w.timeoutMs,
        w.authorizedTTLMs,
        w.unauthorizedTTLMs,
        w.version,
      ]),
      [
        ['first', 'Deny', 3_000, 300_000, 30_000, 'v1'],
        ['second', 'NoOpinion', 30_000, 60_000, 30_000, 'v1beta1'],
      ],
    );
    assert.equal(typeof webhooks[0]?.matchConditions, 'function');
  });

  it('refuses a bad --authorization-config with kube’s messages', async () => {
    const path = join(dir, 'bad.yaml');
    await writeFile(
      path,
      `apiVersion: apiserver.config.k8s.io/v1
kind: AuthorizationConfiguration
authorizers:
- type: RBAC
  name: rbac
- type: RBAC
  name: other
- type: Webhook
  name: hook
  webhook:
    timeout: 31s
    subjectAccessReviewVersion: v2
    connectionInfo: {type: KubeConfigFile, kubeConfigFile: relative.yaml}
    matchConditions:
    - expression: 'true'
`,
    );
    await assert.rejects(loadAuthorization(options([], { configFile: path })), {
      message:
        '[authorizers[1].type: Duplicate value: "RBAC", authorizers[2].timeout: Invalid value: "31s": must be > 0s and <= 30s, authorizers[2].subjectAccessReviewVersion: Unsupported value: "v2": supported values: "v1", "v1beta1", authorizers[2].matchConditionSubjectAccessReviewVersion: Required value: required if match conditions are specified, authorizers[2].failurePolicy: Required value, authorizers[2].connectionInfo.kubeConfigFile: Invalid value: "relative.yaml": must be an absolute path]',
    });
    await writeFile(
      path,
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: RBAC\n  name: rbac-main\n',
    );
    await assert.rejects(loadAuthorization(options([], { configFile: path })), {
      message: 'expected name rbac for authorizer RBAC instead of rbac-main',
    });
  });
});
