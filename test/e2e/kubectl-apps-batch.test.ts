// The real kubectl against one Capstan process with the workload groups: apps/v1 deployments,
// statefulsets, daemonsets (create, set image, scale, apply, tables) and batch/v1 jobs and cronjobs
// (create, tables, schedule validation), `get all` and `api-resources`. kubectl's typed `create`
// commands send these kinds as protobuf. No controller-manager runs, so nothing creates
// ReplicaSets or Pods and the status counters stay at zero.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { kubectl as runKubectl, locateKubectl } from './support/kubectl.js';
import { kubectlSession } from './support/kubectl-session.js';
import { isAge, tableRows } from './support/kube-objects.js';

interface Workload {
  readonly metadata: {
    readonly name: string;
    readonly uid: string;
    readonly generation?: number;
    readonly labels?: Record<string, string>;
    readonly annotations?: Record<string, string>;
  };
  readonly spec: {
    readonly replicas?: number;
    readonly selector?: { matchLabels?: Record<string, string> };
    readonly strategy?: unknown;
    readonly revisionHistoryLimit?: number;
    readonly progressDeadlineSeconds?: number;
    readonly backoffLimit?: number;
    readonly completions?: number;
    readonly schedule?: string;
    readonly concurrencyPolicy?: string;
    readonly successfulJobsHistoryLimit?: number;
    readonly failedJobsHistoryLimit?: number;
    readonly template?: {
      readonly metadata?: { labels?: Record<string, string> };
      readonly spec?: { restartPolicy?: string; containers: { name: string; image: string }[] };
    };
  };
  readonly status?: Record<string, unknown>;
}

const manifests = (image: string, serviceName = 'db'): string => `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: ${serviceName}
  replicas: 2
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: pg, image: ${image}}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 1Gi}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      nodeSelector: {kubernetes.io/os: linux}
      containers: [{name: a, image: busybox}]
`;

describe('kubectl against capstan: apps/v1 and batch/v1', () => {
  let capstan: CapstanProcess;
  let dir: string;
  const { kubectl, ok, fails } = kubectlSession(() => capstan.kubeconfigPath);
  const getJson = async (resource: string, name: string): Promise<Workload> =>
    JSON.parse(await ok(['get', resource, name, '-o', 'json'])) as Workload;

  before(async () => {
    await locateKubectl();
    capstan = await startCapstanProcess();
    dir = await mkdtemp(join(tmpdir(), 'capstan-kubectl-apps-'));
  });

  after(async () => {
    await capstan.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('create deployment: the apps/v1 defaults, and no ReplicaSet since no controller runs', async () => {
    assert.equal(
      await ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=2']),
      'deployment.apps/web created\n',
    );
    const d = await getJson('deployment', 'web');
    assert.equal(d.spec.replicas, 2);
    assert.deepEqual(d.spec.selector, { matchLabels: { app: 'web' } });
    assert.deepEqual(d.spec.strategy, {
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
    });
    assert.equal(d.spec.revisionHistoryLimit, 10);
    assert.equal(d.spec.progressDeadlineSeconds, 600);
    assert.equal(d.spec.template?.spec?.restartPolicy, 'Always');
    assert.equal(d.metadata.generation, 1);
    assert.deepEqual(d.status, {});
    const rs = await kubectl(['get', 'rs']);
    assert.equal(rs.stdout, '');
    assert.equal(rs.stderr, 'No resources found in default namespace.\n');
  });

  it('get deploy prints NAME READY UP-TO-DATE AVAILABLE AGE, and -o wide adds CONTAINERS IMAGES SELECTOR', async () => {
    const [header, row] = tableRows(await ok(['get', 'deploy']));
    assert.deepEqual(header, ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
    assert.deepEqual(row?.slice(0, 4), ['web', '0/2', '0', '0']);
    assert.ok(isAge(row[4]), `age cell ${String(row[4])}`);
    const [wideHeader, wideRow] = tableRows(await ok(['get', 'deployments.apps', '-o', 'wide']));
    assert.deepEqual(wideHeader, [
      'NAME',
      'READY',
      'UP-TO-DATE',
      'AVAILABLE',
      'AGE',
      'CONTAINERS',
      'IMAGES',
      'SELECTOR',
    ]);
    assert.deepEqual(wideRow?.slice(5), ['nginx', 'nginx', 'app=web']);
  });

  it('set image patches the template (strategic merge) and bumps the generation', async () => {
    assert.equal(
      await ok(['set', 'image', 'deployment/web', 'nginx=nginx:2']),
      'deployment.apps/web image updated\n',
    );
    const d = await getJson('deploy', 'web');
    assert.deepEqual(
      d.spec.template?.spec?.containers.map((c) => [c.name, c.image]),
      [['nginx', 'nginx:2']],
    );
    assert.equal(d.metadata.generation, 2);
  });

  it('scale goes through deployments/scale (autoscaling/v1 Scale)', async () => {
    assert.equal(await ok(['scale', 'deployment', 'web', '--replicas=3']), 'deployment.apps/web scaled\n');
    assert.equal((await getJson('deploy', 'web')).spec.replicas, 3);
    const scale = JSON.parse(
      await ok(['get', '--raw', '/apis/apps/v1/namespaces/default/deployments/web/scale']),
    ) as { kind: string; apiVersion: string; spec: unknown; status: unknown };
    assert.equal(scale.kind, 'Scale');
    assert.equal(scale.apiVersion, 'autoscaling/v1');
    assert.deepEqual(scale.spec, { replicas: 3 });
    assert.deepEqual(scale.status, { replicas: 0, selector: 'app=web' });
  });

  it('create job: a generated selector on the uid and the job labels on the template', async () => {
    assert.equal(await ok(['create', 'job', 'j', '--image=busybox']), 'job.batch/j created\n');
    const job = await getJson('job', 'j');
    const uid = job.metadata.uid;
    const labels = {
      'batch.kubernetes.io/controller-uid': uid,
      'batch.kubernetes.io/job-name': 'j',
      'controller-uid': uid,
      'job-name': 'j',
    };
    assert.deepEqual(job.spec.selector, { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } });
    assert.deepEqual(job.spec.template?.metadata?.labels, labels);
    assert.deepEqual(job.metadata.labels, labels);
    assert.equal(job.spec.backoffLimit, 6);
    assert.equal(job.spec.completions, 1);
    assert.equal(job.spec.template.spec?.restartPolicy, 'Never');
    const [header, row] = tableRows(await ok(['get', 'jobs']));
    assert.deepEqual(header, ['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE']);
    assert.deepEqual(row?.slice(0, 3), ['j', 'Running', '0/1']);
  });

  it('create cronjob: the batch/v1 defaults and the cron table; a bad schedule gets the parser error', async () => {
    assert.equal(
      await ok(['create', 'cronjob', 'c', '--image=busybox', '--schedule=*/1 * * * *']),
      'cronjob.batch/c created\n',
    );
    const cj = await getJson('cj', 'c');
    assert.equal(cj.spec.schedule, '*/1 * * * *');
    assert.equal(cj.spec.concurrencyPolicy, 'Allow');
    assert.equal(cj.spec.successfulJobsHistoryLimit, 3);
    assert.equal(cj.spec.failedJobsHistoryLimit, 1);
    const lines = (await ok(['get', 'cronjobs'])).trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^NAME\s+SCHEDULE\s+TIMEZONE\s+SUSPEND\s+ACTIVE\s+LAST SCHEDULE\s+AGE$/);
    assert.match(lines[1] ?? '', /^c\s+\*\/1 \* \* \* \*\s+<none>\s+false\s+0\s+<none>\s+\d+s$/);
    assert.equal(await ok(['create', 'job', 'manual', '--from=cronjob/c']), 'job.batch/manual created\n');
    const manual = await getJson('job', 'manual');
    assert.equal(manual.metadata.annotations?.['cronjob.kubernetes.io/instantiate'], 'manual');
    assert.deepEqual(Object.keys(manual.spec.selector?.matchLabels ?? {}), [
      'batch.kubernetes.io/controller-uid',
    ]);
    assert.equal(
      await fails(['create', 'cronjob', 'bad', '--image=busybox', '--schedule=61 * * * *']),
      'error: failed to create cronjob: CronJob.batch "bad" is invalid: spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61\n',
    );
  });

  it('apply statefulsets and daemonsets; only the mutable statefulset fields may change', async () => {
    const file = join(dir, 'workloads.yaml');
    await writeFile(file, manifests('postgres'));
    assert.equal(
      await ok(['apply', '-f', file]),
      'statefulset.apps/db created\ndaemonset.apps/agent created\n',
    );
    await writeFile(file, manifests('postgres:16'));
    assert.equal(
      await ok(['apply', '-f', file]),
      'statefulset.apps/db configured\ndaemonset.apps/agent unchanged\n',
    );
    const [stsHeader, stsRow] = tableRows(await ok(['get', 'sts']));
    assert.deepEqual(stsHeader, ['NAME', 'READY', 'AGE']);
    assert.deepEqual(stsRow?.slice(0, 2), ['db', '0/2']);
    const [dsHeader, dsRow] = tableRows(await ok(['get', 'ds']));
    assert.deepEqual(dsHeader, [
      'NAME',
      'DESIRED',
      'CURRENT',
      'READY',
      'UP-TO-DATE',
      'AVAILABLE',
      'NODE',
      'SELECTOR',
      'AGE',
    ]);
    assert.deepEqual(dsRow?.slice(0, 7), ['agent', '0', '0', '0', '0', '0', 'kubernetes.io/os=linux']);
    assert.equal(
      (await getJson('ds', 'agent')).metadata.annotations?.['deprecated.daemonset.template.generation'],
      '1',
    );
    await writeFile(file, manifests('postgres:16', 'other'));
    const stderr = await fails(['apply', '-f', file]);
    assert.match(
      stderr,
      /The StatefulSet "db" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden/,
    );
    assert.equal(await ok(['scale', 'sts', 'db', '--replicas=4']), 'statefulset.apps/db scaled\n');
    assert.equal((await getJson('sts', 'db')).spec.replicas, 4);
  });

  it('get all lists the workloads of the `all` category', async () => {
    const names = (await ok(['get', 'all', '-o', 'name']))
      .split('\n')
      .filter((l) => l !== '')
      .sort();
    assert.deepEqual(names, [
      'cronjob.batch/c',
      'daemonset.apps/agent',
      'deployment.apps/web',
      'job.batch/j',
      'job.batch/manual',
      'service/kubernetes',
      'statefulset.apps/db',
    ]);
  });

  it('api-resources lists the apps and batch resources with their short names', async () => {
    const rows = tableRows(await ok(['api-resources', '--api-group=apps']));
    assert.deepEqual(rows, [
      ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND'],
      ['controllerrevisions', 'apps/v1', 'true', 'ControllerRevision'],
      ['daemonsets', 'ds', 'apps/v1', 'true', 'DaemonSet'],
      ['deployments', 'deploy', 'apps/v1', 'true', 'Deployment'],
      ['replicasets', 'rs', 'apps/v1', 'true', 'ReplicaSet'],
      ['statefulsets', 'sts', 'apps/v1', 'true', 'StatefulSet'],
    ]);
    assert.deepEqual(tableRows(await ok(['api-resources', '--api-group=batch'])), [
      ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND'],
      ['cronjobs', 'cj', 'batch/v1', 'true', 'CronJob'],
      ['jobs', 'batch/v1', 'true', 'Job'],
    ]);
  });

  it('delete job (kubectl sends propagationPolicy=Background) removes it', async () => {
    assert.equal(await ok(['delete', 'job', 'j']), 'job.batch "j" deleted\n');
    const r = await kubectl(['get', 'job', 'j']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'Error from server (NotFound): jobs.batch "j" not found\n');
  });
});

describe('kubectl against capstan with --runtime-config=apps/v1=false', () => {
  let capstan: CapstanProcess;

  before(async () => {
    await locateKubectl();
    capstan = await startCapstanProcess({ args: ['--runtime-config=apps/v1=false'] });
  });

  after(async () => {
    await capstan.stop();
  });

  it('serves no deployments, while batch stays', async () => {
    const r = await runKubectl(['get', 'deploy'], { kubeconfig: capstan.kubeconfigPath });
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'error: the server doesn\'t have a resource type "deploy"\n');
    const versions = await runKubectl(['api-versions'], { kubeconfig: capstan.kubeconfigPath });
    const served = versions.stdout.split('\n');
    assert.ok(!served.includes('apps/v1'), versions.stdout);
    assert.ok(served.includes('batch/v1'), versions.stdout);
  });
});
