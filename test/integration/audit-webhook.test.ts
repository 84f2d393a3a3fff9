// --audit-webhook-config-file in process: the audit service here receives EventList batches; a
// request refused with 401 is one ResponseStarted event with no user; a ValidatingAdmissionPolicy's
// auditAnnotations reach the event of the request it admitted; a request without credentials is
// system:anonymous.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startInProcess, type InProcessServer } from './support/in-process-server.js';
import { patch, startWebhookServer } from './support/webhook-server.js';
import type { AuditEvent } from '../../src/server/audit/types.js';

const rootToken = 'root-token-77aa';

const policy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: None
  nonResourceURLs: ["/healthz*", "/readyz*", "/livez*"]
- level: Request
  resources: [{ group: "", resources: ["serviceaccounts"] }]
- level: Metadata
`;

describe('audit webhook backend', () => {
  let dir: string;
  let sink: Server;
  let server: InProcessServer;
  const received: AuditEvent[] = [];
  const batches: unknown[] = [];
  let waiters: (() => void)[] = [];

  /** Resolves when an event matching `pred` has arrived. */
  const eventWhere = async (pred: (e: AuditEvent) => boolean): Promise<AuditEvent> => {
    for (;;) {
      const found = received.find(pred);
      if (found !== undefined) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };

  const call = (
    path: string,
    init: { token?: string; method?: string; body?: unknown } = {},
  ): Promise<Response> =>
    fetch(`${server.url}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.token === undefined ? {} : { authorization: `Bearer ${init.token}` }),
        'content-type': 'application/json',
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });

  before(async () => {
    sink = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const list = JSON.parse(body) as { items: AuditEvent[] };
        batches.push({ ...list, items: list.items.length });
        received.push(...list.items);
        const w = waiters;
        waiters = [];
        for (const resolve of w) resolve();
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    dir = await mkdtemp(join(tmpdir(), 'capstan-audit-webhook-'));
    const port = (sink.address() as AddressInfo).port;
    await writeFile(
      join(dir, 'webhook.kubeconfig'),
      `clusters:\n- cluster:\n    server: http://127.0.0.1:${port}/audit\nusers:\n- user: {}\n`,
    );
    await writeFile(join(dir, 'policy.yaml'), policy);
    await writeFile(join(dir, 'tokens.csv'), `${rootToken},root,u-root,system:masters\n`);
    server = await startInProcess((o) => {
      o.storage.backend = 'memory';
      o.storage.dataDir = dir;
      o.authorizationModes = ['RBAC'];
      o.tokenAuthFile = join(dir, 'tokens.csv');
      o.auditPolicyFile = join(dir, 'policy.yaml');
      o.auditWebhookConfigFile = join(dir, 'webhook.kubeconfig');
      o.auditWebhookBatch.maxBatchWaitMs = 20;
    });
  });
  after(async () => {
    await server.stop();
    sink.closeAllConnections();
    await new Promise((resolve) => sink.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('posts batches of events as an audit.k8s.io/v1 EventList', async () => {
    const res = await call('/api/v1/namespaces/default/configmaps', { token: rootToken });
    assert.equal(res.status, 200);
    const auditID = res.headers.get('audit-id') ?? '';
    const e = await eventWhere((x) => x.auditID === auditID);
    assert.equal(e.stage, 'ResponseComplete');
    assert.equal(e.verb, 'list');
    assert.deepEqual(e.user, {
      username: 'root',
      uid: 'u-root',
      groups: ['system:masters', 'system:authenticated'],
    });
    assert.deepEqual(e.objectRef, { resource: 'configmaps', namespace: 'default', apiVersion: 'v1' });
    assert.deepEqual(e.annotations, {
      'authorization.k8s.io/decision': 'allow',
      'authorization.k8s.io/reason': '',
    });
    assert.deepEqual(batches[0], {
      kind: 'EventList',
      apiVersion: 'audit.k8s.io/v1',
      metadata: {},
      items: 1,
    });
  });

  it('audits a 401 as one ResponseStarted event without a user', async () => {
    const res = await call('/api/v1/namespaces/default/pods', { token: 'no-such-token' });
    assert.equal(res.status, 401);
    const auditID = res.headers.get('audit-id') ?? '';
    assert.notEqual(auditID, '');
    const e = await eventWhere((x) => x.auditID === auditID);
    assert.equal(e.stage, 'ResponseStarted');
    assert.deepEqual(e.user, {});
    assert.deepEqual(e.responseStatus, {
      metadata: {},
      message: 'Authentication failed, attempted: bearer',
      code: 401,
    });
    assert.equal(e.verb, 'list');
    assert.equal(received.filter((x) => x.auditID === auditID).length, 1);
  });

  it('serves a request without credentials as system:anonymous (--anonymous-auth defaults to true with RBAC)', async () => {
    const res = await call('/api/v1/namespaces');
    assert.equal(res.status, 403);
    const body = (await res.json()) as { message: string };
    assert.equal(
      body.message,
      'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
    );
    const e = await eventWhere((x) => x.auditID === res.headers.get('audit-id'));
    assert.deepEqual(e.user, { username: 'system:anonymous', groups: ['system:unauthenticated'] });
    assert.equal((await call('/version')).status, 200);
  });

  it("adds a ValidatingAdmissionPolicy's auditAnnotations to the admitted request's event", async () => {
    const vap = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'tiers' },
      spec: {
        matchConstraints: {
          resourceRules: [
            { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] },
          ],
        },
        auditAnnotations: [{ key: 'tier', valueExpression: "'gold-' + object.metadata.name" }],
      },
    };
    const binding = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'tiers' },
      spec: { policyName: 'tiers', validationActions: ['Audit'] },
    };
    const base = '/apis/admissionregistration.k8s.io/v1';
    assert.equal(
      (await call(`${base}/validatingadmissionpolicies`, { token: rootToken, method: 'POST', body: vap }))
        .status,
      201,
    );
    assert.equal(
      (
        await call(`${base}/validatingadmissionpolicybindings`, {
          token: rootToken,
          method: 'POST',
          body: binding,
        })
      ).status,
      201,
    );
    // The plugin sees the policy once its informer has: create until one is annotated.
    for (let i = 0; ; i++) {
      const name = `cm-${i}`;
      const res = await call('/api/v1/namespaces/default/configmaps', {
        token: rootToken,
        method: 'POST',
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } },
      });
      assert.equal(res.status, 201);
      const auditID = res.headers.get('audit-id') ?? '';
      const e = await eventWhere((x) => x.auditID === auditID);
      const tier = e.annotations?.['tiers/tier'];
      if (tier !== undefined) {
        assert.equal(tier, `gold-${name}`);
        break;
      }
      assert.ok(i < 200, 'the policy never took effect');
    }
  });
  it("records each mutating webhook's call, its patch at level Request, and the webhook failures it ignored", async () => {
    const wh = await startWebhookServer();
    try {
      wh.handle('/label', (review) =>
        patch(review, [{ value: 'yes', path: '/metadata/labels/mutated', op: 'add' }]),
      );
      const hook = (name: string, url: string, extra: Record<string, unknown> = {}) => ({
        name,
        clientConfig: { url, caBundle: wh.caBundle },
        rules: [
          {
            operations: ['CREATE'],
            apiGroups: [''],
            apiVersions: ['v1'],
            resources: ['configmaps', 'serviceaccounts'],
          },
        ],
        objectSelector: { matchLabels: { 'audit-mutate': 'yes' } },
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        ...extra,
      });
      const config = {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'MutatingWebhookConfiguration',
        metadata: { name: 'audit-mutators' },
        webhooks: [
          hook('labeler.example.com', wh.url('/label')),
          hook('noop.example.com', wh.url('/noop')),
          hook('broken.example.com', 'https://127.0.0.1:1/broken', { failurePolicy: 'Ignore' }),
        ],
      };
      const created = await call('/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', {
        token: rootToken,
        method: 'POST',
        body: config,
      });
      assert.equal(created.status, 201);
      const validating = await call('/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
        token: rootToken,
        method: 'POST',
        body: {
          ...config,
          kind: 'ValidatingWebhookConfiguration',
          metadata: { name: 'audit-validators' },
          webhooks: [hook('broken-v.example.com', 'https://127.0.0.1:1/broken', { failurePolicy: 'Ignore' })],
        },
      });
      assert.equal(validating.status, 201);
      const mutation = (webhook: string, mutated: boolean): string =>
        `{"configuration":"audit-mutators","webhook":"${webhook}","mutated":${String(mutated)}}`;
      const expected = {
        'mutation.webhook.admission.k8s.io/round_0_index_0': mutation('labeler.example.com', true),
        'mutation.webhook.admission.k8s.io/round_0_index_1': mutation('noop.example.com', false),
        'mutation.webhook.admission.k8s.io/round_0_index_2': mutation('broken.example.com', false),
        'failed-open.mutation.webhook.admission.k8s.io/round_0_index_2': 'broken.example.com',
        'failed-open.validating.webhook.admission.k8s.io/round_0_index_0': 'broken-v.example.com',
      };
      const admissionAnnotations = (e: AuditEvent): Record<string, string> =>
        Object.fromEntries(
          Object.entries(e.annotations ?? {}).filter(([k]) => k.includes('webhook.admission.k8s.io/')),
        );
      // The plugin sees the configuration once its watch has: create until one is annotated.
      for (let i = 0; ; i++) {
        const res = await call('/api/v1/namespaces/default/configmaps', {
          token: rootToken,
          method: 'POST',
          body: { metadata: { name: `mutated-${String(i)}`, labels: { 'audit-mutate': 'yes' } } },
        });
        assert.equal(res.status, 201);
        const e = await eventWhere((x) => x.auditID === res.headers.get('audit-id'));
        const both = ['mutation', 'failed-open.validating'].every(
          (k) => e.annotations?.[`${k}.webhook.admission.k8s.io/round_0_index_0`] !== undefined,
        );
        if (both) {
          assert.equal(e.level, 'Metadata');
          assert.deepEqual(admissionAnnotations(e), expected);
          break;
        }
        assert.ok(i < 200, 'the webhook configurations never took effect');
      }
      const sa = await call('/api/v1/namespaces/default/serviceaccounts', {
        token: rootToken,
        method: 'POST',
        body: { metadata: { name: 'mutated-sa', labels: { 'audit-mutate': 'yes' } } },
      });
      assert.equal(sa.status, 201);
      const e = await eventWhere((x) => x.auditID === sa.headers.get('audit-id'));
      assert.equal(e.level, 'Request');
      assert.deepEqual(admissionAnnotations(e), {
        ...expected,
        'patch.webhook.admission.k8s.io/round_0_index_0':
          '{"configuration":"audit-mutators","webhook":"labeler.example.com","patch":[{"op":"add","path":"/metadata/labels/mutated","value":"yes"}],"patchType":"JSONPatch"}',
      });
    } finally {
      await wh.close();
    }
  });
  it("records PodSecurity's enforce-policy and audit violations in the event", async () => {
    const ns = await call('/api/v1/namespaces', {
      token: rootToken,
      method: 'POST',
      body: {
        metadata: {
          name: 'pss',
          labels: {
            'pod-security.kubernetes.io/enforce': 'baseline',
            'pod-security.kubernetes.io/audit': 'restricted',
          },
        },
      },
    });
    assert.equal(ns.status, 201);
    const container = { name: 'c', image: 'busybox' };
    const pod = await call('/api/v1/namespaces/pss/pods', {
      token: rootToken,
      method: 'POST',
      body: { metadata: { name: 'p' }, spec: { containers: [container] } },
    });
    assert.equal(pod.status, 201);
    const e = await eventWhere((x) => x.auditID === pod.headers.get('audit-id'));
    const annotations = e.annotations ?? {};
    assert.equal(annotations['pod-security.kubernetes.io/enforce-policy'], 'baseline:latest');
    assert.match(
      annotations['pod-security.kubernetes.io/audit-violations'] ?? '',
      /^would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false \(container "c" must set securityContext.allowPrivilegeEscalation=false\)/,
    );
    const deployment = await call('/apis/apps/v1/namespaces/pss/deployments', {
      token: rootToken,
      method: 'POST',
      body: {
        metadata: { name: 'd' },
        spec: {
          selector: { matchLabels: { app: 'd' } },
          template: { metadata: { labels: { app: 'd' } }, spec: { containers: [container] } },
        },
      },
    });
    assert.equal(deployment.status, 201);
    const d = await eventWhere((x) => x.auditID === deployment.headers.get('audit-id'));
    assert.equal(d.annotations?.['pod-security.kubernetes.io/enforce-policy'], undefined);
    assert.match(
      d.annotations?.['pod-security.kubernetes.io/audit-violations'] ?? '',
      /^would violate PodSecurity "restricted:latest"/,
    );
  });
});
