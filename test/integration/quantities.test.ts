// resource.Quantity over HTTP: quantities are written back in kube's canonical form, whatever
// form a client sent, on create, read, patch and list; a malformed one is a 400 with kube's text.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

type Resources = Record<string, Record<string, string>>;

describe('quantities over HTTP', () => {
  let server: CapstanServer;
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
  ): Promise<Reply> => {
    const token = server.kubeConfig.users[0]?.user.token ?? '';
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const pods = '/api/v1/namespaces/default/pods';
  const pod = (name: string, resources: Resources): unknown => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'c', image: 'nginx:1.25', resources }] },
  });
  const resourcesOf = (body: Record<string, unknown>): unknown =>
    (body as { spec: { containers: { resources: unknown }[] } }).spec.containers[0]?.resources;

  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
  });
  after(() => server.stop());

  it('reads back a pod created with 1000m and 1024Mi as "1" and 1Gi', async () => {
    const created = await call(
      'POST',
      pods,
      pod('canon', {
        requests: { cpu: '1000m', memory: '1024Mi' },
        limits: { cpu: '1000m', memory: '1Gi' },
      }),
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const want = { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } };
    assert.deepEqual(resourcesOf(created.body), want);
    const read = await call('GET', `${pods}/canon`);
    assert.deepEqual(resourcesOf(read.body), want);
    // Requests equal limits once compared exactly: Guaranteed.
    assert.equal((read.body as { status: { qosClass: string } }).status.qosClass, 'Guaranteed');
  });

  it('rewrites fractions, bare numbers and exponents, and keeps text already canonical', async () => {
    const created = await call('POST', pods, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'forms' },
      spec: {
        containers: [
          {
            name: 'c',
            image: 'nginx:1.25',
            resources: { requests: { cpu: 0.5, memory: '1.5Gi', 'ephemeral-storage': '2000000k' } },
          },
        ],
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(resourcesOf(created.body), {
      requests: { cpu: '500m', memory: '1536Mi', 'ephemeral-storage': '2G' },
    });
    const patched = await call(
      'PATCH',
      `${pods}/forms`,
      { metadata: { labels: { a: 'b' } } },
      'application/merge-patch+json',
    );
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual(resourcesOf(patched.body), {
      requests: { cpu: '500m', memory: '1536Mi', 'ephemeral-storage': '2G' },
    });
  });

  it('canonicalizes quantities set by a strategic merge patch and by server-side apply', async () => {
    const deployments = '/apis/apps/v1/namespaces/default/deployments';
    const deployment = (cpu: string): Record<string, unknown> => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: {
        selector: { matchLabels: { app: 'd' } },
        template: {
          metadata: { labels: { app: 'd' } },
          spec: { containers: [{ name: 'c', image: 'nginx:1.25', resources: { limits: { cpu } } }] },
        },
      },
    });
    const limitsOf = (body: Record<string, unknown>): unknown =>
      (body as { spec: { template: { spec: { containers: { resources: { limits: unknown } }[] } } } }).spec
        .template.spec.containers[0]?.resources.limits;
    const applied = await call(
      'PATCH',
      `${deployments}/d?fieldManager=me`,
      deployment('1500m'),
      'application/apply-patch+yaml',
    );
    assert.equal(applied.status, 201, JSON.stringify(applied.body));
    assert.deepEqual(limitsOf(applied.body), { cpu: '1500m' });
    const again = await call(
      'PATCH',
      `${deployments}/d?fieldManager=me`,
      deployment('1.5'),
      'application/apply-patch+yaml',
    );
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.deepEqual(limitsOf(again.body), { cpu: '1500m' });
    const merged = await call(
      'PATCH',
      `${deployments}/d`,
      {
        spec: {
          template: { spec: { containers: [{ name: 'c', resources: { limits: { memory: '2048Mi' } } }] } },
        },
      },
      'application/strategic-merge-patch+json',
    );
    assert.equal(merged.status, 200, JSON.stringify(merged.body));
    assert.deepEqual(limitsOf(merged.body), { cpu: '1500m', memory: '2Gi' });
  });

  it('refuses a malformed quantity with a 400 naming kube\u2019s error', async () => {
    const bad = await call('POST', pods, pod('bad', { requests: { cpu: '1.2.3' } }));
    assert.equal(bad.status, 400);
    assert.match(
      String(bad.body['message']),
      /quantities must match the regular expression '\^\(\[\+-\]\?\[0-9\.\]\+\)/,
    );
    const suffix = await call('POST', pods, pod('bad', { requests: { cpu: '1Kii' } }));
    assert.equal(suffix.status, 400);
    assert.match(String(suffix.body['message']), /unable to parse quantity's suffix/);
  });

  it('canonicalizes limit ranges and compares their bounds exactly', async () => {
    const ranges = '/api/v1/namespaces/default/limitranges';
    const ok = await call('POST', ranges, {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'lr' },
      spec: { limits: [{ type: 'Container', min: { cpu: '1000m' }, max: { cpu: '1' } }] },
    });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.deepEqual((ok.body as { spec: unknown }).spec, {
      // kube defaults default and defaultRequest from max.
      limits: [
        {
          type: 'Container',
          min: { cpu: '1' },
          max: { cpu: '1' },
          default: { cpu: '1' },
          defaultRequest: { cpu: '1' },
        },
      ],
    });
    const inverted = await call('POST', ranges, {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'lr2' },
      spec: { limits: [{ type: 'Container', min: { memory: '1025Mi' }, max: { memory: '1Gi' } }] },
    });
    assert.equal(inverted.status, 422);
    assert.match(String(inverted.body['message']), /min value 1025Mi is greater than max value 1Gi/);
  });
});
