// --simulate on a virtual clock: the Indexed Job, TTL-after-finished, CronJob, endpoints,
// disruption and PodGC controllers against one server. Time only moves when a test advances it:
// CronJob schedules and TTLs are driven, never waited out.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CapstanServer } from '../../src/index.js';
import {
  container,
  ns,
  runToCompletion,
  startSimulated,
  type List,
  type Obj,
  type SimulatedServer,
} from './support/simulated-server.js';
import { waitFor } from './support/wait-for.js';

let server: CapstanServer;
let api: SimulatedServer['api'];
let pods: SimulatedServer['pods'];
before(async () => {
  ({ server, api, pods } = await startSimulated());
});
after(async () => {
  await server.stop();
});

describe('job controller, Indexed completion mode, and TTL-after-finished', () => {
  it('gives each pod its index and completes once every index succeeded', async () => {
    await api(`/apis/batch/v1${ns}/jobs`, {
      body: {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'idx' },
        spec: {
          completions: 3,
          parallelism: 3,
          completionMode: 'Indexed',
          ttlSecondsAfterFinished: 60,
          template: {
            metadata: { annotations: runToCompletion },
            spec: { restartPolicy: 'Never', containers: container },
          },
        },
      },
    });
    const job = await waitFor(
      'idx complete',
      () => api(`/apis/batch/v1${ns}/jobs/idx`),
      (j) => j.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True') === true,
    );
    assert.equal(job.status?.['completedIndexes'], '0-2');
    assert.equal(job.status['succeeded'], 3);
    const list = await pods('batch.kubernetes.io/job-name=idx');
    const indexes = list.items.map(
      (p) => p.metadata.annotations?.['batch.kubernetes.io/job-completion-index'],
    );
    assert.deepEqual(indexes.sort(), ['0', '1', '2']);
    for (const pod of list.items) {
      const index = pod.metadata.annotations?.['batch.kubernetes.io/job-completion-index'] ?? '';
      assert.equal(pod.spec?.hostname, `idx-${index}`);
      assert.ok(pod.spec.containers?.[0]?.env?.some((e) => e.name === 'JOB_COMPLETION_INDEX'));
      assert.match(pod.metadata.name, new RegExp(`^idx-${index}-[a-z0-9]{5}$`));
    }
  });

  it('deletes the finished Job once ttlSecondsAfterFinished have passed on the clock', async () => {
    await server.clock.advance('30s');
    assert.equal((await api(`/apis/batch/v1${ns}/jobs/idx`)).metadata.name, 'idx');
    await server.clock.advance('31s');
    await waitFor(
      'idx gone',
      () => api<List>(`/apis/batch/v1${ns}/jobs`),
      (l) => !l.items.some((j) => j.metadata.name === 'idx'),
    );
  });
});

describe('cronjob controller', () => {
  const cronJob = (name: string, spec: Record<string, unknown>, annotations: Record<string, string>) => ({
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name },
    spec: {
      jobTemplate: {
        spec: {
          template: { metadata: { annotations }, spec: { restartPolicy: 'Never', containers: container } },
        },
      },
      ...spec,
    },
  });
  const jobsOf = async (cj: string): Promise<Obj[]> =>
    (await api<List>(`/apis/batch/v1${ns}/jobs`)).items.filter((j) => j.metadata.name.startsWith(`${cj}-`));
  const toNextFiveMinutes = async (): Promise<number> => {
    const now = server.clock.now();
    const next = Math.floor(now / 300_000) * 300_000 + 300_000;
    await server.clock.advance(next - now + 1000);
    return next;
  };

  it('starts a Job at each activation of the schedule, keeping successfulJobsHistoryLimit', async () => {
    await api(`/apis/batch/v1${ns}/cronjobs`, {
      body: cronJob('tick', { schedule: '*/5 * * * *', successfulJobsHistoryLimit: 1 }, runToCompletion),
    });
    await waitFor(
      'tick seen',
      () => api(`/apis/batch/v1${ns}/cronjobs/tick`),
      (c) => c.metadata.uid !== undefined,
    );
    assert.equal((await jobsOf('tick')).length, 0);
    const first = await toNextFiveMinutes();
    const jobs = await waitFor(
      'a tick job',
      () => jobsOf('tick'),
      (l) => l.length === 1,
    );
    assert.equal(jobs[0]?.metadata.name, `tick-${String(first / 60_000)}`);
    assert.equal(
      jobs[0].metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'],
      new Date(first).toISOString().replace('.000Z', 'Z'),
    );
    const cj = await waitFor(
      'tick succeeded',
      () => api(`/apis/batch/v1${ns}/cronjobs/tick`),
      (c) => c.status?.['lastSuccessfulTime'] !== undefined && c.status['active'] === undefined,
    );
    assert.equal(cj.status?.['lastScheduleTime'], new Date(first).toISOString().replace('.000Z', 'Z'));
    const second = await toNextFiveMinutes();
    await waitFor(
      'only the newest tick job is kept',
      () => jobsOf('tick'),
      (l) => l.length === 1 && l[0]?.metadata.name === `tick-${String(second / 60_000)}`,
    );
  });

  it('Forbid does not start a Job while the last one runs', async () => {
    await api(`/apis/batch/v1${ns}/cronjobs`, {
      body: cronJob(
        'lone',
        { schedule: '*/5 * * * *', concurrencyPolicy: 'Forbid' },
        { 'capstan.dev/stay-pending': 'true' },
      ),
    });
    await waitFor(
      'lone seen',
      () => api(`/apis/batch/v1${ns}/cronjobs/lone`),
      (c) => c.metadata.uid !== undefined,
    );
    await toNextFiveMinutes();
    await waitFor(
      'one lone job',
      () => jobsOf('lone'),
      (l) => l.length === 1,
    );
    await waitFor(
      'lone active',
      () => api(`/apis/batch/v1${ns}/cronjobs/lone`),
      (c) => Array.isArray(c.status?.['active']),
    );
    await toNextFiveMinutes();
    const events = await waitFor(
      'JobAlreadyActive',
      () =>
        api<{ items: { reason?: string }[] }>(`/api/v1${ns}/events?fieldSelector=involvedObject.name%3Dlone`),
      (l) => l.items.some((e) => e.reason === 'JobAlreadyActive'),
    );
    assert.ok(events.items.length > 0);
    assert.equal((await jobsOf('lone')).length, 1);
  });
});

describe('endpoints and disruption controllers', () => {
  it('fills a Service’s Endpoints with its ready pods, and a budget’s status from them', async () => {
    for (const name of ['ep-a', 'ep-b'])
      await api(`/api/v1${ns}/pods`, {
        body: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name, labels: { app: 'ep' } },
          spec: {
            containers: [{ name: 'c', image: 'nginx', ports: [{ name: 'http', containerPort: 8080 }] }],
          },
        },
      });
    await api(`/api/v1${ns}/services`, {
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'ep' },
        spec: { selector: { app: 'ep' }, ports: [{ port: 80, targetPort: 'http' }] },
      },
    });
    const ep = await waitFor(
      'two addresses',
      () => api(`/api/v1${ns}/endpoints/ep`).catch((): Obj => ({ metadata: { name: '' } })),
      (e) => e.subsets?.[0]?.addresses?.length === 2,
    );
    assert.deepEqual(
      ep.subsets?.[0]?.ports?.map((p) => p.port),
      [8080],
    );
    const ips = (await pods('app=ep')).items.map((p) => p.status?.['podIP']).sort();
    assert.deepEqual(
      ep.subsets[0].addresses?.map((a) => a.ip),
      ips,
    );

    await api(`/apis/policy/v1${ns}/poddisruptionbudgets`, {
      body: {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'ep' },
        spec: { minAvailable: 1, selector: { matchLabels: { app: 'ep' } } },
      },
    });
    const pdb = await waitFor(
      'budget counted',
      () => api(`/apis/policy/v1${ns}/poddisruptionbudgets/ep`),
      (b) => b.status?.['expectedPods'] === 2,
    );
    assert.deepEqual(
      [pdb.status?.['currentHealthy'], pdb.status?.['desiredHealthy'], pdb.status?.['disruptionsAllowed']],
      [2, 1, 1],
    );

    await api(`/api/v1${ns}/services/ep`, { method: 'DELETE' });
    await waitFor(
      'endpoints gone',
      () => api<List>(`/api/v1${ns}/endpoints`),
      (l) => !l.items.some((e) => e.metadata.name === 'ep'),
    );
  });
});

describe('PodGC', () => {
  type PodView = Obj & { metadata: { finalizers?: string[] } };
  type Condition = { type: string; status: string; reason?: string; message?: string };
  const conditionOf = (p: Obj, type: string) =>
    (p.status?.conditions as Condition[] | undefined)?.find((c) => c.type === type);
  const hold = { finalizers: ['example.com/hold'] };
  const getPod = (name: string) => () => api<PodView>(`/api/v1${ns}/pods/${name}`);
  const release = async (name: string) => {
    await api(`/api/v1${ns}/pods/${name}`, {
      method: 'PATCH',
      patch: true,
      body: { metadata: { finalizers: null } },
    });
    await waitFor(
      `${name} gone`,
      () => api<List>(`/api/v1${ns}/pods`),
      (l) => !l.items.some((p) => p.metadata.name === name),
    );
  };

  it('marks the pods of a node missing for 40 s Failed (DeletionByPodGC), then deletes them', async () => {
    await api('/api/v1/nodes', { body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'ghost' } } });
    await api(`/api/v1${ns}/pods`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'haunted', ...hold },
        spec: { nodeName: 'ghost', containers: container },
      },
    });
    await api('/api/v1/nodes/ghost', { method: 'DELETE' });
    // kube's quarantine: a node may only be late in the informer; it is given 40 s to show up.
    await server.clock.advance('40s');
    const marked = await waitFor(
      'haunted marked and deleted',
      getPod('haunted'),
      (p) => p.metadata.deletionTimestamp !== undefined,
    );
    assert.equal(marked.status?.['phase'], 'Failed');
    const disruption = conditionOf(marked, 'DisruptionTarget');
    assert.deepEqual(
      [disruption?.status, disruption?.reason, disruption?.message],
      ['True', 'DeletionByPodGC', 'PodGC: node no longer exists'],
    );
    await release('haunted');
  });

  it('marks a terminating pod never scheduled Failed before it deletes it', async () => {
    await api(`/api/v1${ns}/pods`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'unplaced', ...hold },
        spec: { nodeSelector: { 'example.com/nowhere': 'true' }, containers: container },
      },
    });
    await api(`/api/v1${ns}/pods/unplaced`, { method: 'DELETE' });
    const marked = await waitFor(
      'unplaced marked Failed',
      getPod('unplaced'),
      (p) => p.status?.['phase'] === 'Failed',
    );
    assert.equal(
      marked.status?.conditions?.find((c) => c.type === 'DisruptionTarget'),
      undefined,
    );
    await release('unplaced');
  });
  it('force-deletes, marked Failed, a terminating pod of a node out of service', async () => {
    await api('/api/v1/nodes', { body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'flooded' } } });
    await api(`/api/v1${ns}/pods`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'stranded', ...hold },
        spec: { nodeName: 'flooded', containers: container },
      },
    });
    await api(`/api/v1${ns}/pods/stranded`, { method: 'DELETE' });
    // No kubelet answers for the node, which is not Ready: the pod stays Terminating until an
    // administrator declares the node out of service.
    await api('/api/v1/nodes/flooded', {
      method: 'PATCH',
      patch: true,
      body: { spec: { taints: [{ key: 'node.kubernetes.io/out-of-service', effect: 'NoExecute' }] } },
    });
    const marked = await waitFor(
      'stranded force-deleted',
      getPod('stranded'),
      (p) => (p.metadata as { deletionGracePeriodSeconds?: number }).deletionGracePeriodSeconds === 0,
    );
    assert.equal(marked.status?.['phase'], 'Failed');
    await release('stranded');
    await api('/api/v1/nodes/flooded', { method: 'DELETE' });
  });
});
