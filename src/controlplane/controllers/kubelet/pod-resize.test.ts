import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../../api/core/v1/pod.js';
import { podRequests } from '../scheduler/resources.js';
import { resizedStatus, type ResizeNode } from './pod-resize.js';

const now = '2026-12-03T12:00:00Z';
const gi = 1024n * 1024n * 1024n * 1000n;

/** A running pod allocated 100m / 64Mi, whose spec now asks for `cpu`. */
function running(cpu: string): Pod {
  return {
    metadata: { name: 'p', namespace: 'default' },
    spec: {
      nodeName: 'n1',
      containers: [{ name: 'app', image: 'x', resources: { requests: { cpu, memory: '64Mi' } } }],
    },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: [
        {
          name: 'app',
          image: 'x',
          imageID: '',
          ready: true,
          restartCount: 0,
          state: { running: {} },
          allocatedResources: { cpu: '100m', memory: '64Mi' },
          resources: { requests: { cpu: '100m', memory: '64Mi' } },
        },
      ],
    },
  };
}

const node =
  (cpuMilli: bigint, usedMilli: bigint): (() => ResizeNode) =>
  () => ({
    allocatable: new Map([
      ['cpu', cpuMilli],
      ['memory', 8n * gi],
    ]),
    used: new Map([['cpu', usedMilli]]),
  });

describe('a simulated kubelet resizing a pod', () => {
  it('applies a resize that fits, reporting the new allocation', () => {
    const status = resizedStatus(running('500m'), node(4000n, 1000n), now);
    assert.ok(status !== undefined);
    const { allocatedResources, resources } = status.containerStatuses?.[0] ?? {};
    assert.deepEqual(allocatedResources, { cpu: '500m', memory: '64Mi' });
    assert.deepEqual(resources, { requests: { cpu: '500m', memory: '64Mi' } });
    assert.deepEqual(status.conditions, [{ type: 'Ready', status: 'True' }]);
  });

  it('writes nothing for a pod whose allocation is what it asks', () => {
    assert.equal(resizedStatus(running('100m'), node(4000n, 0n), now), undefined);
  });

  it('defers a resize past what the other pods leave, then drops the condition once it is applied', () => {
    const pod = running('3500m');
    const deferred = resizedStatus(pod, node(4000n, 1000n), now);
    assert.ok(deferred !== undefined);
    assert.equal(deferred.containerStatuses?.[0]?.allocatedResources?.cpu, '100m');
    assert.deepEqual(deferred.conditions?.[0], {
      type: 'PodResizePending',
      status: 'True',
      lastProbeTime: now,
      lastTransitionTime: now,
      reason: 'Deferred',
      message: "Node didn't have enough resource: cpu, requested: 3500, used: 1000, capacity: 4000",
    });
    // The same answer again is not written again.
    pod.status = deferred;
    assert.equal(resizedStatus(pod, node(4000n, 1000n), now), undefined);
    const applied = resizedStatus(pod, node(4000n, 0n), now);
    assert.equal(applied?.containerStatuses?.[0]?.allocatedResources?.cpu, '3500m');
    assert.deepEqual(applied.conditions, [{ type: 'Ready', status: 'True' }]);
  });

  it('finds a resize past the node infeasible, memory first, and counts the pod at what it was given', () => {
    const pod = running('5');
    const infeasible = resizedStatus(pod, node(4000n, 0n), now);
    const [pending] = infeasible?.conditions ?? [];
    assert.equal(pending?.reason, 'Infeasible');
    assert.equal(pending.message, "Node didn't have enough capacity: cpu, requested: 5000, capacity: 4000");
    const spec = pod.spec?.containers[0]?.resources?.requests;
    if (spec !== undefined) spec.memory = '16Gi';
    assert.equal(
      resizedStatus(pod, node(4000n, 0n), now)?.conditions?.[0]?.message,
      `Node didn't have enough capacity: memory, requested: ${String((16n * gi) / 1000n)}, capacity: ${String((8n * gi) / 1000n)}`,
    );
    // The scheduler counts the larger of spec and allocation, the allocation alone once infeasible.
    assert.equal(podRequests(pod).get('cpu'), 5000n);
    assert.ok(infeasible !== undefined);
    pod.status = infeasible;
    assert.equal(podRequests(pod).get('cpu'), 100n);
  });
});
