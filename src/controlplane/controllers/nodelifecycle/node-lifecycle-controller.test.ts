// The node lifecycle and taint eviction controllers over real in-memory storages, on a virtual clock
// the test advances: the test plays the kubelets (it renews one node's Lease and leaves the other
// silent).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Event } from '../../../api/core/v1/event.js';
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod, Toleration } from '../../../api/core/v1/pod.js';
import type { Lease } from '../../../api/coordination/v1/lease.js';
import { VirtualClock } from '../../../machinery/time/clock.js';
import { newLeaseREST } from '../../../registry/coordination/lease/storage.js';
import { newEventREST } from '../../../registry/core/event/storage.js';
import { newNodeREST } from '../../../registry/core/node/storage.js';
import { newPodREST } from '../../../registry/core/pod/storage.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../../registry/generic/testing/memory-rest-options.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import type { Store } from '../../../registry/generic/store.js';
import { internalContext } from '../../../registry/rest/context.js';
import { Logger, memorySink } from '../../../server/logging/logger.js';
import { EventRecorder, eventsIn } from '../event-recorder.js';
import { APIClient, type ResourcePath } from '../simulation/api-client.js';
import { rfc3339, simClockOf } from '../simulation/clock.js';
import { Informer } from '../simulation/informer.js';
import { TaintEvictionController } from '../tainteviction/taint-eviction-controller.js';
import { NodeLifecycleController } from './node-lifecycle-controller.js';

async function waitFor<T>(what: string, probe: () => Promise<T> | T, holds: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const v = await probe();
    if (holds(v)) return v;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const clock = new VirtualClock(Date.parse('2026-03-01T00:00:00Z'));
const abort = new AbortController();
let env: MemoryRESTOptions;
let client: APIClient;
let groups: APIGroupInfo[];
let lifecycle: NodeLifecycleController;
let eviction: TaintEvictionController;
const informers: Promise<void>[] = [];

const nodeObj = (name: string): Node => {
  const now = rfc3339(clock.now());
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name },
    status: {
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
        },
      ],
    },
  };
};
const getNode = (name: string) => client.get<Node>('/v1/nodes', { namespace: '', name });
const getPod = async (name: string): Promise<Pod | undefined> => {
  try {
    return await client.get<Pod>('/v1/pods', { namespace: 'default', name });
  } catch {
    return undefined;
  }
};
const ready = (n: Node | Pod | undefined) => n?.status?.conditions?.find((c) => c.type === 'Ready')?.status;
const taintKeys = (n: Node) => (n.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).sort();

/** The node's kubelet posting its Ready condition. */
async function postReady(name: string, status: 'True' | 'False'): Promise<void> {
  const node = await getNode(name);
  const now = rfc3339(clock.now());
  const reason = status === 'True' ? 'KubeletReady' : 'KubeletNotReady';
  await client.update('/v1/nodes/status', {
    ...node,
    status: {
      conditions: [{ type: 'Ready', status, reason, lastHeartbeatTime: now, lastTransitionTime: now }],
    },
  });
}

async function renewLease(name: string): Promise<void> {
  const path = 'coordination.k8s.io/v1/leases';
  const spec = { holderIdentity: name, renewTime: new Date(clock.now()).toISOString() };
  try {
    const lease = await client.get<Lease>(path, { namespace: 'kube-node-lease', name });
    await client.update(path, { ...lease, spec });
  } catch {
    await client.create(path, 'kube-node-lease', { metadata: { name, namespace: 'kube-node-lease' }, spec });
  }
}

/** Advances in 5 s steps; nodes b and c renew their Leases every 10 s, node a is silent. */
async function advance(seconds: number): Promise<void> {
  for (let s = 0; s < seconds; s += 5) {
    await clock.advance(5000);
    if ((clock.now() / 1000) % 10 === 0) {
      await renewLease('b');
      await renewLease('c');
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function createPod(name: string, tolerations?: Toleration[]) {
  const pod = await client.create<Pod>('/v1/pods', 'default', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: {
      nodeName: 'a',
      containers: [{ name: 'c', image: 'nginx' }],
      ...(tolerations === undefined ? {} : { tolerations }),
    },
  });
  const now = rfc3339(clock.now());
  await client.update('/v1/pods/status', {
    ...pod,
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }] },
  });
}

before(async () => {
  env = await memoryRESTOptions();
  const opts = { restOptionsGetter: env.getter };
  const nodes = await newNodeREST(opts);
  const pods = await newPodREST(opts);
  eventStore = await newEventREST(opts);
  groups = [
    {
      group: '',
      prioritizedVersions: ['v1'],
      versionedResourcesStorageMap: {
        v1: {
          nodes: nodes.nodes,
          'nodes/status': nodes.status,
          pods: pods.pods,
          'pods/status': pods.status,
          events: eventStore,
        },
      },
    },
    {
      group: 'coordination.k8s.io',
      prioritizedVersions: ['v1'],
      versionedResourcesStorageMap: { v1: { leases: await newLeaseREST(opts) } },
    },
  ];
  client = new APIClient({ groups, signal: abort.signal, fieldManager: 'test' });
  const logger = new Logger({ sink: memorySink(), verbosity: 4 });
  const informer = <T extends Node | Pod | Lease>(path: ResourcePath) => {
    const i = new Informer<T>(client.source(path), () => undefined);
    informers.push(i.run(abort.signal));
    return i;
  };
  const nodeInformer = informer<Node>('/v1/nodes');
  const podInformer = informer<Pod>('/v1/pods');
  const leaseInformer = informer<Lease>('coordination.k8s.io/v1/leases');
  await Promise.all([nodeInformer.synced, podInformer.synced, leaseInformer.synced]);
  const recorder = (component: string) =>
    new EventRecorder({ events: eventsIn(groups), component, logger, now: () => clock.now() });
  const sim = simClockOf(clock);
  lifecycle = new NodeLifecycleController({
    client,
    nodes: nodeInformer,
    leases: leaseInformer,
    pods: podInformer,
    clock: sim,
    logger,
    recorder: recorder('node-controller'),
  });
  eviction = new TaintEvictionController({
    client,
    nodes: nodeInformer,
    pods: podInformer,
    clock: sim,
    logger,
    recorder: recorder('taint-eviction-controller'),
  });
  for (const name of ['a', 'b', 'c']) {
    await client.create('/v1/nodes', '', {
      ...nodeObj(name),
      spec: { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] },
    });
    await renewLease(name);
  }
  await createPod('untolerating');
  await createPod('tolerating', [
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
  ]);
  lifecycle.run();
  eviction.run();
});

after(async () => {
  await lifecycle.close();
  await eviction.close();
  abort.abort();
  await Promise.all(informers);
  await env.close();
});

let eventStore: Store<Event>;
const events = async (reason: string) => {
  const list = await eventStore.list(internalContext({ namespace: 'default' }), {});
  return list.items
    .filter((e) => e.reason === reason)
    .map((e) => `${e.involvedObject?.name ?? ''}: ${e.message ?? ''}`)
    .sort();
};

describe('node lifecycle controller', () => {
  it('lifts the not-ready NoSchedule taint of a Ready node and registers it', async () => {
    await waitFor(
      'untainted nodes',
      () => Promise.all([getNode('a'), getNode('b'), getNode('c')]),
      (ns) => ns.every((n) => taintKeys(n).length === 0),
    );
    const registered = [
      'a: Node a event: Registered Node a in Controller',
      'b: Node b event: Registered Node b in Controller',
      'c: Node c event: Registered Node c in Controller',
    ];
    await waitFor(
      'RegisteredNode events',
      () => events('RegisteredNode'),
      (e) => e.join() === registered.join(),
    );
  });

  it('a silent node goes Unknown after 50 s, its pods not Ready, tainted unreachable; untolerating pods go at once', async () => {
    await advance(45);
    assert.equal(ready(await getNode('a')), 'True');
    await advance(10);
    const a = await waitFor(
      'a Unknown',
      () => getNode('a'),
      (n) => ready(n) === 'Unknown',
    );
    assert.equal(a.status?.conditions?.[0]?.reason, 'NodeStatusUnknown');
    assert.equal(ready(await getNode('b')), 'True', 'b renews its Lease');
    await waitFor(
      'pods not Ready',
      () => Promise.all([getPod('untolerating'), getPod('tolerating')]),
      (ps) => ps.every((p) => ready(p) === 'False'),
    );
    await advance(5);
    await waitFor(
      'a unreachable',
      () => getNode('a'),
      (n) =>
        taintKeys(n).join() ===
        'node.kubernetes.io/unreachable:NoExecute,node.kubernetes.io/unreachable:NoSchedule',
    );
    const gone = await waitFor(
      'untolerating evicted',
      () => getPod('untolerating'),
      (p) => p?.metadata?.deletionTimestamp !== undefined,
    );
    const target = gone?.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
    assert.equal(target?.reason, 'DeletionByTaintManager');
    assert.equal((await getPod('tolerating'))?.metadata?.deletionTimestamp, undefined);
    await waitFor(
      'NodeNotReady events',
      () => events('NodeNotReady'),
      (e) => e.length === 3,
    );
    assert.deepEqual(await events('NodeNotReady'), [
      'a: Node a status is now: NodeNotReady',
      'tolerating: Node is not ready',
      'untolerating: Node is not ready',
    ]);
  });

  it('a node whose kubelet reports Ready=False is tainted not-ready, NoExecute at the zone rate', async () => {
    await postReady('b', 'False');
    await waitFor(
      'b not-ready NoSchedule',
      () => getNode('b'),
      (n) => taintKeys(n).join() === 'node.kubernetes.io/not-ready:NoSchedule',
    );
    // a took the zone's token 5 s ago: the next comes 10 s after it.
    await advance(5);
    assert.deepEqual(taintKeys(await getNode('b')), ['node.kubernetes.io/not-ready:NoSchedule']);
    await advance(5);
    await waitFor(
      'b not-ready NoExecute',
      () => getNode('b'),
      (n) =>
        taintKeys(n).join() ===
        'node.kubernetes.io/not-ready:NoExecute,node.kubernetes.io/not-ready:NoSchedule',
    );
  });

  it('when every node is down the NoExecute taints go and scheduled evictions are cancelled', async () => {
    await postReady('c', 'False');
    await advance(5);
    await waitFor(
      'a without NoExecute',
      () => getNode('a'),
      (n) => taintKeys(n).join() === 'node.kubernetes.io/unreachable:NoSchedule',
    );
    await waitFor(
      'b and c with not-ready NoSchedule only',
      () => Promise.all([getNode('b'), getNode('c')]),
      (ns) => ns.every((n) => taintKeys(n).join() === 'node.kubernetes.io/not-ready:NoSchedule'),
    );
    await waitFor(
      'cancelled',
      () => events('TaintManagerEviction'),
      (e) => e.includes('tolerating: Cancelling deletion of Pod default/tolerating'),
    );
    await advance(70);
    assert.equal(
      (await getPod('tolerating'))?.metadata?.deletionTimestamp,
      undefined,
      'no eviction in master disruption mode',
    );
  });

  it('once nodes are Ready again, evictions resume on the silent one after its toleration', async () => {
    await postReady('b', 'True');
    await postReady('c', 'True');
    await advance(5);
    await waitFor(
      'b and c untainted',
      () => Promise.all([getNode('b'), getNode('c')]),
      (ns) => ns.every((n) => taintKeys(n).length === 0),
    );
    // a is still Unknown: it is tainted again once the zone's drained limiter has a token (10 s),
    // and its pod's toleration counts from then.
    await advance(10);
    await waitFor(
      'a unreachable again',
      () => getNode('a'),
      (n) => taintKeys(n).includes('node.kubernetes.io/unreachable:NoExecute'),
    );
    await advance(55);
    assert.equal((await getPod('tolerating'))?.metadata?.deletionTimestamp, undefined);
    await advance(10);
    await waitFor(
      'tolerating evicted',
      () => getPod('tolerating'),
      (p) => p?.metadata?.deletionTimestamp !== undefined,
    );
  });
});
