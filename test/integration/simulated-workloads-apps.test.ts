// --simulate on a virtual clock: the StatefulSet and DaemonSet controllers against one server. Time
// only moves when a test advances it: graceful deletions are driven, never waited out.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CapstanServer } from '../../src/index.js';
import {
  container,
  names,
  ns,
  ready,
  startSimulated,
  type List,
  type SimulatedServer,
} from './support/simulated-server.js';
import { waitFor } from './support/wait-for.js';

let server: CapstanServer;
let api: SimulatedServer['api'];
let pods: SimulatedServer['pods'];
before(async () => {
  ({ server, api, pods } = await startSimulated());
});
after(async () => {
  await server.stop();
});

function statefulSet(name: string, extra: Record<string, unknown>, annotations: Record<string, string> = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name },
    spec: {
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name }, annotations }, spec: { containers: container } },
      ...extra,
    },
  };
}

describe('statefulset controller', () => {
  it('makes the claims from volumeClaimTemplates and the pods in order, with their identity', async () => {
    // Its pods ignore SIGTERM, so each scale-down step is seen terminating for its grace period.
    const ignoreSigterm = { 'capstan.dev/stop-seconds': '3600' };
    await api(`/apis/apps/v1${ns}/statefulsets`, {
      body: statefulSet(
        'db',
        {
          replicas: 2,
          volumeClaimTemplates: [
            {
              metadata: { name: 'data' },
              spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
            },
          ],
        },
        ignoreSigterm,
      ),
    });
    const set = await waitFor(
      'db ready',
      () => api(`/apis/apps/v1${ns}/statefulsets/db`),
      (s) => s.status?.['readyReplicas'] === 2 && s.status['currentRevision'] === s.status['updateRevision'],
    );
    assert.equal(set.status?.['replicas'], 2);
    const claims = await api<List>(`/api/v1${ns}/persistentvolumeclaims?labelSelector=app%3Ddb`);
    assert.deepEqual(names(claims), ['data-db-0', 'data-db-1']);
    const list = await pods('app=db');
    assert.deepEqual(names(list), ['db-0', 'db-1']);
    for (const pod of list.items) {
      assert.equal(pod.spec?.hostname, pod.metadata.name);
      assert.equal(pod.spec['subdomain'], 'db');
      assert.equal(pod.metadata.labels?.['statefulset.kubernetes.io/pod-name'], pod.metadata.name);
      assert.equal(pod.metadata.labels['controller-revision-hash'], set.status['updateRevision']);
      const claim = pod.spec.volumes?.find((v) => v.name === 'data')?.persistentVolumeClaim?.claimName;
      assert.equal(claim, `data-${pod.metadata.name}`);
    }
  });

  it('OrderedReady waits for each pod to be Ready; Parallel makes them all at once', async () => {
    const pending = { 'capstan.dev/stay-pending': 'true' };
    await api(`/apis/apps/v1${ns}/statefulsets`, { body: statefulSet('ordered', { replicas: 3 }, pending) });
    await api(`/apis/apps/v1${ns}/statefulsets`, {
      body: statefulSet('par', { replicas: 3, podManagementPolicy: 'Parallel' }, pending),
    });
    await waitFor(
      'par pods',
      () => pods('app=par'),
      (l) => l.items.length === 3,
    );
    await waitFor(
      'ordered counted its first pod',
      () => api(`/apis/apps/v1${ns}/statefulsets/ordered`),
      (s) => s.status?.['replicas'] === 1,
    );
    assert.deepEqual(names(await pods('app=ordered')), ['ordered-0']);
  });

  it('scales down from the highest ordinal, one pod at a time', async () => {
    await api(`/apis/apps/v1${ns}/statefulsets/db`, {
      method: 'PATCH',
      patch: true,
      body: { spec: { replicas: 0 } },
    });
    const first = await waitFor(
      'db-1 terminating',
      () => pods('app=db'),
      (l) => l.items.some((p) => p.metadata.name === 'db-1' && p.metadata.deletionTimestamp !== undefined),
    );
    assert.equal(first.items.find((p) => p.metadata.name === 'db-0')?.metadata.deletionTimestamp, undefined);
    await server.clock.advance('31s');
    await waitFor(
      'db-0 terminating, db-1 gone',
      () => pods('app=db'),
      (l) => names(l).join() === 'db-0' && l.items[0]?.metadata.deletionTimestamp !== undefined,
    );
    await server.clock.advance('31s');
    await waitFor(
      'db empty',
      () => pods('app=db'),
      (l) => l.items.length === 0,
    );
    // The claims are retained.
    const claims = await api<List>(`/api/v1${ns}/persistentvolumeclaims?labelSelector=app%3Ddb`);
    assert.equal(claims.items.length, 2);
  });
});

describe('daemonset controller', () => {
  it('runs one pod on each node that matches, and counts them', async () => {
    const ds = (name: string, nodeSelector?: Record<string, string>) => ({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name },
      spec: {
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: { containers: container, ...(nodeSelector === undefined ? {} : { nodeSelector }) },
        },
      },
    });
    await api(`/apis/apps/v1${ns}/daemonsets`, { body: ds('agent') });
    await api(`/apis/apps/v1${ns}/daemonsets`, {
      body: ds('one', { 'kubernetes.io/hostname': 'sim-node-1' }),
    });
    const status = await waitFor(
      'agent ready on 3 nodes',
      () => api(`/apis/apps/v1${ns}/daemonsets/agent`),
      (d) => d.status?.['numberReady'] === 3,
    );
    assert.equal(status.status?.['desiredNumberScheduled'], 3);
    assert.equal(status.status['updatedNumberScheduled'], 3);
    const agents = await pods('app=agent');
    assert.deepEqual(agents.items.map((p) => p.spec?.nodeName).sort(), [
      'sim-node-0',
      'sim-node-1',
      'sim-node-2',
    ]);
    const one = await waitFor(
      'one on sim-node-1',
      () => pods('app=one'),
      (l) => l.items.some((p) => ready(p)),
    );
    assert.deepEqual(
      one.items.map((p) => p.spec?.nodeName),
      ['sim-node-1'],
    );
  });
});

describe('daemonset controller and taints', () => {
  const taint = (taints: { key: string; value: string; effect: string }[]) =>
    api('/api/v1/nodes/sim-node-2', { method: 'PATCH', patch: true, body: { spec: { taints } } });
  after(async () => {
    await taint([]);
  });

  it('keeps its pod on a node tainted NoSchedule (misscheduled), and leaves one tainted NoExecute', async () => {
    await taint([{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }]);
    const ds = await waitFor(
      'agent misscheduled on sim-node-2',
      () => api(`/apis/apps/v1${ns}/daemonsets/agent`),
      (d) => d.status?.['numberMisscheduled'] === 1,
    );
    assert.equal(ds.status?.['desiredNumberScheduled'], 2);
    const onNode2 = (l: List) => l.items.filter((p) => p.spec?.nodeName === 'sim-node-2');
    assert.equal(onNode2(await pods('app=agent'))[0]?.metadata.deletionTimestamp, undefined);
    await taint([{ key: 'dedicated', value: 'x', effect: 'NoExecute' }]);
    await waitFor(
      'agent pod on sim-node-2 deleted',
      () => pods('app=agent'),
      (l) => onNode2(l).every((p) => p.metadata.deletionTimestamp !== undefined),
    );
  });
});
