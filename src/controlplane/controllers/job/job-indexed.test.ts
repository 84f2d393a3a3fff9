// backoffLimitPerIndex, maxFailedIndexes, FailIndex rules and successPolicy of Indexed Jobs, over
// real in-memory storages without a kubelet: the test writes the pods' phases itself.
// test-batches: alone -- useJobController puts its hooks on the file's root, as a top-level before/after would.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Job, JobSpec } from '../../../api/batch/v1/job.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { waitFor } from '../../../machinery/testing/wait-for.js';
import { internalContext } from '../../../registry/rest/context.js';
import { rfc3339 } from '../simulation/clock.js';
import type { WorkloadHarness } from '../simulation/testing/workload-harness.js';
import { useJobController } from './testing/job-controller-harness.js';

const ns = 'default';
const tracking = 'batch.kubernetes.io/job-tracking';
const indexLabel = 'batch.kubernetes.io/job-completion-index';
const failureCount = 'batch.kubernetes.io/job-index-failure-count';

let h: WorkloadHarness;
useJobController((made) => (h = made));

const createJob = (name: string, spec: JobSpec): Promise<Job> =>
  h.client.create<Job>('batch/v1/jobs', ns, {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: ns },
    spec: {
      completionMode: 'Indexed',
      ...spec,
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
    },
  });

const getJob = (name: string) => () => h.client.get<Job>('batch/v1/jobs', { namespace: ns, name });

/** The Job's pods, by index then name. */
async function podsOf(job: string): Promise<Pod[]> {
  const list = await h.client.source('/v1/pods').list(internalContext({ namespace: ns }), {});
  const index = (p: Pod) => Number(p.metadata?.labels?.[indexLabel] ?? -1);
  return (list.items as Pod[])
    .filter((p) => p.metadata?.labels?.['batch.kubernetes.io/job-name'] === job)
    .sort((a, b) => index(a) - index(b) || (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
}

/** The pods of the index not finished (nor being deleted). */
const runningAt = async (job: string, index: number): Promise<Pod[]> =>
  (await podsOf(job)).filter(
    (p) =>
      p.metadata?.labels?.[indexLabel] === String(index) &&
      p.metadata.deletionTimestamp === undefined &&
      p.status?.phase !== 'Failed' &&
      p.status?.phase !== 'Succeeded',
  );

const waitRunning = async (job: string, index: number): Promise<Pod> => {
  const [pod] = await waitFor(
    `${job} index ${String(index)} running`,
    () => runningAt(job, index),
    (l) => l.length === 1,
  );
  assert.ok(pod !== undefined);
  return pod;
};

/** Writes the pod's end as its kubelet would: its container exited with the code at the clock's now. */
async function finish(pod: Pod, exitCode: number): Promise<void> {
  const fresh = await h.client.get<Pod>('/v1/pods', { namespace: ns, name: pod.metadata?.name ?? '' });
  const now = rfc3339(h.clock.now());
  fresh.status = {
    ...fresh.status,
    phase: exitCode === 0 ? 'Succeeded' : 'Failed',
    conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: now }],
    containerStatuses: [
      {
        name: 'c',
        ready: false,
        restartCount: 0,
        image: 'busybox',
        imageID: '',
        state: { terminated: { exitCode, startedAt: now, finishedAt: now } },
      },
    ],
  };
  await h.client.update('/v1/pods/status', fresh);
}

const conditionsOf = (j: Job) =>
  (j.status?.conditions ?? []).map((c) => [c.type, c.status, c.reason, c.message]);
const reached = (type: string) => (j: Job) =>
  j.status?.conditions?.some((c) => c.type === type && c.status === 'True') === true;

describe('job controller: backoffLimitPerIndex', () => {
  it('retries an index after its own backoff, then marks it failed and fails the Job once the rest is done', async () => {
    const creates = h.podCreates();
    await createJob('per-index', { completions: 3, parallelism: 3, backoffLimitPerIndex: 1 });
    const started = await waitFor('three active', getJob('per-index'), (j) => j.status?.active === 3);
    assert.equal(started.status?.failedIndexes, '');
    const first = await waitRunning('per-index', 1);
    assert.equal(first.metadata?.annotations?.[failureCount], '0');
    await finish(first, 1);
    await waitFor('two active', getJob('per-index'), (j) => j.status?.active === 2);
    // The failed pod keeps its finalizer, so it is not counted, until its replacement exists.
    await h.advance(9_000);
    assert.equal(h.podCreates(), creates + 3);
    const held = (await podsOf('per-index')).find((p) => p.metadata?.uid === first.metadata?.uid);
    assert.deepEqual(held?.metadata?.finalizers, [tracking]);
    assert.equal((await getJob('per-index')()).status?.failed ?? 0, 0);
    await h.advance(1_000);
    const second = await waitRunning('per-index', 1);
    assert.equal(second.metadata?.annotations?.[failureCount], '1');
    await waitFor('first failure counted', getJob('per-index'), (j) => j.status?.failed === 1);

    await finish(second, 1);
    const marked = await waitFor(
      'index 1 failed',
      getJob('per-index'),
      (j) => j.status?.failedIndexes === '1',
    );
    assert.equal(reached('FailureTarget')(marked), false);
    await waitFor('second failure counted', getJob('per-index'), (j) => j.status?.failed === 2);
    // Not recreated, however long one waits.
    await h.advance(600_000);
    assert.deepEqual(await runningAt('per-index', 1), []);

    for (const index of [0, 2]) await finish(await waitRunning('per-index', index), 0);
    const failed = await waitFor('per-index failed', getJob('per-index'), reached('Failed'));
    assert.deepEqual(conditionsOf(failed), [
      ['FailureTarget', 'True', 'FailedIndexes', 'Job has failed indexes'],
      ['Failed', 'True', 'FailedIndexes', 'Job has failed indexes'],
    ]);
    assert.deepEqual(
      [failed.status?.completedIndexes, failed.status?.failedIndexes, failed.status?.succeeded],
      ['0,2', '1', 2],
    );
    assert.equal(h.podCreates(), creates + 4);
  });

  it('fails the Job with MaxFailedIndexesExceeded and deletes its other pods', async () => {
    await createJob('max-failed', {
      completions: 4,
      parallelism: 4,
      backoffLimitPerIndex: 0,
      maxFailedIndexes: 1,
    });
    await finish(await waitRunning('max-failed', 0), 1);
    const one = await waitFor('index 0 failed', getJob('max-failed'), (j) => j.status?.failedIndexes === '0');
    assert.equal(reached('FailureTarget')(one), false);
    await finish(await waitRunning('max-failed', 3), 2);
    const failed = await waitFor('max-failed failed', getJob('max-failed'), reached('Failed'));
    const message = 'Job has exceeded the specified maximal number of failed indexes';
    assert.deepEqual(conditionsOf(failed), [
      ['FailureTarget', 'True', 'MaxFailedIndexesExceeded', message],
      ['Failed', 'True', 'MaxFailedIndexesExceeded', message],
    ]);
    assert.equal(failed.status?.failedIndexes, '0,3');
    // The two still running were deleted and counted as failed.
    assert.equal(failed.status.failed, 4);
    await waitFor(
      'pods released',
      () => podsOf('max-failed'),
      (l) => l.every((p) => (p.metadata?.finalizers ?? []).length === 0),
    );
    await waitFor(
      'the failure recorded',
      () => h.eventsAbout(ns, 'max-failed'),
      (l) => l.some((e) => e.type === 'Warning' && e.reason === 'MaxFailedIndexesExceeded'),
    );
  });

  it('marks an index failed at once on a FailIndex rule', async () => {
    const creates = h.podCreates();
    await createJob('fail-index', {
      completions: 2,
      parallelism: 2,
      backoffLimitPerIndex: 3,
      podFailurePolicy: { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [42] } }] },
    });
    await finish(await waitRunning('fail-index', 0), 42);
    await waitFor('index 0 failed', getJob('fail-index'), (j) => j.status?.failedIndexes === '0');
    await h.advance(600_000);
    assert.deepEqual(await runningAt('fail-index', 0), []);
    await finish(await waitRunning('fail-index', 1), 0);
    const failed = await waitFor('fail-index failed', getJob('fail-index'), reached('Failed'));
    assert.equal(conditionsOf(failed)[1]?.[2], 'FailedIndexes');
    assert.deepEqual([failed.status?.failed, failed.status?.succeeded], [1, 1]);
    assert.equal(h.podCreates(), creates + 2);
  });
});

describe('job controller: successPolicy', () => {
  it('completes the Job once the succeededIndexes rule is met, deleting the pods still running', async () => {
    await createJob('leader', {
      completions: 3,
      parallelism: 3,
      successPolicy: { rules: [{ succeededIndexes: '0' }] },
    });
    const others = await Promise.all([waitRunning('leader', 1), waitRunning('leader', 2)]);
    await finish(await waitRunning('leader', 0), 0);
    const done = await waitFor('leader complete', getJob('leader'), reached('Complete'));
    const message = 'Matched rules at index 0';
    assert.deepEqual(conditionsOf(done), [
      ['SuccessCriteriaMet', 'True', 'SuccessPolicy', message],
      ['Complete', 'True', 'SuccessPolicy', message],
    ]);
    assert.deepEqual([done.status?.succeeded, done.status?.failed ?? 0], [1, 0]);
    assert.equal(done.status?.completedIndexes, '0');
    // Only the pod that succeeded is left, let go of.
    const left = await waitFor(
      'others gone',
      () => podsOf('leader'),
      (l) => l.length === 1,
    );
    assert.deepEqual(
      left.map((p) => [p.metadata?.labels?.[indexLabel], p.status?.phase, p.metadata?.finalizers ?? []]),
      [['0', 'Succeeded', []]],
    );
    assert.ok(others.every((o) => o.metadata?.labels?.[indexLabel] !== '0'));
  });

  it('completes the Job once succeededCount indexes succeeded', async () => {
    await createJob('quorum', {
      completions: 5,
      parallelism: 5,
      successPolicy: { rules: [{ succeededIndexes: '4' }, { succeededCount: 2 }] },
    });
    await finish(await waitRunning('quorum', 0), 0);
    await waitFor('one succeeded', getJob('quorum'), (j) => j.status?.succeeded === 1);
    assert.equal(reached('SuccessCriteriaMet')(await getJob('quorum')()), false);
    await finish(await waitRunning('quorum', 3), 0);
    const done = await waitFor('quorum complete', getJob('quorum'), reached('Complete'));
    assert.deepEqual(conditionsOf(done)[1], [
      'Complete',
      'True',
      'SuccessPolicy',
      'Matched rules at index 1',
    ]);
    assert.equal(done.status?.completedIndexes, '0,3');
    await waitFor(
      'running pods gone',
      () => podsOf('quorum'),
      (l) => l.length === 2,
    );
  });
});

describe('job controller: podReplacementPolicy Failed, Indexed', () => {
  it('gives a new pod to the failed index, not to the one whose pod is still terminating', async () => {
    await createJob('replace-failed', { completions: 3, parallelism: 3, podReplacementPolicy: 'Failed' });
    await waitFor('three active', getJob('replace-failed'), (j) => j.status?.active === 3);
    const [zero, one] = [await waitRunning('replace-failed', 0), await waitRunning('replace-failed', 1)];
    // No kubelet here: the deleted pod stays terminating.
    await h.client.delete('/v1/pods', { namespace: ns, name: zero.metadata?.name ?? '' }, {});
    await waitFor('one terminating', getJob('replace-failed'), (j) => j.status?.terminating === 1);
    await finish(one, 1);
    await waitFor('the failure counted', getJob('replace-failed'), (j) => j.status?.failed === 1);
    await h.advance(10_000);
    const replacement = await waitRunning('replace-failed', 1);
    assert.notEqual(replacement.metadata?.uid, one.metadata?.uid);
    assert.deepEqual(await runningAt('replace-failed', 0), []);
  });
});
