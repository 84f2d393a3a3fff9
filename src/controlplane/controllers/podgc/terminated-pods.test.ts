import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../../api/core/v1/pod.js';
import { terminatedPodsToDelete } from './terminated-pods.js';

const pod = (name: string, created: string | undefined, status: NonNullable<Pod['status']>): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', ...(created === undefined ? {} : { creationTimestamp: created }) },
  spec: { containers: [{ name: 'c', image: 'busybox' }] },
  status,
});
const names = (pods: readonly Pod[]): string[] => pods.map((p) => p.metadata?.name ?? '');

describe('terminatedPodsToDelete (gcTerminated)', () => {
  const pods = [
    pod('e', '2026-01-01T00:00:04Z', { phase: 'Succeeded' }),
    pod('b', '2026-01-01T00:00:01Z', { phase: 'Failed' }),
    pod('running', '2026-01-01T00:00:00Z', { phase: 'Running' }),
    pod('pending', '2026-01-01T00:00:00Z', { phase: 'Pending' }),
    pod('unknown', '2026-01-01T00:00:00Z', { phase: 'Unknown' }),
    pod('evicted', '2026-01-01T00:00:09Z', { phase: 'Failed', reason: 'Evicted' }),
    pod('a2', '2026-01-01T00:00:00Z', { phase: 'Succeeded' }),
    pod('a1', '2026-01-01T00:00:00Z', { phase: 'Succeeded' }),
  ];

  it('deletes the surplus past the threshold: evicted pods first, then the oldest, names breaking ties', () => {
    assert.deepEqual(names(terminatedPodsToDelete(pods, 3)), ['evicted', 'a1']);
    assert.deepEqual(names(terminatedPodsToDelete(pods, 1)), ['evicted', 'a1', 'a2', 'b']);
  });

  it('deletes nothing at or below the threshold, and nothing when it is 0 or negative (off)', () => {
    assert.deepEqual(terminatedPodsToDelete(pods, 5), []);
    assert.deepEqual(terminatedPodsToDelete(pods, 0), []);
    assert.deepEqual(terminatedPodsToDelete(pods, -1), []);
  });

  it('counts a pod without a phase as terminated, and one without a creationTimestamp as the oldest', () => {
    const odd = [pod('new', '2026-01-01T00:00:05Z', { phase: 'Failed' }), pod('phaseless', undefined, {})];
    assert.deepEqual(names(terminatedPodsToDelete(odd, 1)), ['phaseless']);
  });

  it('leaves its input in its order', () => {
    const before = names(pods);
    terminatedPodsToDelete(pods, 2);
    assert.deepEqual(names(pods), before);
  });
});
