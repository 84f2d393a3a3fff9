import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Deployment } from '../../../api/apps/v1/deployment.js';
import type { ReplicaSet } from '../../../api/apps/v1/replica-set.js';
import { newRSNewReplicas, resolveFenceposts } from './rolling-math.js';
import { computeHash, equalIgnoreHash } from './template-hash.js';

const d = (replicas: number, maxSurge?: number | string, maxUnavailable?: number | string): Deployment => ({
  spec: {
    replicas,
    strategy: {
      type: 'RollingUpdate',
      rollingUpdate: {
        ...(maxSurge === undefined ? {} : { maxSurge }),
        ...(maxUnavailable === undefined ? {} : { maxUnavailable }),
      },
    },
  },
});
const rs = (replicas: number): ReplicaSet => ({ spec: { replicas } });

describe('rolling update arithmetic', () => {
  it('rounds maxSurge up and maxUnavailable down, and never lets both be zero', () => {
    assert.deepEqual(resolveFenceposts(d(10)), { maxSurge: 3, maxUnavailable: 2 });
    assert.deepEqual(resolveFenceposts(d(3, '50%', '50%')), { maxSurge: 2, maxUnavailable: 1 });
    assert.deepEqual(resolveFenceposts(d(1, 0, '10%')), { maxSurge: 0, maxUnavailable: 1 });
  });

  it('grows the new ReplicaSet only within replicas + maxSurge', () => {
    const deploy = d(4, 1, 1);
    const newRS = rs(0);
    assert.equal(newRSNewReplicas(deploy, [newRS, rs(4)], newRS), 1);
    const grown = rs(1);
    assert.equal(newRSNewReplicas(deploy, [grown, rs(4)], grown), 1);
    const later = rs(2);
    assert.equal(newRSNewReplicas(deploy, [later, rs(2)], later), 3);
  });

  it('hashes templates stably, and apart with another collision count', () => {
    const t = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    const same = {
      spec: { containers: [{ image: 'nginx', name: 'c' }] },
      metadata: { labels: { app: 'web' } },
    };
    assert.equal(computeHash(t, undefined), computeHash(same, undefined));
    assert.notEqual(computeHash(t, undefined), computeHash(t, 1));
    assert.match(computeHash(t, undefined), /^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
    const hashed = { ...t, metadata: { labels: { app: 'web', 'pod-template-hash': 'abc' } } };
    assert.equal(equalIgnoreHash(t, hashed), true);
    assert.equal(
      equalIgnoreHash(t, { ...t, spec: { containers: [{ name: 'c', image: 'nginx:2' }] } }),
      false,
    );
  });
});
