// --simulate on a virtual clock: a simulated node whose kubelet is stopped (the
// capstan.dev/kubelet-stopped annotation) goes Unknown and unreachable after the node monitor grace
// period, its pods are marked not Ready and evicted by the taint eviction controller when their
// tolerationSeconds run out (300 s from DefaultTolerationSeconds admission), and once the kubelet is
// started again the node is Ready and untainted, and its terminating pods go.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { waitFor } from './support/wait-for.js';

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}
interface Taint {
  key: string;
  effect: string;
  timeAdded?: string;
}
interface Node {
  metadata: { annotations?: Record<string, string> };
  spec?: { taints?: Taint[] };
  status?: { conditions?: Condition[] };
}
interface Pod {
  metadata: { name: string; deletionTimestamp?: string };
  spec?: { tolerations?: { key?: string; tolerationSeconds?: number }[] };
  status?: { phase?: string; conditions?: Condition[] };
}
interface Lease {
  spec?: { renewTime?: string };
}
interface EventList {
  items: { reason?: string; message?: string; involvedObject?: { name?: string } }[];
}

const stoppedNode = 'sim-node-1';
let server: CapstanServer;

async function api<T>(path: string, init: { method?: string; body?: unknown; patch?: boolean } = {}) {
  const token = server.kubeConfig.users[0]?.user.token ?? '';
  const res = await fetch(`${server.url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': init.patch === true ? 'application/merge-patch+json' : 'application/json',
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await res.text();
  return { code: res.status, body: JSON.parse(text) as T };
}
const node = async (name: string) => (await api<Node>(`/api/v1/nodes/${name}`)).body;
const pod = async (name: string) => {
  const { code, body } = await api<Pod>(`/api/v1/namespaces/default/pods/${name}`);
  return code === 404 ? undefined : body;
};
const condition = (conditions: Condition[] | undefined, type: string) =>
  conditions?.find((c) => c.type === type);
const taintKeys = (n: Node) => (n.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).sort();
const stopKubelet = (stopped: boolean) =>
  api(`/api/v1/nodes/${stoppedNode}`, {
    method: 'PATCH',
    patch: true,
    body: { metadata: { annotations: { 'capstan.dev/kubelet-stopped': stopped ? 'true' : null } } },
  });

/** Moves the clock in 5 s steps, each once the running nodes' renewed Leases are stored. */
async function advance(seconds: number): Promise<void> {
  for (let left = seconds; left > 0; left -= 5) {
    await server.clock.advance(Math.min(5, left) * 1000);
    const due = server.clock.now() - 10_000;
    await waitFor(
      'the running kubelets to renew their Leases',
      () =>
        Promise.all(
          ['sim-node-0', 'sim-node-2'].map(
            async (n) =>
              (await api<Lease>(`/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${n}`)).body,
          ),
        ),
      (leases) => leases.every((l) => Date.parse(l.spec?.renewTime ?? '') >= due),
    );
  }
}

const createPod = (name: string, tolerations: unknown[] = []) =>
  api('/api/v1/namespaces/default/pods', {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name },
      spec: { nodeName: stoppedNode, containers: [{ name: 'c', image: 'nginx' }], tolerations },
    },
  });

before(async () => {
  server = await startCapstan({ scheme: 'http', clock: 'virtual', simulate: { nodes: 3 } });
});
after(async () => {
  await server.stop();
});

describe('node lifecycle in the simulated cluster', () => {
  let unreachableSince = 0;

  it('registers Ready nodes whose not-ready taint the controller lifts', async () => {
    const ready = await waitFor(
      'a Ready, untainted node',
      () => node(stoppedNode),
      (n) => condition(n.status?.conditions, 'Ready')?.status === 'True' && taintKeys(n).length === 0,
    );
    assert.equal(condition(ready.status?.conditions, 'Ready')?.reason, 'KubeletReady');
    await createPod('plain');
    await createPod('forever', [
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
    ]);
    await createPod('short', [
      {
        key: 'node.kubernetes.io/unreachable',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 30,
      },
    ]);
    for (const name of ['plain', 'forever', 'short'])
      await waitFor(
        `${name} ready`,
        () => pod(name),
        (p) => condition(p?.status?.conditions, 'Ready')?.status === 'True',
      );
    const plain = await pod('plain');
    const seconds = plain?.spec?.tolerations?.map((t) => `${t.key ?? ''}=${String(t.tolerationSeconds)}`);
    assert.deepEqual(seconds, ['node.kubernetes.io/not-ready=300', 'node.kubernetes.io/unreachable=300']);
  });

  it('a node whose kubelet stops goes Unknown after the 50 s grace period, tainted unreachable', async () => {
    assert.equal((await stopKubelet(true)).code, 200);
    await advance(35);
    const early = await node(stoppedNode);
    assert.equal(condition(early.status?.conditions, 'Ready')?.status, 'True', 'within the grace period');
    await advance(30);
    const silent = await waitFor(
      'the unreachable NoExecute taint',
      () => node(stoppedNode),
      (n) => taintKeys(n).includes('node.kubernetes.io/unreachable:NoExecute'),
    );
    for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
      const c = condition(silent.status?.conditions, type);
      assert.deepEqual(
        { status: c?.status, reason: c?.reason, message: c?.message },
        { status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' },
        type,
      );
    }
    assert.deepEqual(taintKeys(silent), [
      'node.kubernetes.io/unreachable:NoExecute',
      'node.kubernetes.io/unreachable:NoSchedule',
    ]);
    const noExecute = silent.spec?.taints?.find((t) => t.effect === 'NoExecute');
    unreachableSince = Date.parse(noExecute?.timeAdded ?? '');
    assert.ok(unreachableSince > 0, 'the NoExecute taint carries timeAdded');
    // MarkPodsNotReady.
    const forever = await waitFor(
      'forever marked not Ready',
      () => pod('forever'),
      (p) => condition(p?.status?.conditions, 'Ready')?.status === 'False',
    );
    assert.equal(forever?.metadata.deletionTimestamp, undefined);
    const others = await node('sim-node-0');
    assert.equal(
      condition(others.status?.conditions, 'Ready')?.status,
      'True',
      'the running nodes stay Ready',
    );
  });

  it('evicts pods when their toleration runs out: 30 s, then the 300 s default', async () => {
    await advance(35);
    const short = await waitFor(
      'short evicted',
      () => pod('short'),
      (p) => p === undefined || p.metadata.deletionTimestamp !== undefined,
    );
    const disruption = condition(short?.status?.conditions, 'DisruptionTarget');
    assert.deepEqual(
      { status: disruption?.status, reason: disruption?.reason, message: disruption?.message },
      {
        status: 'True',
        reason: 'DeletionByTaintManager',
        message: 'Taint manager: deleting due to NoExecute taint',
      },
    );
    await advance(Math.ceil((unreachableSince + 290_000 - server.clock.now()) / 1000));
    assert.equal((await pod('plain'))?.metadata.deletionTimestamp, undefined, 'not before 300 s');
    await advance(15);
    const plain = await waitFor(
      'plain evicted',
      () => pod('plain'),
      (p) => p?.metadata.deletionTimestamp !== undefined,
    );
    assert.equal(condition(plain?.status?.conditions, 'DisruptionTarget')?.reason, 'DeletionByTaintManager');
    assert.equal((await pod('forever'))?.metadata.deletionTimestamp, undefined, 'tolerates forever');
    const events = (await api<EventList>('/api/v1/namespaces/default/events')).body.items;
    const said = (reason: string, name: string) =>
      events.filter((e) => e.reason === reason && e.involvedObject?.name === name).map((e) => e.message);
    assert.deepEqual(said('TaintManagerEviction', 'plain'), ['Marking for deletion Pod default/plain']);
    assert.deepEqual(said('NodeNotReady', 'forever'), ['Node is not ready']);
    assert.deepEqual(said('NodeNotReady', stoppedNode), [`Node ${stoppedNode} status is now: NodeNotReady`]);
  });

  it('a kubelet started again makes its node Ready and untainted, and finishes its terminating pods', async () => {
    assert.equal((await stopKubelet(false)).code, 200);
    await waitFor(
      'Ready again',
      () => node(stoppedNode),
      (n) => condition(n.status?.conditions, 'Ready')?.status === 'True',
    );
    await advance(5);
    await waitFor(
      'taints lifted',
      () => node(stoppedNode),
      (n) => taintKeys(n).length === 0,
    );
    await waitFor(
      'forever Ready again',
      () => pod('forever'),
      (p) => condition(p?.status?.conditions, 'Ready')?.status === 'True',
    );
    await advance(30);
    await waitFor(
      'evicted pods gone',
      () => Promise.all([pod('plain'), pod('short')]),
      (ps) => ps.every((p) => p === undefined),
    );
  });
});
