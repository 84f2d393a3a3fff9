// Priority admission through the default chain over the real pod and priorityclass storages.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { PriorityClass } from '../../../api/scheduling/v1/priority-class.js';
import { rejectsWithStatus } from '../../../registry/generic/testing/assert-status.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../../registry/generic/testing/memory-rest-options.js';
import { newPodREST } from '../../../registry/core/pod/storage.js';
import { newPriorityClassREST } from '../../../registry/scheduling/priorityclass/storage.js';
import { systemPriorityClasses } from '../../../registry/scheduling/priorityclass/strategy.js';
import { admittedGroupsOf, type AdmittedGroups } from '../../testing/admitted-groups.js';
import { priorityPluginName } from './admission.js';

const podsAt = { group: '', resource: 'pods', namespace: 'team' };
const classesAt = { group: 'scheduling.k8s.io', resource: 'priorityclasses' };
const pod = (name: string, spec: Partial<NonNullable<Pod['spec']>> = {}): Pod => ({
  metadata: { name },
  spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
});
const pc = (name: string, value: number, extra: Partial<PriorityClass> = {}): PriorityClass => ({
  apiVersion: 'scheduling.k8s.io/v1',
  kind: 'PriorityClass',
  metadata: { name },
  value,
  ...extra,
});

describe('Priority admission', () => {
  let rest: MemoryRESTOptions;
  let api: AdmittedGroups;

  before(async () => {
    rest = await memoryRESTOptions();
    const opts = { restOptionsGetter: rest.getter };
    const pods = await newPodREST(opts);
    api = admittedGroupsOf({
      '': { pods: pods.pods },
      'scheduling.k8s.io': { priorityclasses: await newPriorityClassREST(opts) },
    });
    for (const sys of systemPriorityClasses)
      await api.create(classesAt, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', ...sys });
    await api.create(classesAt, pc('high', 1000, { preemptionPolicy: 'Never' }));
  });
  after(async () => {
    api.chain.close();
    await rest.close();
  });

  it('is in the chain when priorityclasses are served', () => {
    assert.ok(api.chain.names.includes(priorityPluginName));
  });

  it('gives a pod without a class priority 0 and PreemptLowerPriority when no class is the default', async () => {
    const out = await api.create(podsAt, pod('plain'));
    assert.equal(out.spec?.priority, 0);
    assert.equal(out.spec.preemptionPolicy, 'PreemptLowerPriority');
    assert.equal(out.spec.priorityClassName, undefined);
  });

  it('takes value and preemptionPolicy from the named class', async () => {
    const out = await api.create(podsAt, pod('vip', { priorityClassName: 'high' }));
    assert.equal(out.spec?.priority, 1000);
    assert.equal(out.spec.preemptionPolicy, 'Never');
    const critical = await api.create(podsAt, pod('dns', { priorityClassName: 'system-cluster-critical' }));
    assert.equal(critical.spec?.priority, 2000000000);
    assert.equal(critical.spec.preemptionPolicy, 'PreemptLowerPriority');
  });

  it('finds a class created just before the pod', async () => {
    await api.create(classesAt, pc('fresh', 7));
    const out = await api.create(podsAt, pod('fresh-pod', { priorityClassName: 'fresh' }));
    assert.equal(out.spec?.priority, 7);
  });

  it('refuses an unknown class with kube words', async () => {
    await rejectsWithStatus(api.create(podsAt, pod('lost', { priorityClassName: 'nope' })), {
      code: 403,
      reason: 'Forbidden',
      message: 'pods "lost" is forbidden: no PriorityClass with name nope was found',
    });
  });

  it('accepts a priority equal to the computed one and refuses a different one', async () => {
    const same = await api.create(podsAt, pod('same', { priorityClassName: 'high', priority: 1000 }));
    assert.equal(same.spec?.priority, 1000);
    await rejectsWithStatus(api.create(podsAt, pod('cheat', { priority: 5 })), {
      code: 403,
      reason: 'Forbidden',
      message:
        'pods "cheat" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
    });
  });

  it('refuses a preemptionPolicy that differs from the class', async () => {
    await rejectsWithStatus(
      api.create(
        podsAt,
        pod('pushy', { priorityClassName: 'high', preemptionPolicy: 'PreemptLowerPriority' }),
      ),
      {
        code: 403,
        reason: 'Forbidden',
        message:
          'pods "pushy" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name',
      },
    );
  });

  it('keeps the stored priority and policy on an update that leaves them out', async () => {
    const stored = await api.create(podsAt, pod('kept', { priorityClassName: 'high' }));
    const spec = { ...stored.spec, containers: stored.spec?.containers ?? [] };
    delete spec.priority;
    delete spec.preemptionPolicy;
    const out = await api.update(podsAt, { ...stored, spec });
    assert.equal(out.spec.priority, 1000);
    assert.equal(out.spec.preemptionPolicy, 'Never');
  });

  it('uses the globalDefault class, and its name, for a pod naming none', async () => {
    await api.create(classesAt, pc('everyone', 42, { globalDefault: true }));
    const out = await api.create(podsAt, pod('defaulted'));
    assert.equal(out.spec?.priority, 42);
    assert.equal(out.spec.priorityClassName, 'everyone');
    assert.equal(out.spec.preemptionPolicy, 'PreemptLowerPriority');
  });
});
