// DefaultTolerationSeconds through the default chain over the real pod storage.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Pod, Toleration } from '../../../api/core/v1/pod.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../../registry/generic/testing/memory-rest-options.js';
import { newPodREST } from '../../../registry/core/pod/storage.js';
import { admittedGroupsOf, type AdmittedGroups } from '../../testing/admitted-groups.js';
import { defaultTolerationSecondsPluginName } from './admission.js';

const podsAt = { group: '', resource: 'pods', namespace: 'team' };
const pod = (name: string, tolerations?: Toleration[]): Pod => ({
  metadata: { name },
  spec: {
    containers: [{ name: 'app', image: 'nginx' }],
    ...(tolerations === undefined ? {} : { tolerations }),
  },
});
const notReady: Toleration = {
  key: 'node.kubernetes.io/not-ready',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: 300,
};
const unreachable: Toleration = { ...notReady, key: 'node.kubernetes.io/unreachable' };

describe('DefaultTolerationSeconds admission', () => {
  let rest: MemoryRESTOptions;
  let api: AdmittedGroups;

  before(async () => {
    rest = await memoryRESTOptions();
    const pods = await newPodREST({ restOptionsGetter: rest.getter });
    api = admittedGroupsOf({ '': { pods: pods.pods } });
  });
  after(async () => {
    api.chain.close();
    await rest.close();
  });

  it('is in the chain when pods are served', () => {
    assert.deepEqual(api.chain.names, [defaultTolerationSecondsPluginName]);
  });

  it('adds both tolerations for 300 seconds after the pod’s own', async () => {
    const own: Toleration = { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' };
    const out = await api.create(podsAt, pod('plain', [own]));
    assert.deepEqual(out.spec?.tolerations, [own, notReady, unreachable]);
  });

  it('leaves a taint the pod already tolerates, by key or with an empty key or effect', async () => {
    const mine: Toleration = { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' };
    assert.deepEqual((await api.create(podsAt, pod('mine', [mine]))).spec?.tolerations, [mine, unreachable]);
    const anyEffect: Toleration = { key: 'node.kubernetes.io/unreachable', operator: 'Exists' };
    assert.deepEqual((await api.create(podsAt, pod('any-effect', [anyEffect]))).spec?.tolerations, [
      anyEffect,
      notReady,
    ]);
    const everything: Toleration = { operator: 'Exists' };
    assert.deepEqual((await api.create(podsAt, pod('everything', [everything]))).spec?.tolerations, [
      everything,
    ]);
    const wildcardNoExecute: Toleration = { operator: 'Exists', effect: 'NoExecute' };
    assert.deepEqual((await api.create(podsAt, pod('wild', [wildcardNoExecute]))).spec?.tolerations, [
      wildcardNoExecute,
    ]);
  });

  it('does not count a NoSchedule toleration of the same key', async () => {
    const noSchedule: Toleration = {
      key: 'node.kubernetes.io/not-ready',
      operator: 'Exists',
      effect: 'NoSchedule',
    };
    assert.deepEqual((await api.create(podsAt, pod('ns', [noSchedule]))).spec?.tolerations, [
      noSchedule,
      notReady,
      unreachable,
    ]);
  });

  it('adds them back on an update that drops them', async () => {
    const stored = await api.create(podsAt, pod('updated'));
    const out = await api.update(podsAt, {
      ...stored,
      spec: { ...stored.spec, containers: stored.spec?.containers ?? [], tolerations: [] },
    });
    assert.deepEqual(out.spec.tolerations, [notReady, unreachable]);
  });
});
