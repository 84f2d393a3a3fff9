import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Job } from '../../../api/batch/v1/job.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { podTemplate, updateWith } from '../../apps/workload/testing.js';
import { deleteOptionWarning, newJobREST, type JobREST } from './storage.js';
import type { StatusREST } from '../../generic/status-rest.js';

const job = (name: string, restartPolicy = 'Never'): Job => {
  const template = podTemplate({});
  delete template.metadata;
  if (template.spec !== undefined) template.spec.restartPolicy = restartPolicy;
  return { apiVersion: 'batch/v1', kind: 'Job', metadata: { name }, spec: { template } };
};

describe('jobs', () => {
  let env: MemoryRESTOptions;
  let jobs: JobREST;
  let status: StatusREST<Job>;
  const ctx = testContext('default');
  before(async () => {
    env = await memoryRESTOptions();
    ({ jobs, status } = await newJobREST({ restOptionsGetter: env.getter }));
  });
  after(() => env.close());

  it('fills the batch/v1 defaults and generates the selector from the uid', async () => {
    const out = await jobs.create(ctx, { ...job('pi'), status: { active: 3 } }, { options: {} });
    const spec = out.spec ?? {};
    const uid = out.metadata?.uid ?? '';
    assert.notEqual(uid, '');
    assert.equal(spec.completions, 1);
    assert.equal(spec.parallelism, 1);
    assert.equal(spec.backoffLimit, 6);
    assert.equal(spec.completionMode, 'NonIndexed');
    assert.equal(spec.suspend, false);
    assert.equal(spec.manualSelector, false);
    assert.equal(spec.podReplacementPolicy, 'TerminatingOrFailed');
    assert.deepEqual(spec.selector, { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } });
    const labels = {
      'batch.kubernetes.io/controller-uid': uid,
      'batch.kubernetes.io/job-name': 'pi',
      'controller-uid': uid,
      'job-name': 'pi',
    };
    assert.deepEqual(spec.template?.metadata?.labels, labels);
    assert.deepEqual(out.metadata?.labels, labels);
    assert.deepEqual(out.status, {});
    assert.equal(out.metadata.generation, 1);
    assert.deepEqual(jobs.categories(), ['all']);
    assert.deepEqual(jobs.shortNames(), []);
  });

  it('needs restartPolicy OnFailure or Never', async () => {
    await rejectsWithStatus(jobs.create(ctx, job('always', 'Always'), { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'Job.batch "always" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    });
  });

  it('refuses a manual selector that does not match the template', async () => {
    const manual = job('manual');
    manual.spec = { ...manual.spec, manualSelector: true, selector: { matchLabels: { run: 'x' } } };
    await rejectsWithStatus(jobs.create(ctx, manual, { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'Job.batch "manual" is invalid: spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`',
    });
  });

  it("refuses a successPolicy on a NonIndexed Job with kube's text", async () => {
    const nonIndexed = job('sp');
    nonIndexed.spec = {
      ...nonIndexed.spec,
      successPolicy: { rules: [{ succeededIndexes: '0', succeededCount: 1 }] },
    };
    await rejectsWithStatus(jobs.create(ctx, nonIndexed, { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'Job.batch "sp" is invalid: spec.successPolicy: Invalid value: {"Rules":[{"SucceededIndexes":"0","SucceededCount":1}]}: requires indexed completion mode',
    });
  });

  it("aggregates the policy errors of one spec in kube's order", async () => {
    const bad = job('policies');
    bad.spec = {
      ...bad.spec,
      completionMode: 'Indexed',
      completions: 2,
      parallelism: 2,
      podFailurePolicy: { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [0] } }] },
      successPolicy: { rules: [{ succeededIndexes: '0-2' }] },
    };
    await rejectsWithStatus(jobs.create(ctx, bad, { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'Job.batch "policies" is invalid: [spec.podFailurePolicy.rules[0].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set, spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator, spec.successPolicy.rules[0].succeededIndexes: Invalid value: "0-2": error parsing succeededIndexes: too large index: "2"]',
    });
  });

  it('creates an Indexed Job with backoffLimitPerIndex, a FailIndex rule and a successPolicy', async () => {
    const good = job('per-index');
    good.spec = {
      ...good.spec,
      completionMode: 'Indexed',
      completions: 3,
      parallelism: 3,
      backoffLimitPerIndex: 1,
      maxFailedIndexes: 1,
      podFailurePolicy: { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [42] } }] },
      successPolicy: { rules: [{ succeededIndexes: '0-1', succeededCount: 1 }] },
    };
    const out = await jobs.create(ctx, good, { options: {} });
    assert.equal(out.spec?.podReplacementPolicy, 'Failed');
    await jobs.delete(ctx, 'per-index', { options: { propagationPolicy: 'Background' } });
  });

  it('keeps the template immutable unless the job is suspended and never started', async () => {
    await rejectsWithStatus(
      jobs.update(
        ctx,
        'pi',
        updateWith<Job>((j) => {
          const spec = j.spec?.template?.spec;
          if (spec !== undefined) spec.nodeSelector = { disk: 'ssd' };
        }),
      ),
      { code: 422, reason: 'Invalid' },
    );
    await jobs.create(ctx, { ...job('held'), spec: { ...job('held').spec, suspend: true } }, { options: {} });
    const moved = await jobs.update(
      ctx,
      'held',
      updateWith<Job>((j) => {
        const spec = j.spec?.template?.spec;
        if (spec !== undefined) spec.nodeSelector = { disk: 'ssd' };
      }),
    );
    assert.deepEqual(moved.object.spec?.template?.spec?.nodeSelector, { disk: 'ssd' });
    assert.equal(moved.object.metadata?.generation, 2);
  });

  it('takes status through /status and selects by status.successful', async () => {
    const out = await status.update(
      ctx,
      'pi',
      updateWith<Job>((j) => {
        j.status = {
          succeeded: 1,
          startTime: '2026-01-01T00:00:00Z',
          completionTime: '2026-01-01T00:01:05Z',
          conditions: [
            { type: 'SuccessCriteriaMet', status: 'True' },
            { type: 'Complete', status: 'True' },
          ],
        };
        (j.spec ??= {}).parallelism = 5;
      }),
    );
    assert.equal(out.object.spec?.parallelism, 1);
    const list = await jobs.list(ctx, { fieldSelector: 'status.successful=1' });
    assert.deepEqual(
      list.items.map((j) => j.metadata?.name),
      ['pi'],
    );
    await rejectsWithStatus(jobs.list(ctx, { fieldSelector: 'status.failed=0' }), {
      code: 400,
      reason: 'BadRequest',
    });
  });

  it("refuses a /status write kube 1.33 refuses, with kube's message", async () => {
    await rejectsWithStatus(
      status.update(
        ctx,
        'pi',
        updateWith<Job>((j) => {
          j.status = {
            succeeded: 0,
            startTime: '2026-01-01T00:00:00Z',
            completionTime: '2026-01-01T00:01:05Z',
            conditions: [{ type: 'Failed', status: 'True' }],
          };
        }),
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'Job.batch "pi" is invalid: [status.completionTime: Invalid value: "2026-01-01T00:01:05Z": cannot set completionTime when there is no Complete=True condition, status.conditions: Invalid value: cannot set Failed=True condition without the FailureTarget=true condition, status.conditions: Invalid value: cannot disable the terminal Complete=True condition, status.succeeded: Invalid value: 0: cannot decrease the succeeded counter, status.conditions: Invalid value: cannot disable the SuccessCriteriaMet=True condition]',
      },
    );
  });

  it('prints NAME STATUS COMPLETIONS DURATION AGE', async () => {
    const table = jobs.convertToTable(ctx, await jobs.list(ctx, {}), {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Status', 'Completions', 'Duration', 'Age', 'Containers', 'Images', 'Selector'],
    );
    const byName = new Map(table.rows.map((r) => [r.cells[0], r.cells.slice(1, 4)]));
    assert.deepEqual(byName.get('pi'), ['Complete', '1/1', '65s']);
    assert.deepEqual(byName.get('held'), ['Running', '0/1', '']);
  });

  it("warns when a delete leaves the pods' fate to the orphaning default", async () => {
    const warned = testContext('default');
    await jobs.delete(warned, 'held', { options: {} });
    assert.deepEqual(warned.warnings, [deleteOptionWarning]);
    const quiet = testContext('default');
    await jobs.delete(quiet, 'pi', { options: { propagationPolicy: 'Background' } });
    assert.deepEqual(quiet.warnings, []);
  });
});
