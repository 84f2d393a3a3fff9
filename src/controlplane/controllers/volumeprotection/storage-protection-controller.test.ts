// The pvc-protection and pv-protection controllers over real storages (in-memory SQLite): a claim or
// volume being deleted keeps its protection finalizer while in use and loses it after.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import {
  newPersistentVolumeREST,
  type PersistentVolumeStorage,
} from '../../../registry/core/persistentvolume/storage.js';
import {
  newPersistentVolumeClaimREST,
  type PersistentVolumeClaimStorage,
} from '../../../registry/core/persistentvolumeclaim/storage.js';
import { newPodREST, type PodStorage } from '../../../registry/core/pod/storage.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../../registry/generic/testing/memory-rest-options.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import { internalContext } from '../../../registry/rest/context.js';
import { Logger, memorySink } from '../../../server/logging/logger.js';
import {
  newStorageProtectionController,
  type StorageProtectionController,
} from './storage-protection-controller.js';

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await delay(10);
  }
}

const team = internalContext({ namespace: 'team' });
const cluster = internalContext();
const claim = (name: string): PersistentVolumeClaim => ({
  metadata: { name, finalizers: ['kubernetes.io/pvc-protection'] },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
});
const volume = (name: string): PersistentVolume => ({
  metadata: { name, finalizers: ['kubernetes.io/pv-protection'] },
  spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } },
});
const podUsing = (name: string, claimName: string, nodeName?: string): Pod => ({
  metadata: { name },
  spec: {
    containers: [{ name: 'app', image: 'nginx' }],
    volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }],
    ...(nodeName === undefined ? {} : { nodeName }),
  },
});

describe('storage protection controllers', () => {
  let env: MemoryRESTOptions;
  let pods: PodStorage;
  let pvcs: PersistentVolumeClaimStorage;
  let pvs: PersistentVolumeStorage;
  let controller: StorageProtectionController;
  const claimGone = (name: string) => async (): Promise<boolean> =>
    (await pvcs.persistentVolumeClaims.get(team, name, {}).catch(() => undefined)) === undefined;
  const volumeGone = (name: string) => async (): Promise<boolean> =>
    (await pvs.persistentVolumes.get(cluster, name, {}).catch(() => undefined)) === undefined;

  before(async () => {
    env = await memoryRESTOptions();
    const opts = { restOptionsGetter: env.getter };
    pods = await newPodREST(opts);
    pvcs = await newPersistentVolumeClaimREST(opts);
    pvs = await newPersistentVolumeREST(opts);
    const core: APIGroupInfo = {
      group: '',
      prioritizedVersions: ['v1'],
      versionedResourcesStorageMap: {
        v1: {
          pods: pods.pods,
          persistentvolumeclaims: pvcs.persistentVolumeClaims,
          persistentvolumes: pvs.persistentVolumes,
        },
      },
    };
    const made = newStorageProtectionController([core], { logger: new Logger({ sink: memorySink() }) });
    assert.ok(made !== undefined);
    controller = made;
    controller.run();
  });
  after(async () => {
    await controller.close();
    await env.close();
  });

  it('releases an unused claim being deleted, also one only an unscheduled pod names', async () => {
    await pvcs.persistentVolumeClaims.create(team, claim('free'), { options: {} });
    await pvcs.persistentVolumeClaims.delete(team, 'free', { options: {} });
    await waitFor('free to go', claimGone('free'));
    await pvcs.persistentVolumeClaims.create(team, claim('pending'), { options: {} });
    await pods.pods.create(team, podUsing('unscheduled', 'pending'), { options: {} });
    await pvcs.persistentVolumeClaims.delete(team, 'pending', { options: {} });
    await waitFor('pending to go', claimGone('pending'));
  });

  it('keeps a claim a scheduled pod mounts until the pod is gone', async () => {
    await pvcs.persistentVolumeClaims.create(team, claim('busy'), { options: {} });
    await pods.pods.create(team, podUsing('user', 'busy', 'node-1'), { options: {} });
    await pvcs.persistentVolumeClaims.delete(team, 'busy', { options: {} });
    await delay(200);
    const held = await pvcs.persistentVolumeClaims.get(team, 'busy', {});
    assert.ok((held.metadata?.deletionTimestamp ?? '') !== '');
    assert.deepEqual(held.metadata?.finalizers, ['kubernetes.io/pvc-protection']);
    await pods.pods.delete(team, 'user', { options: { gracePeriodSeconds: 0 } });
    await waitFor('busy to go', claimGone('busy'));
  });

  it('keeps a Bound volume and releases one that is not', async () => {
    await pvs.persistentVolumes.create(cluster, volume('loose'), { options: {} });
    await pvs.persistentVolumes.delete(cluster, 'loose', { options: {} });
    await waitFor('loose to go', volumeGone('loose'));

    const bound = await pvs.persistentVolumes.create(cluster, volume('bound'), { options: {} });
    await pvs.status.update(cluster, 'bound', {
      objInfo: {
        preconditions: () => undefined,
        updatedObject: (_c, old) => Promise.resolve({ ...(old ?? bound), status: { phase: 'Bound' } }),
      },
      options: {},
    });
    await pvs.persistentVolumes.delete(cluster, 'bound', { options: {} });
    await delay(200);
    assert.deepEqual((await pvs.persistentVolumes.get(cluster, 'bound', {})).metadata?.finalizers, [
      'kubernetes.io/pv-protection',
    ]);
    await pvs.status.update(cluster, 'bound', {
      objInfo: {
        preconditions: () => undefined,
        updatedObject: (_c, old) => Promise.resolve({ ...(old ?? bound), status: { phase: 'Released' } }),
      },
      options: {},
    });
    await waitFor('bound to go once Released', volumeGone('bound'));
  });
});
