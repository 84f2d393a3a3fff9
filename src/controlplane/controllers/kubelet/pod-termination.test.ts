import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { ContainerStatus } from '../../../api/core/v1/pod-status.js';
import { killedStatus, stopExitCode } from './pod-termination.js';

const started = '2026-12-03T11:00:00Z';
const now = '2026-12-03T12:00:00Z';

function deleted(opts: { grace?: number; stop?: string; statuses?: ContainerStatus[]; init?: boolean }): Pod {
  return {
    metadata: {
      name: 'p',
      deletionTimestamp: now,
      deletionGracePeriodSeconds: opts.grace ?? 30,
      ...(opts.stop === undefined ? {} : { annotations: { 'capstan.dev/stop-seconds': opts.stop } }),
    },
    spec: {
      containers: [{ name: 'app' }],
      ...(opts.init === true ? { initContainers: [{ name: 'setup' }] } : {}),
    },
    status: {
      phase: 'Running',
      conditions: [
        { type: 'Ready', status: 'True', lastTransitionTime: started },
        { type: 'Initialized', status: 'True', lastTransitionTime: started },
        { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI' },
      ],
      ...(opts.statuses === undefined ? {} : { containerStatuses: opts.statuses }),
    },
  };
}

const running: ContainerStatus = {
  name: 'app',
  ready: true,
  started: true,
  restartCount: 0,
  image: 'nginx',
  imageID: '',
  containerID: 'containerd://1',
  state: { running: { startedAt: started } },
};

describe('stopExitCode', () => {
  it('is 143 for containers that stop at SIGTERM, 137 for those killed when the grace period ends', () => {
    assert.equal(stopExitCode(deleted({})), 143);
    assert.equal(stopExitCode(deleted({ stop: '10' })), 143);
    assert.equal(stopExitCode(deleted({ stop: '30' })), 137);
    assert.equal(stopExitCode(deleted({}), 60), 137);
    assert.equal(stopExitCode(deleted({ grace: 0 })), 143);
  });
});

describe('killedStatus', () => {
  it('stops the running containers with the exit code and fails the pod, keeping foreign conditions', () => {
    const status = killedStatus(deleted({ statuses: [running] }), { exitCode: 143, now });
    assert.equal(status.phase, 'Failed');
    const [app] = status.containerStatuses ?? [];
    assert.deepEqual(
      [app?.state, app?.ready, app?.started],
      [
        {
          terminated: {
            exitCode: 143,
            reason: 'Error',
            startedAt: started,
            finishedAt: now,
            containerID: 'containerd://1',
          },
        },
        false,
        false,
      ],
    );
    const byType = new Map(status.conditions?.map((c) => [c.type, c]));
    assert.deepEqual(
      ['Ready', 'ContainersReady'].map((t) => [byType.get(t)?.status, byType.get(t)?.reason]),
      [
        ['False', 'PodFailed'],
        ['False', 'PodFailed'],
      ],
    );
    assert.equal(byType.get('Initialized')?.lastTransitionTime, started);
    assert.equal(byType.get('DisruptionTarget')?.reason, 'EvictionByEvictionAPI');
  });

  it('is Succeeded when every container had already exited 0', () => {
    const done = { ...running, state: { terminated: { exitCode: 0, reason: 'Completed' } } };
    assert.equal(killedStatus(deleted({ statuses: [done] }), { exitCode: 143, now }).phase, 'Succeeded');
  });

  it('reports a waiting container of an initialized pod as ContainerStatusUnknown, 137', () => {
    const waiting = { ...running, state: { waiting: { reason: 'CrashLoopBackOff' } } };
    const status = killedStatus(deleted({ statuses: [waiting] }), { exitCode: 143, now });
    assert.deepEqual(status.containerStatuses?.[0]?.state, {
      terminated: {
        exitCode: 137,
        reason: 'ContainerStatusUnknown',
        message: 'The container could not be located when the pod was terminated',
      },
    });
    // Before its init containers completed, a pod's waiting containers stay waiting.
    const uninitialized = killedStatus(deleted({ statuses: [waiting], init: true }), { exitCode: 143, now });
    assert.deepEqual(uninitialized.containerStatuses?.[0]?.state, waiting.state);
    assert.equal(uninitialized.phase, 'Failed');
  });

  it('fails a pod whose containers never started', () => {
    const status = killedStatus(deleted({}), { exitCode: 143, now });
    assert.equal(status.phase, 'Failed');
    assert.equal(status.containerStatuses, undefined);
  });
});
