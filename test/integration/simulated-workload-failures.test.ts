// --simulate on a virtual clock: what the ReplicaSet, Deployment and Job controllers report when
// the ResourceQuota admission plugin refuses their pods, as kube-controller-manager 1.33 does:
// FailedCreate events, the ReplicaFailure condition on the ReplicaSet and its Deployment, and a
// status that still observes the generation.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CapstanServer } from '../../src/index.js';
import {
  container,
  startSimulated,
  type List,
  type Obj,
  type SimulatedServer,
} from './support/simulated-server.js';
import { waitFor } from './support/wait-for.js';

let server: CapstanServer;
let api: SimulatedServer['api'];
const ns = '/namespaces/capped';
before(async () => {
  ({ server, api } = await startSimulated());
  await api('/api/v1/namespaces', {
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'capped' } },
  });
  await api(`/api/v1${ns}/resourcequotas`, {
    body: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: '1' } } },
  });
  await waitFor(
    'quota counted',
    () => api(`/api/v1${ns}/resourcequotas/q`),
    (q) => (q.status?.['used'] as Record<string, string> | undefined)?.['pods'] === '0',
  );
});
after(async () => {
  await server.stop();
});

const condition = (o: Obj, type: string) =>
  o.status?.conditions?.find((c) => c.type === type) as
    { status: string; reason?: string; message?: string } | undefined;
const eventsAbout = async (name: string) =>
  (await api<List>(`/api/v1${ns}/events`)).items.filter(
    (e) => (e as unknown as { involvedObject: { name: string } }).involvedObject.name === name,
  ) as unknown as { type: string; reason: string; message: string }[];

describe('refused pod creates', () => {
  it('a Deployment past its quota: FailedCreate, ReplicaFailure on the ReplicaSet and the Deployment', async () => {
    await api(`/apis/apps/v1${ns}/deployments`, {
      body: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'web' } },
          template: { metadata: { labels: { app: 'web' } }, spec: { containers: container } },
        },
      },
    });
    const d = await waitFor(
      'web ReplicaFailure',
      () => api(`/apis/apps/v1${ns}/deployments/web`),
      (x) => condition(x, 'ReplicaFailure') !== undefined,
    );
    assert.equal((d.metadata as { generation?: number }).generation, 1);
    const [rs] = (await api<List>(`/apis/apps/v1${ns}/replicasets`)).items;
    assert.ok(rs);
    assert.equal(rs.status?.['observedGeneration'], 1);
    const failure = condition(rs, 'ReplicaFailure');
    assert.equal(failure?.status, 'True');
    assert.equal(failure.reason, 'FailedCreate');
    assert.match(
      failure.message ?? '',
      /^pods "web-[a-z0-9]+-[a-z0-9]+" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1$/,
    );
    assert.deepEqual(
      [condition(d, 'ReplicaFailure')?.status, condition(d, 'ReplicaFailure')?.reason],
      ['True', 'FailedCreate'],
    );
    const events = await eventsAbout(rs.metadata.name);
    const failed = events.find((e) => e.reason === 'FailedCreate');
    assert.equal(failed?.type, 'Warning');
    assert.match(failed.message, /^Error creating: pods "web-[a-z0-9-]+" is forbidden: exceeded quota: q, /);

    await api(`/api/v1${ns}/resourcequotas/q`, {
      method: 'PATCH',
      patch: true,
      body: { spec: { hard: { pods: '3' } } },
    });
    const healed = await waitFor(
      'web without ReplicaFailure',
      () => api(`/apis/apps/v1${ns}/deployments/web`),
      (x) => condition(x, 'ReplicaFailure') === undefined && x.status?.['replicas'] === 2,
      15_000,
    );
    assert.equal(healed.status?.['observedGeneration'], 1);
  });

  it('a Job past its quota: FailedCreate, and a status all the same', async () => {
    await api(`/api/v1${ns}/resourcequotas/q`, {
      method: 'PATCH',
      patch: true,
      body: { spec: { hard: { pods: '2' } } },
    });
    await waitFor(
      'quota at 2',
      () => api(`/api/v1${ns}/resourcequotas/q`),
      (q) => (q.status?.['hard'] as Record<string, string> | undefined)?.['pods'] === '2',
    );
    await api(`/apis/batch/v1${ns}/jobs`, {
      body: {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'pi' },
        spec: { template: { spec: { restartPolicy: 'Never', containers: container } } },
      },
    });
    const job = await waitFor(
      'pi started',
      () => api(`/apis/batch/v1${ns}/jobs/pi`),
      (j) => j.status?.['startTime'] !== undefined,
    );
    assert.equal(job.status?.['active'] ?? 0, 0);
    const events = await waitFor(
      'pi FailedCreate',
      () => eventsAbout('pi'),
      (l) => l.some((e) => e.reason === 'FailedCreate'),
    );
    assert.match(
      events.find((e) => e.reason === 'FailedCreate')?.message ?? '',
      /^Error creating: pods "pi-[a-z0-9]+" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2$/,
    );
  });
});
