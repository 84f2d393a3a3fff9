// Pod tracking with the batch.kubernetes.io/job-tracking finalizer and uncountedTerminatedPods,
// over real in-memory storages without a kubelet: the test writes the pods' phases itself.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Job, JobSpec } from '../../../api/batch/v1/job.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { waitFor } from '../../../machinery/testing/wait-for.js';
import { internalContext } from '../../../registry/rest/context.js';
import { rfc3339 } from '../simulation/clock.js';
import { startWorkloadHarness, type WorkloadHarness } from '../simulation/testing/workload-harness.js';
import { startJobController, useJobController } from './testing/job-controller-harness.js';

const ns = 'default';
const tracking = 'batch.kubernetes.io/job-tracking';

function createJob(
  h: WorkloadHarness,
  name: string,
  spec: JobSpec & { finalizers?: string[] },
): Promise<Job> {
  const { finalizers, ...rest } = spec;
  return h.client.create<Job>('batch/v1/jobs', ns, {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: ns },
    spec: {
      ...rest,
      template: {
        ...(finalizers === undefined ? {} : { metadata: { finalizers } }),
        spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] },
      },
    },
  });
}

const getJob = (h: WorkloadHarness, name: string) => () =>
  h.client.get<Job>('batch/v1/jobs', { namespace: ns, name });

/** The Job's pods, by name. */
async function podsOf(h: WorkloadHarness, job: string): Promise<Pod[]> {
  const list = await h.client.source('/v1/pods').list(internalContext({ namespace: ns }), {});
  return (list.items as Pod[])
    .filter((p) => p.metadata?.labels?.['batch.kubernetes.io/job-name'] === job)
    .sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
}

/** Writes the pod's phase as its kubelet would; a Running pod is not ready since now. */
async function setPhase(
  h: WorkloadHarness,
  pod: Pod,
  phase: 'Running' | 'Succeeded' | 'Failed',
): Promise<void> {
  const fresh = await h.client.get<Pod>('/v1/pods', { namespace: ns, name: pod.metadata?.name ?? '' });
  const now = rfc3339(h.clock.now());
  fresh.status = {
    ...fresh.status,
    phase,
    conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: now }],
  };
  await h.client.update('/v1/pods/status', fresh);
}

const deletePod = (h: WorkloadHarness, pod: Pod) =>
  h.client.delete('/v1/pods', { namespace: ns, name: pod.metadata?.name ?? '' }, {});

const reached = (type: string) => (j: Job) =>
  j.status?.conditions?.some((c) => c.type === type && c.status === 'True') === true;

describe('job controller: pods tracked with the job-tracking finalizer', () => {
  let h: WorkloadHarness;
  useJobController((made) => (h = made));

  it('creates pods with the tracking finalizer after the template’s own', async () => {
    await createJob(h, 'fin', { completions: 1, finalizers: ['example.com/keep'] });
    const [pod] = await waitFor(
      'fin pod',
      () => podsOf(h, 'fin'),
      (l) => l.length === 1,
    );
    assert.deepEqual(pod?.metadata?.finalizers, ['example.com/keep', tracking]);
  });

  it('counts a succeeded pod deleted afterwards, and lets every pod go once the Job completes', async () => {
    const creates = h.podCreates();
    await createJob(h, 'keep', { completions: 2, parallelism: 2 });
    const [a, b] = await waitFor(
      'two pods',
      () => podsOf(h, 'keep'),
      (l) => l.length === 2,
    );
    assert.ok(a !== undefined && b !== undefined);
    assert.deepEqual(a.metadata?.finalizers, [tracking]);
    await setPhase(h, a, 'Succeeded');
    await waitFor('a counted', getJob(h, 'keep'), (j) => j.status?.succeeded === 1);
    await deletePod(h, a);
    await waitFor(
      'a gone',
      () => podsOf(h, 'keep'),
      (l) => l.length === 1,
    );
    await setPhase(h, b, 'Succeeded');
    const done = await waitFor('keep complete', getJob(h, 'keep'), reached('Complete'));
    assert.equal(done.status?.succeeded, 2);
    assert.equal(done.status.failed ?? 0, 0);
    assert.deepEqual(done.status.uncountedTerminatedPods, {});
    // No pod replaced the deleted one, and the one left no longer carries the finalizer.
    assert.equal(h.podCreates() - creates, 2);
    assert.deepEqual(
      (await podsOf(h, 'keep')).map((p) => p.metadata?.finalizers ?? []),
      [[]],
    );
  });

  it('counts a running pod a user deleted as failed and replaces it after the backoff', async () => {
    await createJob(h, 'evicted', { completions: 1 });
    const [pod] = await waitFor(
      'pod',
      () => podsOf(h, 'evicted'),
      (l) => l.length === 1,
    );
    assert.ok(pod !== undefined);
    await setPhase(h, pod, 'Running');
    const creates = h.podCreates();
    await deletePod(h, pod);
    const counted = await waitFor('failure counted', getJob(h, 'evicted'), (j) => j.status?.failed === 1);
    assert.deepEqual(counted.status?.uncountedTerminatedPods, {});
    // The finalizer removed, the store lets the pod go.
    await waitFor(
      'pod gone',
      () => podsOf(h, 'evicted'),
      (l) => l.length === 0,
    );
    await h.advance(9_000);
    assert.equal(h.podCreates(), creates);
    await h.advance(1_000);
    await waitFor(
      'replaced',
      () => podsOf(h, 'evicted'),
      (l) => l.length === 1,
    );
    assert.equal(h.podCreates(), creates + 1);
  });

  it('completes a Job without completions once a pod succeeded and none runs', async () => {
    const creates = h.podCreates();
    await createJob(h, 'queue', { parallelism: 2 });
    const [a, b] = await waitFor(
      'two pods',
      () => podsOf(h, 'queue'),
      (l) => l.length === 2,
    );
    assert.ok(a !== undefined && b !== undefined);
    await setPhase(h, a, 'Succeeded');
    const one = await waitFor('a counted', getJob(h, 'queue'), (j) => j.status?.succeeded === 1);
    assert.equal(reached('Complete')(one), false);
    await setPhase(h, b, 'Failed');
    const done = await waitFor('queue complete', getJob(h, 'queue'), reached('Complete'));
    assert.deepEqual([done.status?.succeeded, done.status?.failed], [1, 1]);
    assert.deepEqual(done.status?.uncountedTerminatedPods, {});
    // The failed pod was not replaced: the first success ends the work.
    assert.equal(h.podCreates() - creates, 2);
  });

  it('counts the pods it deletes at activeDeadlineSeconds as failed, then lets them go', async () => {
    await createJob(h, 'slow', { completions: 1, activeDeadlineSeconds: 30 });
    const [pod] = await waitFor(
      'pod',
      () => podsOf(h, 'slow'),
      (l) => l.length === 1,
    );
    assert.ok(pod !== undefined);
    await setPhase(h, pod, 'Running');
    await h.advance(30_000);
    const failed = await waitFor('slow failed', getJob(h, 'slow'), reached('Failed'));
    assert.equal(failed.status?.failed, 1);
    assert.deepEqual(failed.status.uncountedTerminatedPods, {});
    await waitFor(
      'pods gone',
      () => podsOf(h, 'slow'),
      (l) => l.length === 0,
    );
  });

  it('removes the finalizer from the pods of a deleted Job, so they can go', async () => {
    await createJob(h, 'gone', { completions: 2, parallelism: 2 });
    const pods = await waitFor(
      'two pods',
      () => podsOf(h, 'gone'),
      (l) => l.length === 2,
    );
    assert.ok(pods.every((p) => p.metadata?.finalizers?.includes(tracking) === true));
    await h.client.delete(
      'batch/v1/jobs',
      { namespace: ns, name: 'gone' },
      { propagationPolicy: 'Background' },
    );
    await waitFor(
      'gone deleted',
      () =>
        h.client.get<Job>('batch/v1/jobs', { namespace: ns, name: 'gone' }).then(
          () => false,
          () => true,
        ),
      (deleted) => deleted,
    );
    await waitFor(
      'finalizers removed',
      () => podsOf(h, 'gone'),
      (l) => l.every((p) => (p.metadata?.finalizers ?? []).length === 0),
    );
    // The garbage collector (not running here) deletes them next; nothing holds them any more.
    for (const p of pods) await deletePod(h, p);
    await waitFor(
      'pods gone',
      () => podsOf(h, 'gone'),
      (l) => l.length === 0,
    );
  });
  it('removes the finalizer from an orphan pod that carries it', async () => {
    await h.client.create<Pod>('/v1/pods', ns, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'stray', namespace: ns, finalizers: [tracking] },
      spec: { containers: [{ name: 'c', image: 'busybox' }] },
    });
    await waitFor(
      'stray released',
      () => h.client.get<Pod>('/v1/pods', { namespace: ns, name: 'stray' }),
      (p) => (p.metadata?.finalizers ?? []).length === 0,
    );
  });
});

describe('job controller: a restart between the steps of tracking', () => {
  it('counts each pod once, whichever step it had reached', async () => {
    const h = await startWorkloadHarness();
    let controller = await startJobController(h);
    try {
      await createJob(h, 'crash', { completions: 2, parallelism: 2 });
      const [a, b] = await waitFor(
        'two pods',
        () => podsOf(h, 'crash'),
        (l) => l.length === 2,
      );
      assert.ok(a !== undefined && b !== undefined);
      await waitFor('active', getJob(h, 'crash'), (j) => j.status?.active === 2);
      await controller.close();
      // Both pods succeeded and were written as uncounted; b's finalizer was removed and b is gone.
      await setPhase(h, a, 'Succeeded');
      await setPhase(h, b, 'Succeeded');
      const fresh = await h.client.get<Pod>('/v1/pods', { namespace: ns, name: b.metadata?.name ?? '' });
      await h.client.update('/v1/pods', { ...fresh, metadata: { ...fresh.metadata, finalizers: [] } });
      await deletePod(h, b);
      const creates = h.podCreates();
      const job = await getJob(h, 'crash')();
      job.status = {
        ...job.status,
        uncountedTerminatedPods: { succeeded: [a.metadata?.uid ?? '', b.metadata?.uid ?? ''] },
      };
      await h.client.update('batch/v1/jobs/status', job);
      controller = await startJobController(h);
      const done = await waitFor('crash complete', getJob(h, 'crash'), reached('Complete'));
      assert.equal(done.status?.succeeded, 2);
      assert.deepEqual(done.status.uncountedTerminatedPods, {});
      assert.equal(h.podCreates(), creates);
      const left = await podsOf(h, 'crash');
      assert.deepEqual(
        left.map((p) => [p.metadata?.name, p.metadata?.finalizers ?? []]),
        [[a.metadata?.name, []]],
      );
    } finally {
      await controller.close();
      await h.close();
    }
  });
});
