import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Deployment } from '../../../api/apps/v1/deployment.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { podTemplate, updateWith } from '../workload/testing.js';
import { newDeploymentREST, type DeploymentStorage } from './storage.js';

const deployment = (name: string, more: Partial<Deployment['spec']> = {}): Deployment => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: { selector: { matchLabels: { app: name } }, template: podTemplate({ app: name }), ...more },
});

describe('deployments', () => {
  let env: MemoryRESTOptions;
  let s: DeploymentStorage;
  const ctx = testContext('default');
  before(async () => {
    env = await memoryRESTOptions();
    s = await newDeploymentREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('fills the apps/v1 defaults, drops the status sent and starts at generation 1', async () => {
    const out = await s.deployments.create(
      ctx,
      { ...deployment('web'), status: { replicas: 9 } },
      { options: {} },
    );
    assert.equal(out.spec?.replicas, 1);
    assert.deepEqual(out.spec.strategy, {
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
    });
    assert.equal(out.spec.revisionHistoryLimit, 10);
    assert.equal(out.spec.progressDeadlineSeconds, 600);
    assert.equal(out.spec.template?.spec?.restartPolicy, 'Always');
    assert.equal(out.spec.template.spec.containers[0]?.imagePullPolicy, 'Always');
    assert.deepEqual(out.status, {});
    assert.equal(out.metadata?.generation, 1);
    assert.notEqual((await env.backend.get('/registry/deployments/default/web')).kv, null);
    assert.deepEqual(s.deployments.shortNames(), ['deploy']);
    assert.deepEqual(s.deployments.categories(), ['all']);
  });

  it('keeps a Recreate strategy without rolling parameters', async () => {
    const out = await s.deployments.create(ctx, deployment('recreate', { strategy: { type: 'Recreate' } }), {
      options: {},
    });
    assert.deepEqual(out.spec?.strategy, { type: 'Recreate' });
  });

  it("refuses a template its selector does not match, with kube's text", async () => {
    const bad = deployment('bad', { template: podTemplate({ app: 'other' }) });
    await rejectsWithStatus(s.deployments.create(ctx, bad, { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'Deployment.apps "bad" is invalid: spec.template.metadata.labels: Invalid value: {"app":"other"}: `selector` does not match template `labels`',
    });
  });

  it('requires a selector and a non-empty one', async () => {
    const none = deployment('none');
    delete none.spec?.selector;
    const err = await rejectsWithStatus(s.deployments.create(ctx, none, { options: {} }), {
      code: 422,
      reason: 'Invalid',
    });
    assert.match(err.message ?? '', /spec\.selector: Required value/);
    await rejectsWithStatus(
      s.deployments.create(ctx, deployment('empty', { selector: {} }), { options: {} }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'Deployment.apps "empty" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for deployment',
      },
    );
  });

  it('checks the rolling update parameters and the template restart policy', async () => {
    const zero = deployment('zero', {
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } },
    });
    await rejectsWithStatus(s.deployments.create(ctx, zero, { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'Deployment.apps "zero" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0',
    });
    const pct = deployment('pct', {
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '150%' } },
    });
    await rejectsWithStatus(s.deployments.create(ctx, pct, { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'Deployment.apps "pct" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%',
    });
    const never = deployment('never');
    const spec = never.spec?.template?.spec;
    if (spec !== undefined) spec.restartPolicy = 'Never';
    await rejectsWithStatus(s.deployments.create(ctx, never, { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'Deployment.apps "never" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
    });
  });

  it('bumps the generation on spec and annotation changes, not on labels', async () => {
    await s.deployments.create(ctx, deployment('gen'), { options: {} });
    const labelled = await s.deployments.update(
      ctx,
      'gen',
      updateWith<Deployment>((d) => {
        d.metadata = { ...d.metadata, labels: { tier: 'web' } };
      }),
    );
    assert.equal(labelled.object.metadata?.generation, 1);
    const scaled = await s.deployments.update(
      ctx,
      'gen',
      updateWith<Deployment>((d) => {
        (d.spec ??= {}).replicas = 4;
      }),
    );
    assert.equal(scaled.object.metadata?.generation, 2);
    const annotated = await s.deployments.update(
      ctx,
      'gen',
      updateWith<Deployment>((d) => {
        d.metadata = { ...d.metadata, annotations: { note: 'x' } };
      }),
    );
    assert.equal(annotated.object.metadata?.generation, 3);
  });

  it('keeps the status on the main resource and the spec on /status', async () => {
    await s.deployments.create(ctx, deployment('st'), { options: {} });
    const main = await s.deployments.update(
      ctx,
      'st',
      updateWith<Deployment>((d) => {
        d.status = { replicas: 3 };
      }),
    );
    assert.deepEqual(main.object.status, {});
    const status = await s.status.update(
      ctx,
      'st',
      updateWith<Deployment>((d) => {
        d.status = {
          replicas: 1,
          readyReplicas: 1,
          availableReplicas: 1,
          updatedReplicas: 1,
          observedGeneration: 1,
        };
        (d.spec ??= {}).replicas = 7;
      }),
    );
    assert.equal(status.object.status?.readyReplicas, 1);
    assert.equal(status.object.spec?.replicas, 1);
    assert.equal(status.object.metadata?.generation, 1);
    await rejectsWithStatus(
      s.status.update(
        ctx,
        'st',
        updateWith<Deployment>((d) => {
          d.status = { replicas: 1, readyReplicas: 2 };
        }),
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'Deployment.apps "st" is invalid: status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas',
      },
    );
  });

  it('never changes the selector in apps/v1', async () => {
    await s.deployments.create(ctx, deployment('sel'), { options: {} });
    const err = await rejectsWithStatus(
      s.deployments.update(
        ctx,
        'sel',
        updateWith<Deployment>((d) => {
          const spec = (d.spec ??= {});
          spec.selector = { matchLabels: { app: 'sel', v: '2' } };
          spec.template = podTemplate({ app: 'sel', v: '2' });
        }),
      ),
      { code: 422, reason: 'Invalid' },
    );
    assert.equal(
      err.message,
      'Deployment.apps "sel" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"sel","v":"2"}}: field is immutable',
    );
  });

  it('prints NAME READY UP-TO-DATE AVAILABLE AGE, and CONTAINERS IMAGES SELECTOR wide', async () => {
    const table = s.deployments.convertToTable(ctx, await s.deployments.get(ctx, 'st', {}), {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => [c.name, c.priority]),
      [
        ['Name', 0],
        ['Ready', 0],
        ['Up-to-date', 0],
        ['Available', 0],
        ['Age', 0],
        ['Containers', 1],
        ['Images', 1],
        ['Selector', 1],
      ],
    );
    const cells = table.rows[0]?.cells ?? [];
    assert.deepEqual(
      [...cells.slice(0, 4), ...cells.slice(5)],
      ['st', '1/1', 1, 1, 'main', 'nginx', 'app=st'],
    );
  });

  it('serves the scale subresource from spec.replicas and the selector', async () => {
    await s.deployments.create(ctx, deployment('sc'), { options: {} });
    const scale = await s.scale.get(ctx, 'sc', {});
    assert.deepEqual(scale.spec, { replicas: 1 });
    assert.deepEqual(scale.status, { replicas: 0, selector: 'app=sc' });
    const { object } = await s.scale.update(ctx, 'sc', {
      options: {},
      objInfo: {
        preconditions: () => undefined,
        updatedObject: (_c, old) => Promise.resolve({ ...(old as object), spec: { replicas: 3 } }),
      },
    });
    assert.equal(object.spec?.replicas, 3);
    const stored = await s.deployments.get(ctx, 'sc', {});
    assert.equal(stored.spec?.replicas, 3);
    assert.equal(stored.metadata?.generation, 2);
  });
});
