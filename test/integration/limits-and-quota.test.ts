// LimitRanger and ResourceQuota over HTTP on one in-process server: a LimitRange's defaults appear on
// a created Pod; a ResourceQuota of 2 pods gets its status from the quota controller, refuses the
// third of three quick creates with kube's message (charged at admission, before any recount), and
// frees its count when a pod is deleted or finishes; a pods/resize is held to the LimitRange and
// charged what it adds to the quota.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type InProcessServer } from './support/in-process-server.js';

type Obj = Record<string, unknown> & {
  metadata?: { name?: string; annotations?: Record<string, string> };
};

/** Polls until `probe` answers something other than undefined (at most 10 s). */
async function eventually<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const got = await probe();
    if (got !== undefined) return got;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${what}: not reached within 10 s`);
}

const pod = (name: string): Obj => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'app', image: 'nginx' }] },
});

describe('LimitRanger and ResourceQuota', () => {
  let s: InProcessServer;

  const makeNamespace = async (name: string): Promise<void> => {
    await s.json('/api/v1/namespaces', {
      method: 'POST',
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
    });
    // The ServiceAccount plugin wants the namespace's default account, which its controller makes.
    await eventually(`${name}/default service account`, async () => {
      const r = await s.request(`/api/v1/namespaces/${name}/serviceaccounts/default`);
      return r.status === 200 ? true : undefined;
    });
  };
  const usedPods = async (ns: string): Promise<string | undefined> => {
    const q = await s.json<{ status?: { hard?: Record<string, string>; used?: Record<string, string> } }>(
      `/api/v1/namespaces/${ns}/resourcequotas/pods-quota`,
    );
    return q.status?.hard?.['pods'] === '2' ? q.status.used?.['pods'] : undefined;
  };

  before(async () => {
    s = await startInProcess((o) => {
      o.storage.backend = 'memory';
    });
  });
  after(async () => {
    await s.stop();
  });

  it('puts a LimitRange’s defaults on a created Pod, with kube’s annotation', async () => {
    await makeNamespace('limits');
    await s.json('/api/v1/namespaces/limits/limitranges', {
      method: 'POST',
      body: {
        apiVersion: 'v1',
        kind: 'LimitRange',
        metadata: { name: 'defaults' },
        spec: {
          limits: [
            { type: 'Container', default: { cpu: '200m', memory: '128Mi' }, defaultRequest: { cpu: '100m' } },
          ],
        },
      },
    });
    const created = await s.json<Obj & { spec: { containers: Array<{ resources?: unknown }> } }>(
      '/api/v1/namespaces/limits/pods',
      { method: 'POST', body: pod('web') },
    );
    assert.deepEqual(created.spec.containers[0]?.resources, {
      limits: { cpu: '200m', memory: '128Mi' },
      requests: { cpu: '100m', memory: '128Mi' },
    });
    assert.equal(
      created.metadata?.annotations?.['kubernetes.io/limit-ranger'],
      'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app',
    );
  });

  it('refuses the third of three quick creates under a quota of 2 pods, and frees it on delete', async () => {
    await makeNamespace('quota');
    await s.json('/api/v1/namespaces/quota/resourcequotas', {
      method: 'POST',
      body: {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'pods-quota' },
        spec: { hard: { pods: '2' } },
      },
    });
    await eventually('quota status from the controller', () => usedPods('quota'));
    assert.equal(await usedPods('quota'), '0');

    const replies = await Promise.all(
      ['p1', 'p2', 'p3'].map(async (name) => ({
        name,
        ...(await s.request('/api/v1/namespaces/quota/pods', { method: 'POST', body: pod(name) })),
      })),
    );
    assert.deepEqual(replies.map((r) => r.status).sort(), [201, 201, 403]);
    const refused = replies.find((r) => r.status === 403);
    const status = JSON.parse(refused?.body ?? '{}') as { reason?: string; message?: string; code?: number };
    assert.equal(status.reason, 'Forbidden');
    assert.equal(status.code, 403);
    assert.equal(
      status.message,
      `pods "${refused?.name ?? ''}" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2`,
    );
    assert.equal(await usedPods('quota'), '2');

    const admitted = replies.filter((r) => r.status === 201).map((r) => r.name);
    await s.json(`/api/v1/namespaces/quota/pods/${admitted[0] ?? ''}?gracePeriodSeconds=0`, {
      method: 'DELETE',
    });
    await eventually('the count freed by the delete', async () =>
      (await usedPods('quota')) === '1' ? true : undefined,
    );
    await s.json('/api/v1/namespaces/quota/pods', { method: 'POST', body: pod('p4') });
    assert.equal(await usedPods('quota'), '2');
  });

  it('does not count a pod that has finished', async () => {
    const path = '/api/v1/namespaces/quota/pods/p4';
    const current = await s.json<Obj>(path);
    await s.json(`${path}/status`, { method: 'PUT', body: { ...current, status: { phase: 'Succeeded' } } });
    await eventually('the count freed by the finished pod', async () =>
      (await usedPods('quota')) === '1' ? true : undefined,
    );
    await s.json('/api/v1/namespaces/quota/pods', { method: 'POST', body: pod('p5') });
  });
  it('holds a pods/resize to the LimitRange and charges what it adds to the quota', async () => {
    await makeNamespace('resize');
    await s.json('/api/v1/namespaces/resize/limitranges', {
      method: 'POST',
      body: {
        apiVersion: 'v1',
        kind: 'LimitRange',
        metadata: { name: 'max' },
        spec: { limits: [{ type: 'Container', max: { cpu: '1' } }] },
      },
    });
    await s.json('/api/v1/namespaces/resize/resourcequotas', {
      method: 'POST',
      body: {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'cpu-quota' },
        spec: { hard: { 'requests.cpu': '500m' } },
      },
    });
    const usedCPU = async (): Promise<string | undefined> => {
      const q = await s.json<{ status?: { hard?: Record<string, string>; used?: Record<string, string> } }>(
        '/api/v1/namespaces/resize/resourcequotas/cpu-quota',
      );
      return q.status?.hard === undefined ? undefined : q.status.used?.['requests.cpu'];
    };
    await eventually('quota status from the controller', usedCPU);
    const sized: Obj = {
      ...pod('r1'),
      spec: {
        containers: [
          { name: 'app', image: 'nginx', resources: { requests: { cpu: '200m' }, limits: { cpu: '400m' } } },
        ],
      },
    };
    await s.json('/api/v1/namespaces/resize/pods', { method: 'POST', body: sized });
    assert.equal(await usedCPU(), '200m');
    const resize = (request: string, limit: string) =>
      s.request('/api/v1/namespaces/resize/pods/r1/resize', {
        method: 'PATCH',
        headers: { 'content-type': 'application/strategic-merge-patch+json' },
        body: {
          spec: {
            containers: [{ name: 'app', resources: { requests: { cpu: request }, limits: { cpu: limit } } }],
          },
        },
      });
    const overMax = await resize('400m', '2');
    assert.equal(overMax.status, 403, overMax.body);
    assert.match(overMax.body, /maximum cpu usage per Container is 1, but limit is 2/);
    const overQuota = await resize('600m', '800m');
    assert.equal(overQuota.status, 403, overQuota.body);
    assert.equal(
      (JSON.parse(overQuota.body) as { message?: string }).message,
      'pods "r1" is forbidden: exceeded quota: cpu-quota, requested: requests.cpu=400m, used: requests.cpu=200m, limited: requests.cpu=500m',
    );
    const fits = await resize('300m', '400m');
    assert.equal(fits.status, 200, fits.body);
    assert.equal(await usedCPU(), '300m');
  });
});
