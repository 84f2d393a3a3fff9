import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import { findMatchingVolume } from './volume-util.js';

const claim = (spec: PersistentVolumeClaim['spec'] = {}): PersistentVolumeClaim => ({
  metadata: { name: 'c', namespace: 'ns', uid: 'u1' },
  spec: {
    accessModes: ['ReadWriteOnce'],
    resources: { requests: { storage: '2Gi' } },
    storageClassName: 'manual',
    ...spec,
  },
});

const volume = (
  name: string,
  size: string,
  extra: { spec?: PersistentVolume['spec']; phase?: string; labels?: Record<string, string> } = {},
): PersistentVolume => ({
  metadata: { name, ...(extra.labels === undefined ? {} : { labels: extra.labels }) },
  spec: {
    capacity: { storage: size },
    accessModes: ['ReadWriteOnce'],
    storageClassName: 'manual',
    ...extra.spec,
  },
  status: { phase: extra.phase ?? 'Available' },
});

const pick = (c: PersistentVolumeClaim, vs: PersistentVolume[]) => findMatchingVolume(c, vs)?.metadata?.name;

describe('findMatchingVolume', () => {
  it('takes the smallest Available volume of the class that holds the request', () => {
    const vs = [
      volume('big', '10Gi'),
      volume('fit', '3Gi'),
      volume('small', '1Gi'),
      volume('other', '2Gi', { spec: { storageClassName: 'x' } }),
    ];
    assert.equal(pick(claim(), vs), 'fit');
    assert.equal(pick(claim(), [volume('pending', '2Gi', { phase: 'Pending' })]), undefined);
  });

  it('prefers a volume pre-bound to the claim, whatever its phase and class', () => {
    const prebound = volume('mine', '5Gi', {
      phase: 'Pending',
      spec: { storageClassName: 'standard', claimRef: { namespace: 'ns', name: 'c', uid: 'u1' } },
    });
    assert.equal(pick(claim(), [volume('fit', '2Gi'), prebound]), 'mine');
    const elsewhere = volume('theirs', '2Gi', {
      spec: { claimRef: { namespace: 'ns', name: 'c', uid: 'u0' } },
    });
    assert.equal(pick(claim(), [elsewhere]), undefined);
  });

  it('needs the access modes, volume mode and selector of the claim; fewest modes first', () => {
    const rwx = volume('rwx', '2Gi', { spec: { accessModes: ['ReadWriteOnce', 'ReadWriteMany'] } });
    const rwo = volume('rwo', '4Gi');
    assert.equal(pick(claim(), [rwx, rwo]), 'rwo');
    assert.equal(pick(claim({ accessModes: ['ReadWriteMany'] }), [rwx, rwo]), 'rwx');
    assert.equal(pick(claim({ volumeMode: 'Block' }), [rwo]), undefined);
    const labelled = volume('fast', '8Gi', { labels: { tier: 'fast' } });
    assert.equal(pick(claim({ selector: { matchLabels: { tier: 'fast' } } }), [rwo, labelled]), 'fast');
  });

  it('on a node, takes only volumes whose nodeAffinity selects it, and none of those excluded', () => {
    const on = (host: string): NonNullable<NonNullable<PersistentVolume['spec']>['nodeAffinity']> => ({
      required: {
        nodeSelectorTerms: [
          { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [host] }] },
        ],
      },
    });
    const n1 = { metadata: { name: 'n1', labels: { 'kubernetes.io/hostname': 'n1' } } };
    const vs = [
      volume('a-n2', '2Gi', { spec: { nodeAffinity: on('n2') } }),
      volume('b-n1', '3Gi', { spec: { nodeAffinity: on('n1') } }),
    ];
    assert.equal(pick(claim(), vs), 'a-n2');
    assert.equal(findMatchingVolume(claim(), vs, { node: n1 })?.metadata?.name, 'b-n1');
    assert.equal(findMatchingVolume(claim(), vs, { node: n1, exclude: new Set(['b-n1']) }), undefined);
    // A volume pre-bound to the claim but out of the node's reach: no match at all.
    const prebound = volume('mine', '2Gi', {
      spec: { nodeAffinity: on('n2'), claimRef: { namespace: 'ns', name: 'c', uid: 'u1' } },
    });
    assert.equal(findMatchingVolume(claim(), [prebound, ...vs], { node: n1 }), undefined);
  });
});
