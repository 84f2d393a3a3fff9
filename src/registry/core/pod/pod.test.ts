import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Container } from '../../../api/core/v1/container.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { defaultPullPolicy } from './defaults.js';
import { computePodQOS } from './qos.js';
import { newPodREST, type PodStorage } from './storage.js';

const pod = (name: string, containers: Container[] = [{ name: 'app', image: 'nginx:1.25' }]): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers },
});
const put = (obj: Pod): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});
const res = (requests?: Record<string, string>, limits?: Record<string, string>): Container => ({
  name: 'c',
  image: 'x',
  resources: { ...(requests !== undefined ? { requests } : {}), ...(limits !== undefined ? { limits } : {}) },
});

describe('pods', () => {
  let env: MemoryRESTOptions;
  let s: PodStorage;
  const ctx = testContext('default');
  before(async () => {
    env = await memoryRESTOptions();
    s = await newPodREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('computes QoS as kube', () => {
    assert.equal(computePodQOS({ containers: [res()] }), 'BestEffort');
    assert.equal(computePodQOS({ containers: [res({ cpu: '100m' })] }), 'Burstable');
    const both = { cpu: '1', memory: '1Gi' };
    assert.equal(computePodQOS({ containers: [res(both, both)] }), 'Guaranteed');
    assert.equal(computePodQOS({ containers: [res({ cpu: '1000m', memory: '1Gi' }, both)] }), 'Guaranteed');
    assert.equal(computePodQOS({ containers: [res({ cpu: '500m', memory: '1Gi' }, both)] }), 'Burstable');
    assert.equal(computePodQOS({ containers: [res(both, both), res()] }), 'Burstable');
    assert.equal(defaultPullPolicy('nginx'), 'Always');
    assert.equal(defaultPullPolicy('nginx:latest'), 'Always');
    assert.equal(defaultPullPolicy('localhost:5000/nginx'), 'Always');
    assert.equal(defaultPullPolicy('nginx:1.25'), 'IfNotPresent');
  });

  it('creates Pending with its QoS class and the v1 defaults', async () => {
    const limits = { cpu: '1', memory: '64Mi' };
    const out = await s.pods.create(
      ctx,
      pod('web', [{ name: 'app', image: 'nginx', resources: { limits } }]),
      {
        options: {},
      },
    );
    assert.deepEqual(out.status, { phase: 'Pending', qosClass: 'Guaranteed' });
    assert.ok(out.spec !== undefined);
    const first = out.spec.containers[0];
    assert.ok(first !== undefined);
    assert.equal(out.spec.restartPolicy, 'Always');
    assert.equal(out.spec.terminationGracePeriodSeconds, 30);
    assert.equal(first.imagePullPolicy, 'Always');
    assert.deepEqual(first.resources?.requests, limits);
    assert.notEqual((await env.backend.get('/registry/pods/default/web')).kv, null);
    assert.deepEqual(s.pods.shortNames(), ['po']);
    assert.deepEqual(s.pods.categories(), ['all']);
  });

  it('gives a pod created with scheduling gates PodScheduled=False, SchedulingGated', async () => {
    // A namespace of its own: the listing cases below count the default namespace's pods.
    const gatesCtx = testContext('gates');
    const gated: Pod = {
      ...pod('gated'),
      spec: {
        containers: [{ name: 'app', image: 'nginx:1.25' }],
        schedulingGates: [{ name: 'example.com/hold' }],
      },
    };
    const out = await s.pods.create(gatesCtx, gated, { options: {} });
    const [condition, ...others] = out.status?.conditions ?? [];
    assert.equal(others.length, 0);
    assert.deepEqual(
      { ...condition, lastTransitionTime: undefined },
      {
        type: 'PodScheduled',
        status: 'False',
        reason: 'SchedulingGated',
        message: 'Scheduling is blocked due to non-empty scheduling gates',
        lastTransitionTime: undefined,
      },
    );
    assert.match(condition?.lastTransitionTime ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // A pod without gates has no conditions at create.
    assert.equal(
      (await s.pods.create(gatesCtx, pod('ungated'), { options: {} })).status?.conditions,
      undefined,
    );
  });

  it('validates containers with kube messages', async () => {
    await rejectsWithStatus(s.pods.create(ctx, pod('bad', []), { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message: 'Pod "bad" is invalid: spec.containers: Required value',
    });
    await rejectsWithStatus(
      s.pods.create(ctx, pod('bad', [{ name: 'a' }, { name: 'a', image: 'x' }]), { options: {} }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'Pod "bad" is invalid: [spec.containers[0].image: Required value, spec.containers[1].name: Duplicate value: "a"]',
      },
    );
    // A container without a name is a field error, not a crash.
    await rejectsWithStatus(s.pods.create(ctx, pod('bad', [{ image: 'x' } as Container]), { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message: 'Pod "bad" is invalid: spec.containers[0].name: Required value',
    });
  });

  it('updates images, refuses other spec changes, and keeps status', async () => {
    const cur = await s.pods.get(ctx, 'web', {});
    const next = structuredClone(cur);
    (next.spec?.containers[0] ?? { name: '' }).image = 'nginx:1.26';
    next.status = { phase: 'Running' };
    const { object } = await s.pods.update(ctx, 'web', put(next));
    assert.equal(object.spec?.containers[0]?.image, 'nginx:1.26');
    assert.equal(object.status?.phase, 'Pending');
    const bad = structuredClone(object);
    if (bad.spec !== undefined) bad.spec.restartPolicy = 'Never';
    await rejectsWithStatus(s.pods.update(ctx, 'web', put(bad)), {
      code: 422,
      reason: 'Invalid',
      message:
        'Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    });
    const st = structuredClone(object);
    st.status = { ...st.status, phase: 'Running', podIP: '10.1.0.5' };
    if (st.spec !== undefined) st.spec.restartPolicy = 'Never';
    // Owner references are the main resource's too (kube: old kubelets corrupted them).
    const owner = { apiVersion: 'v1', kind: 'Node', name: 'n', uid: 'u-1' };
    st.metadata = { ...st.metadata, ownerReferences: [owner], labels: { via: 'status' } };
    const updated = (await s.status.update(ctx, 'web', put(st))).object;
    assert.equal(updated.status?.phase, 'Running');
    assert.equal(updated.spec?.restartPolicy, 'Always');
    assert.equal(updated.metadata?.ownerReferences, undefined);
    assert.deepEqual(updated.metadata?.labels, { via: 'status' });
    // A status without its QoS class keeps the old one (kube backfills it); another class is refused.
    const withoutClass = structuredClone(updated);
    delete withoutClass.status?.qosClass;
    const backfilled = (await s.status.update(ctx, 'web', put(withoutClass))).object;
    assert.equal(backfilled.status?.qosClass, 'Guaranteed');
    const otherClass = structuredClone(backfilled);
    otherClass.status = { ...otherClass.status, qosClass: 'BestEffort' };
    await rejectsWithStatus(s.status.update(ctx, 'web', put(otherClass)), {
      code: 422,
      reason: 'Invalid',
      message: 'Pod "web" is invalid: status.qosClass: Invalid value: "BestEffort": field is immutable',
    });
  });

  it('binds once, then answers 409 as kube', async () => {
    const binding = {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'web' },
      target: { kind: 'Node', name: 'n1' },
    };
    const unbound = await s.pods.get(ctx, 'web', {});
    const out = await s.binding.createNamed(ctx, 'web', { obj: structuredClone(binding), options: {} });
    assert.equal(out['status'], 'Success');
    const bound = await s.pods.get(ctx, 'web', {});
    assert.equal(bound.spec?.nodeName, 'n1');
    // kube's binding writes nodeName past the strategy, so the generation stays.
    assert.equal(bound.metadata?.generation, unbound.metadata?.generation);
    assert.equal(bound.status?.conditions?.[0]?.type, 'PodScheduled');
    await rejectsWithStatus(
      s.binding.createNamed(ctx, 'web', { obj: structuredClone(binding), options: {} }),
      {
        code: 409,
        reason: 'Conflict',
        message:
          'Operation cannot be fulfilled on pods/binding "web": pod web is already assigned to node "n1"',
      },
    );
  });

  it("replaces an Unschedulable PodScheduled condition where it stands when binding, as kube's UpdatePodCondition", async () => {
    const bindCtx = testContext('binding-order');
    const created = await s.pods.create(bindCtx, pod('late'), { options: {} });
    const withConditions = structuredClone(created);
    withConditions.status = {
      ...withConditions.status,
      conditions: [
        {
          type: 'PodScheduled',
          status: 'False',
          reason: 'Unschedulable',
          message: '0/1 nodes are available',
        },
        { type: 'example.com/gate', status: 'True' },
      ],
    };
    await s.status.update(bindCtx, 'late', put(withConditions));
    const binding = {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'late' },
      target: { kind: 'Node', name: 'n1' },
    };
    await s.binding.createNamed(bindCtx, 'late', { obj: binding, options: {} });
    const bound = await s.pods.get(bindCtx, 'late', {});
    const conditions = bound.status?.conditions ?? [];
    assert.deepEqual(
      conditions.map((c) => [c.type, c.status, c.reason]),
      [
        ['PodScheduled', 'True', undefined],
        ['example.com/gate', 'True', undefined],
      ],
    );
  });

  it('selects by spec.nodeName and status.phase, and refuses unknown fields', async () => {
    await s.pods.create(ctx, pod('idle'), { options: {} });
    const onNode = await s.pods.list(ctx, { fieldSelector: 'spec.nodeName=n1' });
    assert.deepEqual(
      onNode.items.map((p) => p.metadata?.name),
      ['web'],
    );
    const pending = await s.pods.list(ctx, {
      fieldSelector: 'status.phase=Pending,spec.restartPolicy=Always',
    });
    assert.deepEqual(
      pending.items.map((p) => p.metadata?.name),
      ['idle'],
    );
    await assert.rejects(
      s.pods.list(ctx, { fieldSelector: 'spec.image=x' }),
      /field label not supported: spec.image/,
    );
  });

  it('prints NAME READY STATUS RESTARTS AGE and the wide columns', async () => {
    const table = s.pods.convertToTable(ctx, await s.pods.get(ctx, 'web', {}), {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => [c.name, c.priority]),
      [
        ['Name', 0],
        ['Ready', 0],
        ['Status', 0],
        ['Restarts', 0],
        ['Age', 0],
        ['IP', 1],
        ['Node', 1],
        ['Nominated Node', 1],
        ['Readiness Gates', 1],
      ],
    );
    const cells = table.rows[0]?.cells ?? [];
    assert.deepEqual(
      [cells[0], cells[1], cells[2], cells[3], cells[5], cells[6], cells[7], cells[8]],
      ['web', '0/1', 'Running', '0', '10.1.0.5', 'n1', '<none>', '<none>'],
    );
  });

  it('deletes an unbound pod at once, a bound one gracefully, and at once with grace 0', async () => {
    const idle = await s.pods.delete(ctx, 'idle', { options: {} });
    assert.equal(idle.deleted, true);
    const web = await s.pods.delete(ctx, 'web', { options: {} });
    assert.equal(web.deleted, false);
    assert.equal(web.object.metadata?.deletionGracePeriodSeconds, 30);
    const table = s.pods.convertToTable(ctx, await s.pods.get(ctx, 'web', {}), {});
    assert.equal(table.rows[0]?.cells[2], 'Terminating');
    const now = await s.pods.delete(ctx, 'web', { options: { gracePeriodSeconds: 0 } });
    assert.equal(now.deleted, true);
    await rejectsWithStatus(s.pods.get(ctx, 'web', {}), {
      code: 404,
      reason: 'NotFound',
      message: 'pods "web" not found',
    });
  });
});
