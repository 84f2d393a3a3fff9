import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CronJob } from '../../../api/batch/v1/cron-job.js';
import type { Job, JobSpec } from '../../../api/batch/v1/job.js';
import type { Store } from '../../generic/store.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { updateWith } from '../../apps/workload/testing.js';
import { jobStatusStrategy, jobStrategy } from '../job/strategy.js';
import { cronJobStorageMap } from './storage.js';
import { cronJobStatusStrategy, cronJobStrategy } from './strategy.js';

/** A job spec whose pod template repeats an environment variable without building on it. */
const jobSpec = (more: Partial<JobSpec> = {}): JobSpec => ({
  template: {
    spec: {
      restartPolicy: 'OnFailure',
      containers: [
        {
          name: 'c',
          image: 'busybox',
          env: [
            { name: 'MODE', value: 'a' },
            { name: 'MODE', value: 'b' },
          ],
        },
      ],
    },
  },
  ...more,
});
const envWarning = (root: string) =>
  `${root}.template.spec.containers[0].env[1]: hides previous definition of "MODE", which may be dropped when using apply`;
const nameWarning =
  'metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]';
const tzWarning =
  'cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details';

describe('cronjob warnings', () => {
  let env: MemoryRESTOptions;
  let store: Store<CronJob>;
  before(async () => {
    env = await memoryRESTOptions();
    store = (await cronJobStorageMap({ restOptionsGetter: env.getter }))['cronjobs'] as Store<CronJob>;
  });
  after(() => env.close());

  const cronJob = (name: string): CronJob => ({
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name },
    spec: { schedule: '@hourly', jobTemplate: { spec: jobSpec() } },
  });

  it('warns on create about the name and the pod template at spec.jobTemplate.spec.template', async () => {
    const ctx = testContext('default');
    await store.create(ctx, cronJob('nightly.report'), { options: {} });
    assert.deepEqual(ctx.warnings, [nameWarning, envWarning('spec.jobTemplate.spec')]);
  });

  it('warns on update only once the generation moves', async () => {
    await store.create(testContext('default'), cronJob('hourly'), { options: {} });
    const labelled = testContext('default');
    await store.update(
      labelled,
      'hourly',
      updateWith<CronJob>((cj) => {
        cj.metadata = { ...cj.metadata, labels: { team: 'a' } };
      }),
    );
    assert.deepEqual(labelled.warnings, []);
    const suspended = testContext('default');
    await store.update(
      suspended,
      'hourly',
      updateWith<CronJob>((cj) => {
        cj.spec = { ...cj.spec, suspend: true };
      }),
    );
    assert.deepEqual(suspended.warnings, [envWarning('spec.jobTemplate.spec')]);
  });

  it('names a TZ left in an old schedule on every update (validation refuses a new one), but not on /status', () => {
    const ctx = testContext('default');
    const cj: CronJob = { metadata: { name: 'tz', generation: 3 }, spec: { schedule: 'TZ=UTC @hourly' } };
    assert.deepEqual(cronJobStrategy.warningsOnUpdate(ctx, cj, cj), [tzWarning]);
    assert.deepEqual(cronJobStatusStrategy.warningsOnUpdate(), []);
  });
});

describe('job warnings', () => {
  const ctx = testContext('default');
  const job = (generation: number, more: Partial<JobSpec> = {}): Job => ({
    metadata: { name: 'batch.one', generation },
    spec: jobSpec(more),
  });

  it('warns on create about the name, a very large Indexed job and the template at spec.template', () => {
    const big = { completionMode: 'Indexed', completions: 100_001, parallelism: 10_001 };
    assert.deepEqual(jobStrategy.warningsOnCreate(ctx, job(1, big)), [
      nameWarning,
      'spec: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail',
      envWarning('spec'),
    ]);
    assert.deepEqual(jobStrategy.warningsOnCreate(ctx, job(1, { ...big, parallelism: 10_000 })), [
      nameWarning,
      envWarning('spec'),
    ]);
  });

  it('warns on update once the generation moves, and never on /status', () => {
    assert.deepEqual(jobStrategy.warningsOnUpdate(ctx, job(2), job(1)), [envWarning('spec')]);
    assert.deepEqual(jobStrategy.warningsOnUpdate(ctx, job(1), job(1)), []);
    assert.deepEqual(jobStatusStrategy.warningsOnUpdate(), []);
  });
});
