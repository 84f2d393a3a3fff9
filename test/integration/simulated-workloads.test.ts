// --simulate on a virtual clock: the StatefulSet, DaemonSet, Indexed Job, TTL-after-finished,
// CronJob, endpoints, PodGC and disruption controllers against one server. Time only moves when a
// test advances it: CronJob schedules, graceful deletions and TTLs are driven, never waited out.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { waitFor } from './support/wait-for.js';

interface Obj {
  metadata: {
    name: string;
    uid?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    deletionTimestamp?: string;
    creationTimestamp?: string;
  };
  spec?: Record<string, unknown> & {
    nodeName?: string;
    hostname?: string;
    volumes?: { name: string; persistentVolumeClaim?: { claimName: string } }[];
    containers?: { env?: { name: string }[] }[];
  };
  status?: Record<string, unknown> & {
    conditions?: { type: string; status: string; reason?: string }[];
  };
  subsets?: { addresses?: { ip: string }[]; ports?: { port: number }[] }[];
}
interface List {
  items: Obj[];
}

let server: CapstanServer;
let token = '';
before(async () => {
  server = await startCapstan({ scheme: 'http', clock: 'virtual', simulate: { nodes: 3 } });
  token = server.kubeConfig.users[0]?.user.token ?? '';
});
after(async () => {
  await server.stop();
});

async function api<T = Obj>(
  path: string,
  init: { method?: string; body?: unknown; patch?: boolean } = {},
): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': init.patch === true ? 'application/merge-patch+json' : 'application/json',
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${init.method ?? 'GET'} ${path}: ${String(res.status)} ${text}`);
  return JSON.parse(text) as T;
}

const ns = '/namespaces/default';
const names = (l: List): string[] => l.items.map((o) => o.metadata.name).sort();
const ready = (o: Obj): boolean =>
  o.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
const pods = (selector: string) =>
  api<List>(`/api/v1${ns}/pods?labelSelector=${encodeURIComponent(selector)}`);
const container = [{ name: 'c', image: 'busybox' }];
const runToCompletion = { 'capstan.dev/exit-code': '0', 'capstan.dev/run-seconds': '0' };

function statefulSet(name: string, extra: Record<string, unknown>, annotations: Record<string, string> = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name },
    spec: {
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name }, annotations }, spec: { containers: container } },
      ...extra,
    },
  };
}

describe('statefulset controller', () => {
  it('makes the claims from volumeClaimTemplates and the pods in order, with their identity', async () => {
    await api(`/apis/apps/v1${ns}/statefulsets`, {
      body: statefulSet('db', {
        replicas: 2,
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
      }),
    });
    const set = await waitFor(
      'db ready',
      () => api(`/apis/apps/v1${ns}/statefulsets/db`),
      (s) => s.status?.['readyReplicas'] === 2 && s.status['currentRevision'] === s.status['updateRevision'],
    );
    assert.equal(set.status?.['replicas'], 2);
    const claims = await api<List>(`/api/v1${ns}/persistentvolumeclaims?labelSelector=app%3Ddb`);
    assert.deepEqual(names(claims), ['data-db-0', 'data-db-1']);
    const list = await pods('app=db');
    assert.deepEqual(names(list), ['db-0', 'db-1']);
    for (const pod of list.items) {
      assert.equal(pod.spec?.hostname, pod.metadata.name);
      assert.equal(pod.spec['subdomain'], 'db');
      assert.equal(pod.metadata.labels?.['statefulset.kubernetes.io/pod-name'], pod.metadata.name);
      assert.equal(pod.metadata.labels['controller-revision-hash'], set.status['updateRevision']);
      const claim = pod.spec.volumes?.find((v) => v.name === 'data')?.persistentVolumeClaim?.claimName;
      assert.equal(claim, `data-${pod.metadata.name}`);
    }
  });

  it('OrderedReady waits for each pod to be Ready; Parallel makes them all at once', async () => {
    const pending = { 'capstan.dev/stay-pending': 'true' };
    await api(`/apis/apps/v1${ns}/statefulsets`, { body: statefulSet('ordered', { replicas: 3 }, pending) });
    await api(`/apis/apps/v1${ns}/statefulsets`, {
      body: statefulSet('par', { replicas: 3, podManagementPolicy: 'Parallel' }, pending),
    });
    await waitFor(
      'par pods',
      () => pods('app=par'),
      (l) => l.items.length === 3,
    );
    await waitFor(
      'ordered counted its first pod',
      () => api(`/apis/apps/v1${ns}/statefulsets/ordered`),
      (s) => s.status?.['replicas'] === 1,
    );
    assert.deepEqual(names(await pods('app=ordered')), ['ordered-0']);
  });

  it('scales down from the highest ordinal, one pod at a time', async () => {
    await api(`/apis/apps/v1${ns}/statefulsets/db`, {
      method: 'PATCH',
      patch: true,
      body: { spec: { replicas: 0 } },
    });
    const first = await waitFor(
      'db-1 terminating',
      () => pods('app=db'),
      (l) => l.items.some((p) => p.metadata.name === 'db-1' && p.metadata.deletionTimestamp !== undefined),
    );
    assert.equal(first.items.find((p) => p.metadata.name === 'db-0')?.metadata.deletionTimestamp, undefined);
    await server.clock.advance('31s');
    await waitFor(
      'db-0 terminating, db-1 gone',
      () => pods('app=db'),
      (l) => names(l).join() === 'db-0' && l.items[0]?.metadata.deletionTimestamp !== undefined,
    );
    await server.clock.advance('31s');
    await waitFor(
      'db empty',
      () => pods('app=db'),
      (l) => l.items.length === 0,
    );
    // The claims are retained.
    const claims = await api<List>(`/api/v1${ns}/persistentvolumeclaims?labelSelector=app%3Ddb`);
    assert.equal(claims.items.length, 2);
  });
});

describe('daemonset controller', () => {
  it('runs one pod on each node that matches, and counts them', async () => {
    const ds = (name: string, nodeSelector?: Record<string, string>) => ({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name },
      spec: {
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: { containers: container, ...(nodeSelector === undefined ? {} : { nodeSelector }) },
        },
      },
    });
    await api(`/apis/apps/v1${ns}/daemonsets`, { body: ds('agent') });
    await api(`/apis/apps/v1${ns}/daemonsets`, {
      body: ds('one', { 'kubernetes.io/hostname': 'sim-node-1' }),
    });
    const status = await waitFor(
      'agent ready on 3 nodes',
      () => api(`/apis/apps/v1${ns}/daemonsets/agent`),
      (d) => d.status?.['numberReady'] === 3,
    );
    assert.equal(status.status?.['desiredNumberScheduled'], 3);
    assert.equal(status.status['updatedNumberScheduled'], 3);
    const agents = await pods('app=agent');
    assert.deepEqual(agents.items.map((p) => p.spec?.nodeName).sort(), [
      'sim-node-0',
      'sim-node-1',
      'sim-node-2',
    ]);
    const one = await waitFor(
      'one on sim-node-1',
      () => pods('app=one'),
      (l) => l.items.some((p) => ready(p)),
    );
    assert.deepEqual(
      one.items.map((p) => p.spec?.nodeName),
      ['sim-node-1'],
    );
  });
});

describe('daemonset controller and taints', () => {
  const taint = (taints: { key: string; value: string; effect: string }[]) =>
    api('/api/v1/nodes/sim-node-2', { method: 'PATCH', patch: true, body: { spec: { taints } } });
  after(async () => {
    await taint([]);
  });

  it('keeps its pod on a node tainted NoSchedule (misscheduled), and leaves one tainted NoExecute', async () => {
    await taint([{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }]);
    const ds = await waitFor(
      'agent misscheduled on sim-node-2',
      () => api(`/apis/apps/v1${ns}/daemonsets/agent`),
      (d) => d.status?.['numberMisscheduled'] === 1,
    );
    assert.equal(ds.status?.['desiredNumberScheduled'], 2);
    const onNode2 = (l: List) => l.items.filter((p) => p.spec?.nodeName === 'sim-node-2');
    assert.equal(onNode2(await pods('app=agent'))[0]?.metadata.deletionTimestamp, undefined);
    await taint([{ key: 'dedicated', value: 'x', effect: 'NoExecute' }]);
    await waitFor(
      'agent pod on sim-node-2 deleted',
      () => pods('app=agent'),
      (l) => onNode2(l).every((p) => p.metadata.deletionTimestamp !== undefined),
    );
  });
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
  it('deletes the pods of a node that no longer exists', async () => {
    await api('/api/v1/nodes', { body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'ghost' } } });
    await api(`/api/v1${ns}/pods`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'haunted' },
        spec: { nodeName: 'ghost', containers: container },
      },
    });
    await api('/api/v1/nodes/ghost', { method: 'DELETE' });
    await waitFor(
      'haunted collected',
      () => api<List>(`/api/v1${ns}/pods`),
      (l) => !l.items.some((p) => p.metadata.name === 'haunted'),
    );
  });
});
