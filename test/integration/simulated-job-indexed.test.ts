// --simulate on a virtual clock: what kube-controller-manager 1.33's Job controller does with the
// Indexed Job features backoffLimitPerIndex, maxFailedIndexes, the FailIndex action of
// podFailurePolicy and successPolicy. The pods of chosen indexes exit with chosen codes through
// pod stages put before the default ones: `test.capstan.dev/exit-<index>: "<code>"` on the template.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstan, type CapstanServer, type PodStage } from '../../src/index.js';
import { defaultPodStages } from '../../src/controlplane/controllers/kubelet/pod-stages.js';
import { container, ns, type List, type Obj } from './support/simulated-server.js';
import { waitFor } from './support/wait-for.js';
import { jsonCall } from './support/json-call.js';

const indexLabel = 'batch.kubernetes.io/job-completion-index';
const failureCount = 'batch.kubernetes.io/job-index-failure-count';
const exitAt = (index: number) => `test.capstan.dev/exit-${String(index)}`;

/** A running pod of index i whose template says `exitAt(i)` exits at once with that code. */
const indexStages: PodStage[] = [0, 1, 2, 3, 4].map((i) => ({
  name: `exit-index-${String(i)}`,
  selector: { phases: ['Running'], matchLabels: { [indexLabel]: String(i) }, hasAnnotations: [exitAt(i)] },
  delay: { seconds: 0 },
  next: { exit: { codeFromAnnotation: exitAt(i) } },
}));

let server: CapstanServer;
before(async () => {
  server = await startCapstan({
    scheme: 'http',
    clock: 'virtual',
    simulate: { nodes: 3, stages: { stages: [...indexStages, ...defaultPodStages.stages] } },
  });
});
after(async () => {
  await server.stop();
});

/** A GET, or a POST of `body`; a status of 300 or more fails. */
async function api<T = Obj>(path: string, body?: unknown): Promise<T> {
  const res = await jsonCall<T>(server, { method: body === undefined ? 'GET' : 'POST', path, body });
  if (res.status >= 300) throw new Error(`${path}: ${String(res.status)} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The Job's pods, by index then creation. */
const podsOf = async (job: string): Promise<Obj[]> =>
  (await api<List>(`/api/v1${ns}/pods?labelSelector=batch.kubernetes.io/job-name=${job}`)).items.sort(
    (a, b) =>
      Number(a.metadata.labels?.[indexLabel]) - Number(b.metadata.labels?.[indexLabel]) ||
      (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''),
  );
const phasesByIndex = async (job: string) =>
  (await podsOf(job)).map((p) => [p.metadata.labels?.[indexLabel], p.status?.['phase']]);

const indexedJob = (name: string, spec: Record<string, unknown>, annotations: Record<string, string>) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name },
  spec: {
    completionMode: 'Indexed',
    ...spec,
    template: { metadata: { annotations }, spec: { restartPolicy: 'Never', containers: container } },
  },
});
const getJob = (name: string) => () => api(`/apis/batch/v1${ns}/jobs/${name}`);
const conditionsOf = (o: Obj) =>
  ((o.status?.conditions ?? []) as { type: string; status: string; reason?: string; message?: string }[]).map(
    (c) => [c.type, c.status, c.reason, c.message],
  );
const finished = (o: Obj): boolean =>
  o.status?.conditions?.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') ===
  true;
const succeedAtOnce = { 'capstan.dev/exit-code': '0', 'capstan.dev/run-seconds': '0' };
const runLong = { 'capstan.dev/exit-code': '0', 'capstan.dev/run-seconds': '600' };

describe('job controller: backoffLimitPerIndex', () => {
  it('retries a failing index after its backoff, marks it failed past the limit, and fails the Job with FailedIndexes', async () => {
    await api(
      `/apis/batch/v1${ns}/jobs`,
      indexedJob(
        'per-index',
        { completions: 3, parallelism: 3, backoffLimitPerIndex: 1 },
        {
          ...succeedAtOnce,
          [exitAt(1)]: '1',
        },
      ),
    );
    await waitFor(
      'first try of index 1 failed',
      () => phasesByIndex('per-index'),
      (l) => l.some(([i, phase]) => i === '1' && phase === 'Failed'),
    );
    // Index 1 waits out its own 10 s backoff; the other indexes went on.
    await server.clock.advance('9s');
    assert.equal(
      (await podsOf('per-index')).filter((p) => p.metadata.labels?.[indexLabel] === '1').length,
      1,
    );
    await server.clock.advance('1s');
    const failed = await waitFor('per-index finished', getJob('per-index'), finished);
    assert.deepEqual(conditionsOf(failed), [
      ['FailureTarget', 'True', 'FailedIndexes', 'Job has failed indexes'],
      ['Failed', 'True', 'FailedIndexes', 'Job has failed indexes'],
    ]);
    assert.deepEqual(
      ['completedIndexes', 'failedIndexes', 'succeeded', 'failed'].map((k) => failed.status?.[k]),
      ['0,2', '1', 2, 2],
    );
    // Two tries of index 1, counted in their annotation, and no third.
    await server.clock.advance('10m');
    const tries = (await podsOf('per-index')).filter((p) => p.metadata.labels?.[indexLabel] === '1');
    assert.deepEqual(
      tries.map((p) => [p.metadata.annotations?.[failureCount], p.status?.['phase']]),
      [
        ['0', 'Failed'],
        ['1', 'Failed'],
      ],
    );
  });

  it('fails the Job with MaxFailedIndexesExceeded and stops the pods still running', async () => {
    await api(
      `/apis/batch/v1${ns}/jobs`,
      indexedJob(
        'max-failed',
        { completions: 4, parallelism: 4, backoffLimitPerIndex: 0, maxFailedIndexes: 1 },
        { ...runLong, [exitAt(1)]: '3', [exitAt(2)]: '3' },
      ),
    );
    const failed = await waitFor('max-failed finished', getJob('max-failed'), finished);
    const message = 'Job has exceeded the specified maximal number of failed indexes';
    assert.deepEqual(conditionsOf(failed), [
      ['FailureTarget', 'True', 'MaxFailedIndexesExceeded', message],
      ['Failed', 'True', 'MaxFailedIndexesExceeded', message],
    ]);
    assert.deepEqual(
      ['failedIndexes', 'failed', 'active'].map((k) => failed.status?.[k]),
      // active 0 is left out, as kube's omitempty does.
      ['1,2', 4, undefined],
    );
    // Indexes 0 and 3 were stopped (the kubelet wrote them Failed) and let go of.
    await waitFor(
      'running pods gone',
      () => phasesByIndex('max-failed'),
      (l) =>
        JSON.stringify(l) ===
        JSON.stringify([
          ['1', 'Failed'],
          ['2', 'Failed'],
        ]),
    );
  });

  it('fails an index at once on a FailIndex rule', async () => {
    const policy = {
      completions: 2,
      parallelism: 2,
      backoffLimitPerIndex: 6,
      podFailurePolicy: { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [42] } }] },
    };
    await api(
      `/apis/batch/v1${ns}/jobs`,
      indexedJob('fail-index', policy, { ...succeedAtOnce, [exitAt(0)]: '42' }),
    );
    const failed = await waitFor('fail-index finished', getJob('fail-index'), finished);
    assert.deepEqual(conditionsOf(failed)[1], ['Failed', 'True', 'FailedIndexes', 'Job has failed indexes']);
    assert.deepEqual(
      ['failedIndexes', 'completedIndexes', 'failed', 'succeeded'].map((k) => failed.status?.[k]),
      ['0', '1', 1, 1],
    );
    await server.clock.advance('10m');
    assert.deepEqual(await phasesByIndex('fail-index'), [
      ['0', 'Failed'],
      ['1', 'Succeeded'],
    ]);
  });
});

describe('job controller: successPolicy', () => {
  it('completes the Job once index 0 succeeded (succeededIndexes) and deletes the other pods', async () => {
    await api(
      `/apis/batch/v1${ns}/jobs`,
      indexedJob(
        'leader',
        { completions: 3, parallelism: 3, successPolicy: { rules: [{ succeededIndexes: '0' }] } },
        { ...runLong, [exitAt(0)]: '0' },
      ),
    );
    const done = await waitFor('leader finished', getJob('leader'), finished);
    const message = 'Matched rules at index 0';
    assert.deepEqual(conditionsOf(done), [
      ['SuccessCriteriaMet', 'True', 'SuccessPolicy', message],
      ['Complete', 'True', 'SuccessPolicy', message],
    ]);
    assert.deepEqual(
      ['completedIndexes', 'succeeded', 'failed', 'active'].map((k) => done.status?.[k]),
      ['0', 1, undefined, undefined],
    );
    // Complete only once the deleted pods were gone.
    assert.deepEqual(await phasesByIndex('leader'), [['0', 'Succeeded']]);
  });

  it('completes the Job once two indexes succeeded (succeededCount)', async () => {
    const successPolicy = { rules: [{ succeededIndexes: '3', succeededCount: 1 }, { succeededCount: 2 }] };
    await api(
      `/apis/batch/v1${ns}/jobs`,
      indexedJob(
        'quorum',
        { completions: 5, parallelism: 5, successPolicy },
        { ...runLong, [exitAt(0)]: '0', [exitAt(4)]: '0' },
      ),
    );
    const done = await waitFor('quorum finished', getJob('quorum'), finished);
    assert.deepEqual(conditionsOf(done)[1], [
      'Complete',
      'True',
      'SuccessPolicy',
      'Matched rules at index 1',
    ]);
    assert.equal(done.status?.['completedIndexes'], '0,4');
    assert.deepEqual(await phasesByIndex('quorum'), [
      ['0', 'Succeeded'],
      ['4', 'Succeeded'],
    ]);
  });
});
