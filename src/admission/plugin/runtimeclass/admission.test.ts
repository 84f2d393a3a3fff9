// RuntimeClass admission through the default chain over the real pod and runtimeclass storages.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Pod, Toleration } from '../../../api/core/v1/pod.js';
import type { RuntimeClass } from '../../../api/node/v1/runtime-class.js';
import { rejectsWithStatus } from '../../../registry/generic/testing/assert-status.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../../registry/generic/testing/memory-rest-options.js';
import { newPodREST } from '../../../registry/core/pod/storage.js';
import { newRuntimeClassREST } from '../../../registry/node/runtimeclass/storage.js';
import { admittedGroupsOf, type AdmittedGroups } from '../../testing/admitted-groups.js';
import { mergeTolerations, runtimeClassPluginName } from './admission.js';

const podsAt = { group: '', resource: 'pods', namespace: 'team' };
const classesAt = { group: 'node.k8s.io', resource: 'runtimeclasses' };
const pod = (name: string, spec: Partial<NonNullable<Pod['spec']>> = {}): Pod => ({
  metadata: { name },
  spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
});
const rc = (name: string, extra: Partial<RuntimeClass> = {}): RuntimeClass => ({
  apiVersion: 'node.k8s.io/v1',
  kind: 'RuntimeClass',
  metadata: { name },
  handler: 'runc',
  ...extra,
});
const gvisorToleration: Toleration = {
  key: 'sandbox',
  operator: 'Equal',
  value: 'gvisor',
  effect: 'NoSchedule',
};

describe('RuntimeClass admission', () => {
  let rest: MemoryRESTOptions;
  let api: AdmittedGroups;

  before(async () => {
    rest = await memoryRESTOptions();
    const opts = { restOptionsGetter: rest.getter };
    const pods = await newPodREST(opts);
    // DefaultTolerationSeconds off, so that the tolerations seen are the class's and the pod's.
    api = admittedGroupsOf(
      { '': { pods: pods.pods }, 'node.k8s.io': { runtimeclasses: await newRuntimeClassREST(opts) } },
      { disable: ['DefaultTolerationSeconds'] },
    );
    await api.create(classesAt, rc('plain'));
    await api.create(
      classesAt,
      rc('gvisor', {
        overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
        scheduling: { nodeSelector: { sandbox: 'gvisor' }, tolerations: [{ ...gvisorToleration }] },
      }),
    );
  });
  after(async () => {
    api.chain.close();
    await rest.close();
  });

  it('is in the chain when runtimeclasses are served', () => {
    assert.deepEqual(api.chain.names, [runtimeClassPluginName]);
  });

  it('leaves a pod without a runtimeClassName, or of a class with nothing to add, alone', async () => {
    const out = await api.create(podsAt, pod('none'));
    assert.equal(out.spec?.overhead, undefined);
    const plain = await api.create(podsAt, pod('plain', { runtimeClassName: 'plain' }));
    assert.equal(plain.spec?.overhead, undefined);
    assert.equal(plain.spec?.nodeSelector, undefined);
  });

  it('sets the overhead and merges the scheduling constraints of the class', async () => {
    const own: Toleration = { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' };
    const out = await api.create(
      podsAt,
      pod('sandboxed', { runtimeClassName: 'gvisor', nodeSelector: { zone: 'a' }, tolerations: [own] }),
    );
    assert.deepEqual(out.spec?.overhead, { cpu: '250m', memory: '120Mi' });
    assert.deepEqual(out.spec.nodeSelector, { zone: 'a', sandbox: 'gvisor' });
    assert.deepEqual(out.spec.tolerations, [own, gvisorToleration]);
  });

  it('merges a class selector key named like an Object.prototype member the pod lacks', async () => {
    await api.create(
      classesAt,
      rc('odd', { scheduling: { nodeSelector: { constructor: 'x', toString: 'y' } } }),
    );
    const out = await api.create(
      podsAt,
      pod('odd', { runtimeClassName: 'odd', nodeSelector: { zone: 'a' } }),
    );
    assert.deepEqual(out.spec?.nodeSelector, { zone: 'a', constructor: 'x', toString: 'y' });
  });

  it('accepts an overhead equal in value to the class’s', async () => {
    const out = await api.create(
      podsAt,
      pod('same', { runtimeClassName: 'gvisor', overhead: { cpu: '0.25', memory: '120Mi' } }),
    );
    assert.deepEqual(out.spec?.overhead, { cpu: '250m', memory: '120Mi' });
  });

  it('refuses an unknown class, a different overhead, an overhead without one, a selector conflict', async () => {
    await rejectsWithStatus(api.create(podsAt, pod('lost', { runtimeClassName: 'kata' })), {
      code: 403,
      reason: 'Forbidden',
      message: 'pods "lost" is forbidden: pod rejected: RuntimeClass "kata" not found',
    });
    await rejectsWithStatus(
      api.create(podsAt, pod('greedy', { runtimeClassName: 'gvisor', overhead: { cpu: '1' } })),
      {
        code: 403,
        reason: 'Forbidden',
        message: `pods "greedy" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead`,
      },
    );
    await rejectsWithStatus(
      api.create(podsAt, pod('extra', { runtimeClassName: 'plain', overhead: { cpu: '1' } })),
      {
        code: 403,
        reason: 'Forbidden',
        message:
          'pods "extra" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
      },
    );
    await rejectsWithStatus(
      api.create(podsAt, pod('clash', { runtimeClassName: 'gvisor', nodeSelector: { sandbox: 'runc' } })),
      {
        code: 403,
        reason: 'Forbidden',
        message:
          'pods "clash" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox] = gvisor; pod.spec.nodeSelector[sandbox] = runc',
      },
    );
  });

  it('merges tolerations keeping only the wider of overlapping ones', () => {
    const anyKey: Toleration = { operator: 'Exists' };
    const narrow: Toleration = { key: 'a', operator: 'Equal', value: 'x', effect: 'NoSchedule' };
    const short: Toleration = { key: 'b', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 };
    const long: Toleration = { key: 'b', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 };
    assert.deepEqual(mergeTolerations([narrow], [anyKey]), [anyKey]);
    assert.deepEqual(mergeTolerations([short], [long]), [long]);
    assert.deepEqual(mergeTolerations([narrow, narrow], []), [narrow]);
    assert.deepEqual(mergeTolerations([narrow], [short]), [narrow, short]);
  });
});
