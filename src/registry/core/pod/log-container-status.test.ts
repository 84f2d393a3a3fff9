// The run a log request reads, and the kubelet's 400s when there is none (validateContainerLogStatus).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { ContainerState, ContainerStatus } from '../../../api/core/v1/pod-status.js';
import { isStatusError } from '../../../machinery/errors/index.js';
import { logInstance } from './log-container-status.js';

const status = (state: ContainerState, extra: Partial<ContainerStatus> = {}): ContainerStatus => ({
  name: 'c',
  state,
  ready: false,
  restartCount: 0,
  image: 'x',
  imageID: '',
  ...extra,
});

function pod(statuses: ContainerStatus[] | undefined, init = false): Pod {
  return {
    metadata: { name: 'p' },
    spec: {
      containers: [{ name: 'c', image: 'x' }],
      ...(init ? { initContainers: [{ name: 'i', image: 'x' }] } : {}),
    },
    status: statuses === undefined ? {} : { containerStatuses: statuses },
  };
}

function refusal(p: Pod, previous = false, container = 'c'): string {
  try {
    logInstance(p, container, previous);
  } catch (err) {
    if (isStatusError(err) && err.status.code === 400) return err.status.message ?? '';
    throw err;
  }
  return assert.fail('not refused');
}

describe('the container run a log reads', () => {
  it("refuses a container that has not started with the kubelet's reason", () => {
    const waiting = (reason: string) => pod([status({ waiting: { reason } })]);
    assert.equal(
      refusal(waiting('ContainerCreating')),
      'container "c" in pod "p" is waiting to start: ContainerCreating',
    );
    assert.equal(
      refusal(waiting('ErrImagePull')),
      `container "c" in pod "p" is waiting to start: image can't be pulled`,
    );
    assert.equal(
      refusal(waiting('ImagePullBackOff')),
      'container "c" in pod "p" is waiting to start: trying and failing to pull image',
    );
    // Not reported yet: as the kubelet's first status says.
    assert.equal(refusal(pod(undefined)), 'container "c" in pod "p" is waiting to start: ContainerCreating');
    assert.equal(
      refusal(pod(undefined, true)),
      'container "c" in pod "p" is waiting to start: PodInitializing',
    );
    assert.equal(
      refusal(pod(undefined, true), false, 'i'),
      'container "i" in pod "p" is waiting to start: ContainerCreating',
    );
    assert.equal(refusal(pod([status({})])), 'container "c" in pod "p" is waiting to start - no logs yet');
  });

  it('reads the running run, a terminated one, or the last one of a container waiting to restart', () => {
    const run = logInstance(
      pod([status({ running: { startedAt: '2026-01-02T03:04:05Z' } }, { containerID: 'x://1' })]),
      'c',
      false,
    );
    assert.deepEqual(run, {
      containerID: 'x://1',
      startedAt: Date.parse('2026-01-02T03:04:05Z'),
      running: true,
    });
    const last = { terminated: { exitCode: 1, startedAt: '2026-01-02T03:00:00Z', containerID: 'x://0' } };
    const crashing = pod([status({ waiting: { reason: 'CrashLoopBackOff' } }, { lastState: last })]);
    assert.deepEqual(logInstance(crashing, 'c', false), {
      containerID: 'x://0',
      startedAt: Date.parse('2026-01-02T03:00:00Z'),
      running: false,
    });
    assert.equal(logInstance(crashing, 'c', true).containerID, 'x://0');
    const done = pod([
      status({ terminated: { exitCode: 0, startedAt: '2026-01-02T03:00:00Z' } }, { containerID: 'x://2' }),
    ]);
    assert.equal(logInstance(done, 'c', false).containerID, 'x://2');
    const noRun = pod([status({ terminated: { exitCode: 1, containerID: '' } })]);
    assert.equal(refusal(noRun), 'container "c" in pod "p" is terminated');
  });

  it('refuses previous without a terminated run', () => {
    const p = pod([status({ running: {} }, { containerID: 'x://1' })]);
    assert.equal(refusal(p, true), 'previous terminated container "c" in pod "p" not found');
  });
});
