// --simulate on a virtual clock: what kube-controller-manager 1.33's Job controller does with
// spec.suspend, podFailurePolicy and activeDeadlineSeconds, the pod failure backoff, the events it
// records when a Job finishes, and how the CronJob controller treats a Job made from it by hand
// (kubectl create job --from=cronjob/…).
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

type Condition = { type: string; status: string; reason?: string; message?: string };
const conditionsOf = (o: Obj): [string, string, string | undefined, string | undefined][] =>
  ((o.status?.conditions ?? []) as Condition[]).map((c) => [c.type, c.status, c.reason, c.message]);
const finished = (o: Obj): boolean =>
  o.status?.conditions?.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') ===
  true;
const eventsAbout = async (kind: string, name: string) =>
  (
    (await api<List>(`/api/v1${ns}/events`)).items as unknown as {
      involvedObject: { kind: string; name: string };
      type: string;
      reason: string;
      message: string;
    }[]
  )
    .filter((e) => e.involvedObject.kind === kind && e.involvedObject.name === name)
    .map((e) => [e.type, e.reason, e.message]);
const exitWith = (code: number) => ({
  'capstan.dev/exit-code': String(code),
  'capstan.dev/run-seconds': '0',
});
const job = (name: string, spec: Record<string, unknown>, annotations: Record<string, string>) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name },
  spec: {
    ...spec,
    template: { metadata: { annotations }, spec: { restartPolicy: 'Never', containers: container } },
  },
});
const getJob = (name: string) => () => api(`/apis/batch/v1${ns}/jobs/${name}`);

describe('job controller: suspend', () => {
  it('runs no pod while suspended, then resumes and completes', async () => {
    await api(`/apis/batch/v1${ns}/jobs`, { body: job('held', { suspend: true }, runToCompletion) });
    const held = await waitFor('Suspended', getJob('held'), (j) => (j.status?.conditions?.length ?? 0) > 0);
    assert.deepEqual(conditionsOf(held), [['Suspended', 'True', 'JobSuspended', 'Job suspended']]);
    // A Job that never ran has no startTime.
    assert.equal(held.status?.['startTime'], undefined);
    assert.deepEqual((await pods('batch.kubernetes.io/job-name=held')).items, []);

    await api(`/apis/batch/v1${ns}/jobs/held`, {
      method: 'PATCH',
      patch: true,
      body: { spec: { suspend: false } },
    });
    const done = await waitFor('held finished', getJob('held'), finished);
    assert.deepEqual(conditionsOf(done), [
      ['Suspended', 'False', 'JobResumed', 'Job resumed'],
      ['SuccessCriteriaMet', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods'],
      ['Complete', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods'],
    ]);
    assert.equal(typeof done.status?.['startTime'], 'string');
    const events = await waitFor(
      'Completed recorded',
      () => eventsAbout('Job', 'held'),
      (l) => l.some((e) => e[1] === 'Completed'),
    );
    assert.deepEqual(
      events.filter((e) => e[1] !== 'SuccessfulCreate'),
      [
        ['Normal', 'Suspended', 'Job suspended'],
        ['Normal', 'Resumed', 'Job resumed'],
        ['Normal', 'Completed', 'Job completed'],
      ],
    );
  });

  it('deletes the running pods of a Job suspended mid-run', async () => {
    const longRun = { 'capstan.dev/run-seconds': '600' };
    await api(`/apis/batch/v1${ns}/jobs`, {
      body: job('paused', { parallelism: 2, completions: 4 }, longRun),
    });
    await waitFor('two active', getJob('paused'), (j) => j.status?.['active'] === 2);
    await api(`/apis/batch/v1${ns}/jobs/paused`, {
      method: 'PATCH',
      patch: true,
      body: { spec: { suspend: true } },
    });
    const paused = await waitFor('Suspended', getJob('paused'), (j) =>
      conditionsOf(j).some((c) => c[0] === 'Suspended' && c[1] === 'True'),
    );
    assert.equal(paused.status?.['active'] ?? 0, 0);
    await waitFor(
      'pods gone',
      () => pods('batch.kubernetes.io/job-name=paused'),
      (l) => l.items.length === 0,
    );
    await api(`/apis/batch/v1${ns}/jobs/paused`, { method: 'DELETE' });
  });
});

describe('job controller: podFailurePolicy', () => {
  it('fails the Job at the first pod matching a FailJob rule, whatever the backoffLimit', async () => {
    const policy = {
      backoffLimit: 6,
      podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [3] } }] },
    };
    await api(`/apis/batch/v1${ns}/jobs`, { body: job('fatal', policy, exitWith(3)) });
    const failed = await waitFor('fatal finished', getJob('fatal'), finished);
    const [pod] = (await pods('batch.kubernetes.io/job-name=fatal')).items;
    const message = `Container c for pod default/${pod?.metadata.name ?? ''} failed with exit code 3 matching FailJob rule at index 0`;
    assert.deepEqual(conditionsOf(failed), [
      ['FailureTarget', 'True', 'PodFailurePolicy', message],
      ['Failed', 'True', 'PodFailurePolicy', message],
    ]);
    assert.equal(failed.status?.['failed'], 1);
    const events = await waitFor(
      'failure recorded',
      () => eventsAbout('Job', 'fatal'),
      (l) => l.some((e) => e[0] === 'Warning'),
    );
    assert.deepEqual(
      events.filter((e) => e[0] === 'Warning'),
      [['Warning', 'PodFailurePolicy', message]],
    );
  });

  it('does not count failures an Ignore rule matches against the backoffLimit', async () => {
    const policy = {
      backoffLimit: 0,
      podFailurePolicy: { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [5] } }] },
    };
    await api(`/apis/batch/v1${ns}/jobs`, { body: job('flaky', policy, exitWith(5)) });
    const failedPods = (n: number) => () =>
      waitFor(
        `${String(n)} failed pods`,
        () => pods('batch.kubernetes.io/job-name=flaky'),
        (l) => l.items.filter((p) => p.status?.['phase'] === 'Failed').length >= n,
      );
    await failedPods(1)();
    // An ignored failure still holds back the replacement for the pod failure backoff.
    await server.clock.advance('10s');
    await failedPods(2)();
    const flaky = await api(`/apis/batch/v1${ns}/jobs/flaky`);
    assert.equal(finished(flaky), false);
    assert.equal(flaky.status?.['failed'] ?? 0, 0);
    await api(`/apis/batch/v1${ns}/jobs/flaky`, {
      method: 'DELETE',
      body: { propagationPolicy: 'Background' },
    });
  });

  it('counts a running pod a user deleted as failed once its kubelet wrote it Failed, and replaces it', async () => {
    const policy = {
      backoffLimit: 6,
      podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }] },
    };
    await api(`/apis/batch/v1${ns}/jobs`, {
      body: job('interrupted', policy, { 'capstan.dev/run-seconds': '600' }),
    });
    const running = () =>
      pods('batch.kubernetes.io/job-name=interrupted').then((l) =>
        l.items.filter(
          (p) => p.status?.['phase'] === 'Running' && p.metadata.deletionTimestamp === undefined,
        ),
      );
    const [first] = await waitFor('interrupted running', running, (l) => l.length === 1);
    await api(`/api/v1${ns}/pods/${first?.metadata.name ?? ''}`, { method: 'DELETE' });
    // The kubelet stops it (exit code 143, no FailJob match): one failure counted, the pod let go.
    const counted = await waitFor(
      'the failure counted',
      getJob('interrupted'),
      (j) => j.status?.['failed'] === 1,
    );
    assert.equal(finished(counted), false);
    await waitFor(
      'the deleted pod gone',
      () => pods('batch.kubernetes.io/job-name=interrupted'),
      (l) => !l.items.some((p) => p.metadata.name === first?.metadata.name),
    );
    // The replacement comes after the pod failure backoff (10 s).
    await server.clock.advance('10s');
    const [second] = await waitFor('a replacement running', running, (l) => l.length === 1);
    assert.notEqual(second?.metadata.name, first?.metadata.name);
    await api(`/apis/batch/v1${ns}/jobs/interrupted`, {
      method: 'DELETE',
      body: { propagationPolicy: 'Background' },
    });
  });

  it('replaces failed pods only after the backoff delay: 10 s, then 20 s', async () => {
    await api(`/apis/batch/v1${ns}/jobs`, { body: job('retry', { backoffLimit: 2 }, exitWith(1)) });
    const podCount = () =>
      pods('batch.kubernetes.io/job-name=retry').then((l) => ({
        all: l.items.length,
        failed: l.items.filter((p) => p.status?.['phase'] === 'Failed').length,
      }));
    const settled = (n: number) =>
      waitFor(`${String(n)} failed`, podCount, (c) => c.failed === n && c.all === n);
    await settled(1);
    await server.clock.advance('9s');
    assert.deepEqual(await podCount(), { all: 1, failed: 1 });
    await server.clock.advance('1s');
    await settled(2);
    await server.clock.advance('19s');
    assert.deepEqual(await podCount(), { all: 2, failed: 2 });
    await server.clock.advance('1s');
    const failed = await waitFor('retry finished', getJob('retry'), finished);
    assert.equal(failed.status?.['failed'], 3);
    assert.deepEqual(conditionsOf(failed)[1], [
      'Failed',
      'True',
      'BackoffLimitExceeded',
      'Job has reached the specified backoff limit',
    ]);
  });

  it('fails a Job still running at activeDeadlineSeconds and deletes its pods', async () => {
    const longRun = { 'capstan.dev/run-seconds': '600' };
    await api(`/apis/batch/v1${ns}/jobs`, { body: job('slow', { activeDeadlineSeconds: 30 }, longRun) });
    await waitFor('slow active', getJob('slow'), (j) => j.status?.['active'] === 1);
    await server.clock.advance('29s');
    assert.equal(finished(await api(`/apis/batch/v1${ns}/jobs/slow`)), false);
    await server.clock.advance('1s');
    const failed = await waitFor('slow finished', getJob('slow'), finished);
    const message = 'Job was active longer than specified deadline';
    assert.deepEqual(conditionsOf(failed), [
      ['FailureTarget', 'True', 'DeadlineExceeded', message],
      ['Failed', 'True', 'DeadlineExceeded', message],
    ]);
    const events = await waitFor(
      'failure recorded',
      () => eventsAbout('Job', 'slow'),
      (l) => l.some((e) => e[0] === 'Warning'),
    );
    assert.deepEqual(
      events.filter((e) => e[0] === 'Warning'),
      [['Warning', 'DeadlineExceeded', message]],
    );
    await waitFor(
      'slow pods gone',
      () => pods('batch.kubernetes.io/job-name=slow'),
      (l) => l.items.length === 0,
    );
  });

  it('records BackoffLimitExceeded as a Warning once the Job failed', async () => {
    await api(`/apis/batch/v1${ns}/jobs`, { body: job('doomed', { backoffLimit: 0 }, exitWith(1)) });
    await waitFor('doomed finished', getJob('doomed'), finished);
    const events = await waitFor(
      'failure recorded',
      () => eventsAbout('Job', 'doomed'),
      (l) => l.some((e) => e[0] === 'Warning'),
    );
    assert.deepEqual(
      events.filter((e) => e[0] === 'Warning'),
      [['Warning', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit']],
    );
  });
});

describe('cronjob controller: a Job made by hand from a CronJob', () => {
  it('reports it as UnexpectedJob and leaves it out of status.active', async () => {
    const cj = await api(`/apis/batch/v1${ns}/cronjobs`, {
      body: {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        metadata: { name: 'nightly' },
        spec: {
          schedule: '0 3 * * *',
          jobTemplate: {
            spec: {
              template: { spec: { restartPolicy: 'Never', containers: container } },
            },
          },
        },
      },
    });
    // What kubectl create job manual --from=cronjob/nightly sends.
    await api(`/apis/batch/v1${ns}/jobs`, {
      body: {
        ...job('manual', {}, { 'capstan.dev/run-seconds': '600' }),
        metadata: {
          name: 'manual',
          annotations: { 'cronjob.kubernetes.io/instantiate': 'manual' },
          ownerReferences: [
            {
              apiVersion: 'batch/v1',
              kind: 'CronJob',
              name: 'nightly',
              uid: cj.metadata.uid,
              controller: true,
            },
          ],
        },
      },
    });
    await waitFor('manual running', getJob('manual'), (j) => j.status?.['active'] === 1);
    const events = await waitFor(
      'UnexpectedJob',
      () => eventsAbout('CronJob', 'nightly'),
      (l) => l.length > 0,
    );
    assert.deepEqual(events[0], [
      'Warning',
      'UnexpectedJob',
      'Saw a job that the controller did not create or forgot: manual',
    ]);
    const after = await api(`/apis/batch/v1${ns}/cronjobs/nightly`);
    assert.equal(after.status?.['active'], undefined);
    await api(`/apis/batch/v1${ns}/jobs/manual`, {
      method: 'DELETE',
      body: { propagationPolicy: 'Background' },
    });
  });
});

describe('job controller: the job-tracking finalizer', () => {
  const tracked = (l: List) =>
    l.items.every((p) =>
      ((p.metadata as { finalizers?: string[] }).finalizers ?? []).includes(
        'batch.kubernetes.io/job-tracking',
      ),
    );

  it('lets the pods of a Job deleted in the background go', async () => {
    const longRun = { 'capstan.dev/run-seconds': '600' };
    await api(`/apis/batch/v1${ns}/jobs`, {
      body: job('dropped', { parallelism: 2, completions: 2 }, longRun),
    });
    await waitFor('two active', getJob('dropped'), (j) => j.status?.['active'] === 2);
    assert.equal(tracked(await pods('batch.kubernetes.io/job-name=dropped')), true);
    await api(`/apis/batch/v1${ns}/jobs/dropped`, {
      method: 'DELETE',
      body: { propagationPolicy: 'Background' },
    });
    await waitFor(
      'dropped pods gone',
      () => pods('batch.kubernetes.io/job-name=dropped'),
      (l) => l.items.length === 0,
    );
  });

  it('lets a namespace holding a running Job be deleted', async () => {
    await api('/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'batch-gone' } },
    });
    await api('/apis/batch/v1/namespaces/batch-gone/jobs', {
      body: job('inside', {}, { 'capstan.dev/run-seconds': '600' }),
    });
    const podsInside = () => api<List>('/api/v1/namespaces/batch-gone/pods');
    await waitFor('inside running', podsInside, (l) => l.items.length === 1 && tracked(l));
    await api('/api/v1/namespaces/batch-gone', { method: 'DELETE' });
    // The namespace controller waits on the server's clock before it deletes the content.
    await waitFor(
      'namespace gone',
      async () => {
        await server.clock.advance('5s');
        return api('/api/v1/namespaces/batch-gone').then(
          () => false,
          (err: unknown) => String(err).includes(' 404 '),
        );
      },
      (gone) => gone,
    );
  });
});
