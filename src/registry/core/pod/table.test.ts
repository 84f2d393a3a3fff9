// `kubectl get pods` STATUS, READY and RESTARTS as kube's printPod computes them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { ContainerStatus } from '../../../api/core/v1/pod-status.js';
import { podTableConvertor } from './table.js';
import { testContext } from '../../generic/testing/widgets.js';

const now = Date.parse('2026-01-01T01:00:00Z');

const cs = (name: string, extra: Partial<ContainerStatus> = {}): ContainerStatus => ({
  name,
  ready: false,
  restartCount: 0,
  image: 'i',
  imageID: '',
  ...extra,
});

/** [READY, STATUS, RESTARTS] of the pod's row, and the row's conditions. */
function row(pod: Pod): { cells: unknown[]; conditions: unknown } {
  const table = podTableConvertor.convertToTable(testContext('default'), pod, { now });
  const r = table.rows[0];
  return { cells: [r?.cells[1], r?.cells[2], r?.cells[3]], conditions: r?.conditions };
}

const base = (spec: Partial<NonNullable<Pod['spec']>>, status: NonNullable<Pod['status']>): Pod => ({
  metadata: { name: 'p', creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: { containers: [{ name: 'app', image: 'i' }], ...spec },
  status,
});

describe('pod table rows as printPod', () => {
  it('shows an init container’s progress, its failure and its waiting reason', () => {
    const spec = {
      initContainers: [
        { name: 'a', image: 'i' },
        { name: 'b', image: 'i' },
      ],
    };
    const done = cs('a', { state: { terminated: { exitCode: 0, reason: 'Completed' } } });
    assert.deepEqual(
      row(
        base(spec, { phase: 'Pending', initContainerStatuses: [done, cs('b', { state: { running: {} } })] }),
      ).cells,
      ['0/1', 'Init:1/2', '0'],
    );
    assert.deepEqual(
      row(
        base(spec, {
          phase: 'Pending',
          initContainerStatuses: [cs('a', { state: { terminated: { exitCode: 2 } } }), cs('b')],
        }),
      ).cells,
      ['0/1', 'Init:ExitCode:2', '0'],
    );
    assert.deepEqual(
      row(
        base(spec, {
          phase: 'Pending',
          initContainerStatuses: [
            done,
            cs('b', { state: { waiting: { reason: 'CrashLoopBackOff' } }, restartCount: 3 }),
          ],
        }),
      ).cells,
      ['0/1', 'Init:CrashLoopBackOff', '3'],
    );
  });

  it('counts a started sidecar among the containers, and its restarts with when the last one ended', () => {
    const pod = base(
      { initContainers: [{ name: 'proxy', image: 'i', restartPolicy: 'Always' }] },
      {
        phase: 'Running',
        conditions: [
          { type: 'Initialized', status: 'True' },
          { type: 'Ready', status: 'True' },
        ],
        initContainerStatuses: [
          cs('proxy', {
            started: true,
            ready: true,
            restartCount: 2,
            state: { running: {} },
            lastState: { terminated: { exitCode: 1, finishedAt: '2026-01-01T00:55:00Z' } },
          }),
        ],
        containerStatuses: [cs('app', { ready: true, state: { running: {} } })],
      },
    );
    assert.deepEqual(row(pod).cells, ['2/2', 'Running', '2 (5m ago)']);
  });

  it('reads Completed as Running or NotReady while a container still runs', () => {
    const spec = {
      containers: [
        { name: 'a', image: 'i' },
        { name: 'b', image: 'i' },
      ],
    };
    const statuses = [
      cs('a', { state: { terminated: { exitCode: 0, reason: 'Completed' } } }),
      cs('b', { ready: true, state: { running: {} } }),
    ];
    assert.deepEqual(row(base(spec, { phase: 'Running', containerStatuses: statuses })).cells, [
      '1/2',
      'NotReady',
      '0',
    ]);
    const ready = {
      phase: 'Running' as const,
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: statuses,
    };
    assert.deepEqual(row(base(spec, ready)).cells, ['1/2', 'Running', '0']);
  });

  it('shows SchedulingGated, keeps a finished pod’s status while deleting, and marks finished rows Completed', () => {
    const gated = base(
      { schedulingGates: [{ name: 'g' }] },
      {
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }],
      },
    );
    assert.deepEqual(row(gated).cells, ['0/1', 'SchedulingGated', '0']);
    const done = base(
      {},
      {
        phase: 'Succeeded',
        containerStatuses: [cs('app', { state: { terminated: { exitCode: 0, reason: 'Completed' } } })],
      },
    );
    done.metadata = { ...done.metadata, deletionTimestamp: '2026-01-01T00:59:00Z' };
    const { cells, conditions } = row(done);
    assert.deepEqual(cells, ['0/1', 'Completed', '0']);
    assert.deepEqual(conditions, [
      {
        type: 'Completed',
        status: 'True',
        reason: 'Succeeded',
        message: 'The pod has completed successfully.',
      },
    ]);
    const running = base({}, { phase: 'Running' });
    running.metadata = { ...running.metadata, deletionTimestamp: '2026-01-01T00:59:00Z' };
    assert.deepEqual(row(running).cells, ['0/1', 'Terminating', '0']);
    assert.equal(row(running).conditions, undefined);
  });
});
