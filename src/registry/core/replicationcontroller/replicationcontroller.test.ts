import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Scale } from '../../../api/autoscaling/v1/scale.js';
import type { PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import type {
  ReplicationController,
  ReplicationControllerSpec,
} from '../../../api/core/v1/replication-controller.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { newReplicationControllerREST, type ReplicationControllerStorage } from './storage.js';

const rc = (name: string, spec: ReplicationControllerSpec): ReplicationController => ({
  apiVersion: 'v1',
  kind: 'ReplicationController',
  metadata: { name },
  spec,
});

const template = (labels: Record<string, string> | undefined, image = 'nginx:1.25'): PodTemplateSpec => ({
  ...(labels !== undefined ? { metadata: { labels } } : {}),
  spec: { containers: [{ name: 'web', image }] },
});

const put = <T>(obj: T): UpdateRequest => ({
  objInfo: {
    preconditions: () => undefined,
    updatedObject: () => Promise.resolve(structuredClone(obj) as never),
  },
  options: {},
});

const change = <T>(fn: (current: T) => T): UpdateRequest => ({
  objInfo: {
    preconditions: () => undefined,
    updatedObject: (_ctx, old) => Promise.resolve(fn(structuredClone(old) as T) as never),
  },
  options: {},
});

describe('replicationcontrollers', () => {
  let env: MemoryRESTOptions;
  let s: ReplicationControllerStorage;
  const ctx = testContext('default');
  before(async () => {
    env = await memoryRESTOptions({
      resourcePrefix: (r) => (r.resource === 'replicationcontrollers' ? 'controllers' : r.resource),
    });
    s = await newReplicationControllerREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('defaults selector, labels, replicas and the pod template; starts at generation 1 with no replicas', async () => {
    const out = await s.replicationControllers.create(
      ctx,
      rc('web', { template: template({ app: 'web' }) }),
      {
        options: {},
      },
    );
    assert.deepEqual(out.spec?.selector, { app: 'web' });
    assert.deepEqual(out.metadata?.labels, { app: 'web' });
    assert.equal(out.spec.replicas, 1);
    assert.equal(out.spec.template?.spec?.restartPolicy, 'Always');
    assert.equal(out.spec.template.spec.containers[0]?.imagePullPolicy, 'IfNotPresent');
    assert.deepEqual(out.status, { replicas: 0 });
    assert.equal(out.metadata.generation, 1);
    assert.notEqual((await env.backend.get('/registry/controllers/default/web')).kv, null);
    assert.deepEqual(s.replicationControllers.shortNames(), ['rc']);
    assert.deepEqual(s.replicationControllers.categories(), ['all']);
  });

  it('validates with kube messages', async () => {
    await rejectsWithStatus(
      s.replicationControllers.create(
        ctx,
        rc('bad', { selector: { app: 'x' }, replicas: -1, template: template({ app: 'y' }) }),
        {
          options: {},
        },
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'ReplicationController "bad" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.template.metadata.labels: Invalid value: {"app":"y"}: `selector` does not match template `labels`]',
      },
    );
    await rejectsWithStatus(s.replicationControllers.create(ctx, rc('bare', {}), { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'ReplicationController "bare" is invalid: [spec.selector: Required value, spec.template: Required value]',
    });
    const never = template({ app: 'z' });
    if (never.spec !== undefined) never.spec.restartPolicy = 'Never';
    await rejectsWithStatus(
      s.replicationControllers.create(ctx, rc('never', { template: never }), { options: {} }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'ReplicationController "never" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
      },
    );
    await rejectsWithStatus(
      s.replicationControllers.create(
        ctx,
        rc('nocontainers', { template: { metadata: { labels: { a: 'b' } }, spec: { containers: [] } } }),
        {
          options: {},
        },
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'ReplicationController "nocontainers" is invalid: spec.template.spec.containers: Required value',
      },
    );
  });

  it('bumps the generation on spec changes only; the main resource keeps status, /status keeps spec', async () => {
    const cur = await s.replicationControllers.get(ctx, 'web', {});
    const labelled = structuredClone(cur);
    labelled.metadata = { ...labelled.metadata, annotations: { note: 'x' } };
    labelled.status = { replicas: 7 };
    const same = (await s.replicationControllers.update(ctx, 'web', put(labelled))).object;
    assert.equal(same.metadata?.generation, 1);
    assert.deepEqual(same.status, { replicas: 0 });

    const image = structuredClone(same);
    const first = image.spec?.template?.spec?.containers[0];
    if (first !== undefined) first.image = 'nginx:1.26';
    const moved = (await s.replicationControllers.update(ctx, 'web', put(image))).object;
    assert.equal(moved.metadata?.generation, 2);

    const st = structuredClone(moved);
    st.status = { replicas: 1, readyReplicas: 1, availableReplicas: 1, observedGeneration: 2 };
    if (st.spec !== undefined) st.spec.replicas = 9;
    const observed = (await s.status.update(ctx, 'web', put(st))).object;
    assert.deepEqual(observed.status, {
      replicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
      observedGeneration: 2,
    });
    assert.equal(observed.spec?.replicas, 1);
    assert.equal(observed.metadata?.generation, 2);

    const bad = structuredClone(observed);
    bad.status = { replicas: 1, readyReplicas: 2, availableReplicas: -1 };
    await rejectsWithStatus(s.status.update(ctx, 'web', put(bad)), {
      code: 422,
      reason: 'Invalid',
      message:
        'ReplicationController "web" is invalid: [status.availableReplicas: Invalid value: -1: must be greater than or equal to 0, status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas]',
    });
  });

  it('scales through replicationcontrollers/scale with the selector as a string', async () => {
    const got = await s.scale.get(ctx, 'web', {});
    assert.deepEqual(got.spec, { replicas: 1 });
    assert.deepEqual(got.status, { replicas: 1, selector: 'app=web' });
    const { object } = await s.scale.update(
      ctx,
      'web',
      change<Scale>((cur) => ({ ...cur, spec: { replicas: 3 } })),
    );
    assert.equal(object.spec?.replicas, 3);
    const after = await s.replicationControllers.get(ctx, 'web', {});
    assert.equal(after.spec?.replicas, 3);
    assert.equal(after.metadata?.generation, 3);
    assert.equal(after.status?.observedGeneration, 2);
    await rejectsWithStatus(s.scale.get(ctx, 'gone', {}), {
      code: 404,
      reason: 'NotFound',
      message: 'replicationcontrollers/scale.autoscaling "gone" not found',
    });
    await rejectsWithStatus(
      s.scale.update(
        ctx,
        'web',
        change<Scale>((cur) => ({ ...cur, spec: { replicas: -2 } })),
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -2: must be greater than or equal to 0',
      },
    );
  });

  it('selects by status.replicas and refuses other field labels', async () => {
    const three = await s.replicationControllers.list(ctx, { fieldSelector: 'status.replicas=1' });
    assert.deepEqual(
      three.items.map((i) => i.metadata?.name),
      ['web'],
    );
    assert.equal(
      (await s.replicationControllers.list(ctx, { fieldSelector: 'status.replicas=0' })).items.length,
      0,
    );
    await assert.rejects(
      s.replicationControllers.list(ctx, { fieldSelector: 'spec.replicas=3' }),
      /field label not supported: spec.replicas/,
    );
  });

  it('prints NAME DESIRED CURRENT READY AGE and CONTAINERS IMAGES SELECTOR', async () => {
    const table = s.replicationControllers.convertToTable(
      ctx,
      await s.replicationControllers.list(ctx, {}),
      {},
    );
    assert.deepEqual(
      table.columnDefinitions.map((c) => [c.name, c.priority]),
      [
        ['Name', 0],
        ['Desired', 0],
        ['Current', 0],
        ['Ready', 0],
        ['Age', 0],
        ['Containers', 1],
        ['Images', 1],
        ['Selector', 1],
      ],
    );
    const row = table.rows[0]?.cells ?? [];
    assert.deepEqual(row.slice(0, 4), ['web', 3, 1, 1]);
    assert.deepEqual(row.slice(5), ['web', 'nginx:1.26', 'app=web']);
  });
});
