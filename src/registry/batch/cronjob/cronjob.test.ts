import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CronJob } from '../../../api/batch/v1/cron-job.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import type { Storage } from '../../rest/capabilities.js';
import { updateWith } from '../../apps/workload/testing.js';
import { cronJobStorageMap } from './storage.js';

const cronJob = (name: string, schedule: string, timeZone?: string): CronJob => ({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name },
  spec: {
    schedule,
    ...(timeZone === undefined ? {} : { timeZone }),
    jobTemplate: {
      spec: {
        template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox' }] } },
      },
    },
  },
});

describe('cronjobs', () => {
  let env: MemoryRESTOptions;
  let map: Record<string, Storage>;
  let store: Store<CronJob>;
  const ctx = testContext('default');
  before(async () => {
    env = await memoryRESTOptions();
    map = await cronJobStorageMap({ restOptionsGetter: env.getter });
    store = map['cronjobs'] as Store<CronJob>;
  });
  after(() => env.close());

  it('defaults Allow, not suspended, history 3 and 1; the job template gets no job defaults', async () => {
    const out = await store.create(ctx, cronJob('tick', '*/1 * * * *'), { options: {} });
    const spec = out.spec ?? {};
    assert.equal(spec.concurrencyPolicy, 'Allow');
    assert.equal(spec.suspend, false);
    assert.equal(spec.successfulJobsHistoryLimit, 3);
    assert.equal(spec.failedJobsHistoryLimit, 1);
    assert.equal(spec.jobTemplate?.spec?.backoffLimit, undefined);
    assert.equal(spec.jobTemplate?.spec?.template?.spec?.dnsPolicy, 'ClusterFirst');
    assert.deepEqual(Object.keys(map).sort(), ['cronjobs', 'cronjobs/status']);
    assert.deepEqual(store.shortNames(), ['cj']);
    assert.deepEqual(store.categories(), ['all']);
  });

  it('validates the schedule with the cron parser and TZ rules', async () => {
    await rejectsWithStatus(store.create(ctx, cronJob('bad', '61 * * * *'), { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'CronJob.batch "bad" is invalid: spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61',
    });
    await rejectsWithStatus(store.create(ctx, cronJob('tz', 'TZ=UTC 0 * * * *'), { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'CronJob.batch "tz" is invalid: spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
    });
  });

  it('validates the time zone', async () => {
    const ok = await store.create(ctx, cronJob('berlin', '0 9 * * *', 'Europe/Berlin'), { options: {} });
    assert.equal(ok.spec?.timeZone, 'Europe/Berlin');
    await rejectsWithStatus(
      store.create(ctx, cronJob('mars', '0 9 * * *', 'Mars/Olympus'), { options: {} }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'CronJob.batch "mars" is invalid: spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus',
      },
    );
    await rejectsWithStatus(store.create(ctx, cronJob('dots', '0 9 * * *', '../etc'), { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'CronJob.batch "dots" is invalid: spec.timeZone: Invalid value: "../etc": unknown time zone ../etc',
    });
  });

  it('limits the name to 52 characters and refuses a job template selector', async () => {
    const long = 'c'.repeat(53);
    await rejectsWithStatus(store.create(ctx, cronJob(long, '@daily'), { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message: `CronJob.batch "${long}" is invalid: metadata.name: Invalid value: "${long}": must be no more than 52 characters`,
    });
    const sel = cronJob('sel', '@daily');
    const jobSpec = sel.spec?.jobTemplate?.spec;
    if (jobSpec !== undefined) jobSpec.selector = { matchLabels: { a: 'b' } };
    await rejectsWithStatus(store.create(ctx, sel, { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'CronJob.batch "sel" is invalid: spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated',
    });
  });

  it('bumps the generation on spec changes and prints NAME SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE', async () => {
    const suspended = await store.update(
      ctx,
      'tick',
      updateWith<CronJob>((c) => {
        (c.spec ??= {}).suspend = true;
      }),
    );
    assert.equal(suspended.object.metadata?.generation, 2);
    const table = store.convertToTable(ctx, await store.list(ctx, {}), {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      [
        'Name',
        'Schedule',
        'Timezone',
        'Suspend',
        'Active',
        'Last Schedule',
        'Age',
        'Containers',
        'Images',
        'Selector',
      ],
    );
    const byName = new Map(table.rows.map((r) => [r.cells[0], r.cells.slice(1, 6)]));
    assert.deepEqual(byName.get('tick'), ['*/1 * * * *', '<none>', 'true', 0, '<none>']);
    assert.deepEqual(byName.get('berlin'), ['0 9 * * *', 'Europe/Berlin', 'false', 0, '<none>']);
  });
});
