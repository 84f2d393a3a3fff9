import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../../api/core/v1/pod.js';
import { killEvents, startEvents } from './container-events.js';
import { goDuration } from './go-duration.js';
import { nodeStartEvents } from './node-events.js';
import { runningStatus, withEphemeralStarted } from './pod-status.js';

const now = '2026-12-03T12:00:00Z';

function pod(): Pod {
  return {
    metadata: { name: 'web', namespace: 'default', uid: 'u1', resourceVersion: '7' },
    spec: {
      nodeName: 'sim-node-0',
      initContainers: [
        { name: 'setup', image: 'busybox:1.36', imagePullPolicy: 'IfNotPresent' },
        { name: 'proxy', image: 'envoy:1.30', imagePullPolicy: 'IfNotPresent', restartPolicy: 'Always' },
      ],
      containers: [
        { name: 'web', image: 'nginx', imagePullPolicy: 'Always' },
        { name: 'helper', image: 'busybox:1.36', imagePullPolicy: 'IfNotPresent' },
      ],
    },
    status: { phase: 'Pending' },
  };
}

const lines = (events: ReturnType<typeof startEvents>) =>
  events.map((e) => `${e.ref.fieldPath ?? ''} ${e.reason}: ${e.message}`);

describe("a simulated kubelet's container events", () => {
  it('records pulls, creates and starts in the order kubelet starts the containers', () => {
    const p = pod();
    const after = runningStatus(p, { hostIP: '172.18.0.2', podIP: '10.244.0.5' }, now);
    const events = startEvents(p, { after, holds: (image) => image === 'envoy:1.30' });
    assert.deepEqual(lines(events), [
      'spec.initContainers{setup} Pulling: Pulling image "busybox:1.36"',
      'spec.initContainers{setup} Pulled: Successfully pulled image "busybox:1.36" in 430ms (430ms including waiting). Image size: 45088768 bytes.',
      'spec.initContainers{setup} Created: Created container: setup',
      'spec.initContainers{setup} Started: Started container setup',
      'spec.initContainers{proxy} Pulled: Container image "envoy:1.30" already present on machine',
      'spec.initContainers{proxy} Created: Created container: proxy',
      'spec.initContainers{proxy} Started: Started container proxy',
      'spec.containers{web} Pulling: Pulling image "nginx"',
      'spec.containers{web} Pulled: Successfully pulled image "nginx" in 4.99s (4.99s including waiting). Image size: 523239424 bytes.',
      'spec.containers{web} Created: Created container: web',
      'spec.containers{web} Started: Started container web',
      // The init container pulled it a moment ago.
      'spec.containers{helper} Pulled: Container image "busybox:1.36" already present on machine',
      'spec.containers{helper} Created: Created container: helper',
      'spec.containers{helper} Started: Started container helper',
    ]);
    assert.deepEqual(events[0]?.ref, {
      kind: 'Pod',
      namespace: 'default',
      name: 'web',
      uid: 'u1',
      apiVersion: 'v1',
      resourceVersion: '7',
      fieldPath: 'spec.initContainers{setup}',
    });
    assert.ok(events.every((e) => e.type === 'Normal'));
  });

  it('records nothing for containers already running, and a pull of a held image that is always pulled', () => {
    const p = pod();
    p.status = runningStatus(p, { hostIP: '172.18.0.2', podIP: '10.244.0.5' }, now);
    assert.deepEqual(startEvents(p, { after: p.status, holds: () => true }), []);
    // Back from CrashLoopBackOff: the containers start again, the init containers do not.
    const waiting = { ...p, status: { ...p.status, containerStatuses: [] } };
    assert.deepEqual(lines(startEvents(waiting, { after: p.status, holds: () => true })).slice(0, 2), [
      'spec.containers{web} Pulling: Pulling image "nginx"',
      'spec.containers{web} Pulled: Successfully pulled image "nginx" in 499ms (499ms including waiting). Image size: 523239424 bytes.',
    ]);
  });

  it('records the start of an ephemeral container added to a running pod (kubectl debug)', () => {
    const p = pod();
    p.status = runningStatus(p, { hostIP: '172.18.0.2', podIP: '10.244.0.5' }, now);
    p.spec = {
      ...p.spec,
      containers: p.spec?.containers ?? [],
      ephemeralContainers: [{ name: 'debugger', image: 'busybox:1.36' }],
    };
    const after = withEphemeralStarted(p, now);
    assert.ok(after !== undefined);
    assert.deepEqual(lines(startEvents(p, { after, holds: () => true })), [
      'spec.ephemeralContainers{debugger} Pulled: Container image "busybox:1.36" already present on machine',
      'spec.ephemeralContainers{debugger} Created: Created container: debugger',
      'spec.ephemeralContainers{debugger} Started: Started container debugger',
    ]);
  });

  it('stops the running containers, then the sidecars', () => {
    const p = pod();
    p.status = runningStatus(p, { hostIP: '172.18.0.2', podIP: '10.244.0.5' }, now);
    assert.deepEqual(lines(killEvents(p)), [
      'spec.containers{helper} Killing: Stopping container helper',
      'spec.containers{web} Killing: Stopping container web',
      'spec.initContainers{proxy} Killing: Stopping container proxy',
    ]);
    assert.deepEqual(killEvents(pod()), []);
  });

  it("records a node's start as kubelet does", () => {
    assert.deepEqual(
      nodeStartEvents('sim-node-1').map((e) => `${e.reason}: ${e.message}`),
      [
        'Starting: Starting kubelet.',
        'NodeHasSufficientMemory: Node sim-node-1 status is now: NodeHasSufficientMemory',
        'NodeHasNoDiskPressure: Node sim-node-1 status is now: NodeHasNoDiskPressure',
        'NodeHasSufficientPID: Node sim-node-1 status is now: NodeHasSufficientPID',
        'NodeAllocatableEnforced: Updated Node Allocatable limit across pods',
        'NodeReady: Node sim-node-1 status is now: NodeReady',
      ],
    );
  });
});

describe('goDuration', () => {
  it("prints milliseconds as Go's time.Duration String does", () => {
    const cases: [number, string][] = [
      [0, '0s'],
      [1, '1ms'],
      [796, '796ms'],
      [1000, '1s'],
      [1594, '1.594s'],
      [7260, '7.26s'],
      [60_000, '1m0s'],
      [61_500, '1m1.5s'],
      [3_600_000, '1h0m0s'],
      [3_723_004, '1h2m3.004s'],
    ];
    for (const [ms, text] of cases) assert.equal(goDuration(ms), text, String(ms));
  });
});
