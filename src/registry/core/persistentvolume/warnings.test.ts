import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import { testContext } from '../../generic/testing/widgets.js';
import { persistentVolumeStrategies } from './strategy.js';

const ctx = testContext('');

it("warns as kube 1.33's GetWarningsForPersistentVolume does, on create and update", () => {
  const pv: PersistentVolume = {
    metadata: {
      name: 'old',
      annotations: {
        'volume.beta.kubernetes.io/storage-class': 'fast',
        'volume.beta.kubernetes.io/mount-options': 'ro',
      },
    },
    spec: {
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
      persistentVolumeReclaimPolicy: 'Recycle',
      rbd: { monitors: ['m'], image: 'i' },
      cephfs: { monitors: ['m'] },
      storageos: {},
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }] },
            {
              matchExpressions: [
                { key: 'failure-domain.beta.kubernetes.io/zone', operator: 'In', values: ['a'] },
                // Values are not checked for required terms.
                { key: 'beta.kubernetes.io/arch', operator: 'In', values: ['not a value!'] },
              ],
            },
          ],
        },
      },
    },
  };
  const want = [
    'metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use "storageClassName" attribute instead',
    'metadata.annotations[volume.beta.kubernetes.io/mount-options]: deprecated since v1.31; use "mountOptions" attribute instead',
    'spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.',
    'spec.nodeAffinity.required.nodeSelectorTerms[1].matchExpressions[0].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
    'spec.nodeAffinity.required.nodeSelectorTerms[1].matchExpressions[1].key: beta.kubernetes.io/arch is deprecated since v1.14; use "kubernetes.io/arch" instead',
    'spec.cephfs: deprecated in v1.28, non-functional in v1.31+',
    'spec.storageOS: deprecated in v1.22, non-functional in v1.25+',
    'spec.rbd: deprecated in v1.28, non-functional in v1.31+',
  ];
  const { main, status } = persistentVolumeStrategies(() => 0);
  assert.deepEqual(main.warningsOnCreate?.(ctx, pv), want);
  assert.deepEqual(main.warningsOnUpdate?.(ctx, pv, pv), want);
  assert.deepEqual(status.warningsOnUpdate?.(ctx, pv, pv), []);
});
