import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Node, Taint } from '../../../api/core/v1/node.js';
import { noScheduleTaintChanges, swappedTaints, unreachableNoExecute } from './node-taints.js';

const node = (taints: Taint[] | undefined, conditions: [string, string][], unschedulable = false): Node => ({
  metadata: { name: 'n' },
  spec: { ...(taints === undefined ? {} : { taints }), ...(unschedulable ? { unschedulable } : {}) },
  status: { conditions: conditions.map(([type, status]) => ({ type, status })) },
});

describe('node taints', () => {
  it('NoSchedule taints follow the conditions, leaving other taints alone', () => {
    const n = node(
      [
        { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
        { key: 'example.com/mine', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
      ],
      [
        ['Ready', 'Unknown'],
        ['DiskPressure', 'True'],
        ['MemoryPressure', 'False'],
      ],
      true,
    );
    const { add, remove } = noScheduleTaintChanges(n);
    assert.deepEqual(add.map((t) => t.key).sort(), [
      'node.kubernetes.io/disk-pressure',
      'node.kubernetes.io/unreachable',
      'node.kubernetes.io/unschedulable',
    ]);
    assert.deepEqual(remove, [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
    assert.deepEqual(noScheduleTaintChanges(node(undefined, [['Ready', 'True']])), { add: [], remove: [] });
  });

  it('a condition type or status named like an Object.prototype member calls for no taint', () => {
    const n = node(undefined, [
      ['constructor', 'name'],
      ['toString', 'name'],
      ['__proto__', 'constructor'],
    ]);
    assert.deepEqual(noScheduleTaintChanges(n), { add: [], remove: [] });
  });

  it('swaps taints, stamping the added ones', () => {
    const n = node([{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }], []);
    const swapped = swappedTaints(n, {
      add: [unreachableNoExecute],
      remove: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }],
      timeAdded: '2026-01-01T00:00:00Z',
    });
    assert.deepEqual(swapped, [{ ...unreachableNoExecute, timeAdded: '2026-01-01T00:00:00Z' }]);
    assert.equal(swappedTaints(n, { add: [], remove: [unreachableNoExecute], timeAdded: '' }), undefined);
  });
});
