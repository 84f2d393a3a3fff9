import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import { testContext } from '../../generic/testing/widgets.js';
import { persistentVolumeClaimStatusStrategy, persistentVolumeClaimStrategy } from './strategy.js';

it('warns about the beta storage class annotation and storage sizes in fractions of a byte', () => {
  const pvc: PersistentVolumeClaim = {
    metadata: { name: 'data', annotations: { 'volume.beta.kubernetes.io/storage-class': 'fast' } },
    spec: { resources: { requests: { storage: '1500m' }, limits: { storage: '2.5' } } },
  };
  const expected = [
    'metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use "storageClassName" attribute instead',
    'spec.resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer',
    'spec.resources.limits[storage]: fractional byte value "2500m" is invalid, must be an integer',
  ];
  const ctx = testContext('default');
  assert.deepEqual(persistentVolumeClaimStrategy.warningsOnCreate(ctx, pvc), expected);
  assert.deepEqual(persistentVolumeClaimStrategy.warningsOnUpdate(ctx, pvc), expected);
  assert.deepEqual(persistentVolumeClaimStatusStrategy.warningsOnUpdate(), []);
  assert.deepEqual(
    persistentVolumeClaimStrategy.warningsOnCreate(ctx, {
      spec: { resources: { requests: { storage: '1Gi' } } },
    }),
    [],
  );
});
