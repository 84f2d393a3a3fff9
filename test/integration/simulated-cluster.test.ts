// --simulate --simulate-nodes 3 in process: the simulated nodes and their leases, the scheduler, the
// kubelets, and the ReplicaSet and Deployment controllers, all against one server.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startInProcess, type InProcessServer } from './support/in-process-server.js';
import { waitFor } from './support/wait-for.js';

interface Obj {
  metadata: {
    name: string;
    uid?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: { uid: string; controller?: boolean; kind: string }[];
    deletionTimestamp?: string;
    deletionGracePeriodSeconds?: number;
  };
  spec?: Record<string, unknown> & { nodeName?: string };
  status?: Record<string, unknown> & {
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
  };
}
interface List {
  items: Obj[];
}

let server: InProcessServer;
let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'capstan-simulate-'));
  server = await startInProcess((o) => {
    o.storage.backend = 'memory';
    o.storage.dataDir = dir;
    o.simulate = true;
    o.simulateNodes = 3;
  });
});
after(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

const condition = (o: Obj, type: string) => o.status?.conditions?.find((c) => c.type === type);

describe('simulated nodes', () => {
  it('registers N Ready nodes with capacity, allocatable and a pod CIDR each', async () => {
    const nodes = await waitFor(
      'three nodes',
      () => server.json<List>('/api/v1/nodes'),
      (l) => l.items.length === 3,
    );
    assert.deepEqual(nodes.items.map((n) => n.metadata.name).sort(), [
      'sim-node-0',
      'sim-node-1',
      'sim-node-2',
    ]);
    for (const node of nodes.items) {
      assert.equal(condition(node, 'Ready')?.status, 'True');
      assert.equal(condition(node, 'Ready')?.reason, 'KubeletReady');
      assert.deepEqual(node.status?.['allocatable'], node.status?.['capacity']);
      assert.equal((node.status?.['capacity'] as Record<string, string>)['pods'], '110');
      assert.equal(node.metadata.labels?.['kubernetes.io/hostname'], node.metadata.name);
      // kube 1.33's kubelet: DisableNodeKubeProxyVersion is on, so the field is written empty.
      const info = node.status?.['nodeInfo'] as Record<string, string>;
      assert.deepEqual([info['kubeletVersion'], info['kubeProxyVersion']], ['v1.33.0', '']);
    }
    const cidrs = new Set(nodes.items.map((n) => n.spec?.['podCIDR']));
    assert.equal(cidrs.size, 3);
  });

  it('holds a lease per node in kube-node-lease, owned by the node', async () => {
    const leases = await waitFor(
      'three leases',
      () => server.json<List>('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases'),
      (l) => l.items.length === 3 && l.items.every((x) => (x.metadata.ownerReferences ?? []).length === 1),
      12_000,
    );
    const nodes = await server.json<List>('/api/v1/nodes');
    for (const lease of leases.items) {
      const node = nodes.items.find((n) => n.metadata.name === lease.metadata.name);
      assert.ok(node, lease.metadata.name);
      assert.equal(lease.spec?.['holderIdentity'], node.metadata.name);
      assert.equal(lease.spec['leaseDurationSeconds'], 40);
      assert.match(String(lease.spec['renewTime']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      assert.equal(lease.metadata.ownerReferences?.[0]?.uid, node.metadata.uid);
    }
  });
});

const podsPath = (ns = 'default') => `/api/v1/namespaces/${ns}/pods`;

function podBody(
  name: string,
  extra: {
    spec?: Record<string, unknown>;
    annotations?: Record<string, string>;
    labels?: Record<string, string>;
  } = {},
) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      ...(extra.annotations === undefined ? {} : { annotations: extra.annotations }),
      ...(extra.labels === undefined ? {} : { labels: extra.labels }),
    },
    spec: { containers: [{ name: 'c', image: 'nginx' }], ...extra.spec },
  };
}

const getPod = (name: string) => server.json<Obj>(`${podsPath()}/${name}`);

describe('scheduler', () => {
  it('binds a pending pod to a node that fits its nodeSelector, tolerations and requests', async () => {
    await server.json(podsPath(), {
      method: 'POST',
      body: podBody('picky', {
        spec: {
          nodeSelector: { 'kubernetes.io/hostname': 'sim-node-1' },
          containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '2', memory: '1Gi' } } }],
        },
      }),
    });
    const pod = await waitFor(
      'picky bound',
      () => getPod('picky'),
      (p) => (p.spec?.nodeName ?? '') !== '',
    );
    assert.equal(pod.spec?.nodeName, 'sim-node-1');
    assert.equal(condition(pod, 'PodScheduled')?.status, 'True');
  });

  it('binds by required node affinity (matchFields on metadata.name)', async () => {
    await server.json(podsPath(), {
      method: 'POST',
      body: podBody('affine', {
        spec: {
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['sim-node-2'] }] },
                ],
              },
            },
          },
        },
      }),
    });
    const pod = await waitFor(
      'affine bound',
      () => getPod('affine'),
      (p) => (p.spec?.nodeName ?? '') !== '',
    );
    assert.equal(pod.spec?.nodeName, 'sim-node-2');
  });

  it('leaves a pod no node fits Pending with PodScheduled=False, reason Unschedulable', async () => {
    await server.json(podsPath(), {
      method: 'POST',
      body: podBody('huge', {
        spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '1000' } } }] },
      }),
    });
    const pod = await waitFor(
      'huge marked unschedulable',
      () => getPod('huge'),
      (p) => condition(p, 'PodScheduled')?.status === 'False',
    );
    const scheduled = condition(pod, 'PodScheduled');
    assert.equal(scheduled?.reason, 'Unschedulable');
    assert.equal(
      scheduled.message,
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..',
    );
    assert.equal(pod.spec?.nodeName, undefined);
    assert.equal(pod.status?.['phase'], 'Pending');
  });

  it('leaves a pod whose nodeSelector no node has unschedulable, with the affinity reason', async () => {
    await server.json(podsPath(), {
      method: 'POST',
      body: podBody('nowhere', { spec: { nodeSelector: { 'no-such-label': 'x' } } }),
    });
    const pod = await waitFor(
      'nowhere marked unschedulable',
      () => getPod('nowhere'),
      (p) => condition(p, 'PodScheduled')?.reason === 'Unschedulable',
    );
    assert.equal(
      condition(pod, 'PodScheduled')?.message,
      "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..",
    );
  });

  it('scores nodes as kube does: preferred node affinity, then preferred pod affinity over free room', async () => {
    const bound = (name: string) =>
      waitFor(
        `${name} bound`,
        () => getPod(name),
        (p) => (p.spec?.nodeName ?? '') !== '',
      );
    const requests = { requests: { cpu: '1', memory: '1Gi' } };
    const nearAnchor = [
      {
        weight: 100,
        podAffinityTerm: {
          labelSelector: { matchLabels: { 'soft-group': 'a' } },
          topologyKey: 'kubernetes.io/hostname',
        },
      },
    ];
    // NodeAffinity (weight 2) outweighs the resource scores' differences on a quiet cluster.
    await server.json(podsPath(), {
      method: 'POST',
      body: podBody('soft-anchor', {
        labels: { 'soft-group': 'a' },
        spec: {
          containers: [{ name: 'c', image: 'nginx', resources: requests }],
          affinity: {
            nodeAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [
                {
                  weight: 50,
                  preference: {
                    matchFields: [{ key: 'metadata.name', operator: 'In', values: ['sim-node-1'] }],
                  },
                },
              ],
            },
          },
        },
      }),
    });
    assert.equal((await bound('soft-anchor')).spec?.nodeName, 'sim-node-1');
    // LeastAllocated alone would pick an emptier node; the preferred pod affinity puts it beside.
    await server.json(podsPath(), {
      method: 'POST',
      body: podBody('soft-follower', {
        spec: {
          containers: [{ name: 'c', image: 'nginx', resources: requests }],
          affinity: {
            podAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: nearAnchor,
            },
          },
        },
      }),
    });
    assert.equal((await bound('soft-follower')).spec?.nodeName, 'sim-node-1');
    // Preferred anti-affinity sends the next one elsewhere.
    await server.json(podsPath(), {
      method: 'POST',
      body: podBody('soft-avoider', {
        spec: {
          affinity: {
            podAntiAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: nearAnchor,
            },
          },
        },
      }),
    });
    assert.notEqual((await bound('soft-avoider')).spec?.nodeName, 'sim-node-1');
    for (const name of ['soft-anchor', 'soft-follower', 'soft-avoider'])
      await server.json(`${podsPath()}/${name}?gracePeriodSeconds=0`, { method: 'DELETE' });
  });

  it("reports the images a node's kubelet ran in status.images, and prefers that node (ImageLocality)", async () => {
    // 975 MiB, as the simulated runtime sizes an image by its name.
    const image = 'registry.example/capstan/local-33:v1';
    const mib = 1024 * 1024;
    await server.json(podsPath(), {
      method: 'POST',
      body: podBody('image-first', {
        spec: {
          nodeSelector: { 'kubernetes.io/hostname': 'sim-node-2' },
          initContainers: [{ name: 'init', image: 'busybox' }],
          containers: [{ name: 'c', image }],
        },
      }),
    });
    type Images = { names: string[]; sizeBytes: number }[];
    const node = await waitFor(
      'sim-node-2 reporting the image',
      () => server.json<Obj>('/api/v1/nodes/sim-node-2'),
      (n) => ((n.status?.['images'] ?? []) as Images).some((i) => i.names.includes(image)),
    );
    const images = node.status?.['images'] as Images;
    assert.deepEqual(
      images.find((i) => i.names.includes(image)),
      { names: [image], sizeBytes: 975 * mib },
    );
    assert.deepEqual(
      images.find((i) => i.names.includes('busybox:latest')),
      { names: ['docker.io/library/busybox:latest', 'busybox:latest'], sizeBytes: 288 * mib },
    );
    // On 1 of 3 nodes: 975 MiB / 3 → 100 × (325 − 23) / 977 → 30 more for sim-node-2.
    await server.json(podsPath(), {
      method: 'POST',
      body: podBody('image-second', { spec: { containers: [{ name: 'c', image }] } }),
    });
    const second = await waitFor(
      'image-second bound',
      () => getPod('image-second'),
      (p) => (p.spec?.nodeName ?? '') !== '',
    );
    assert.equal(second.spec?.nodeName, 'sim-node-2');
    for (const name of ['image-first', 'image-second'])
      await server.json(`${podsPath()}/${name}?gracePeriodSeconds=0`, { method: 'DELETE' });
  });

  it('keeps pods apart by required pod anti-affinity, and lets one in when a node frees up', async () => {
    const apart = (name: string) =>
      podBody(name, {
        labels: { spread: 'web' },
        spec: {
          affinity: {
            podAntiAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [
                { labelSelector: { matchLabels: { spread: 'web' } }, topologyKey: 'kubernetes.io/hostname' },
              ],
            },
          },
        },
      });
    for (const name of ['web-0', 'web-1', 'web-2', 'web-3'])
      await server.json(podsPath(), { method: 'POST', body: apart(name) });
    const names = ['web-0', 'web-1', 'web-2', 'web-3'];
    const settled = await waitFor(
      'three web pods bound, one unschedulable',
      () => Promise.all(names.map(getPod)),
      (ps) =>
        ps.filter((p) => (p.spec?.nodeName ?? '') !== '').length === 3 &&
        ps.some((p) => condition(p, 'PodScheduled')?.reason === 'Unschedulable'),
    );
    const bound = settled.filter((p) => (p.spec?.nodeName ?? '') !== '');
    assert.deepEqual(bound.map((p) => p.spec?.nodeName).sort(), ['sim-node-0', 'sim-node-1', 'sim-node-2']);
    const waiting = settled.find((p) => (p.spec?.nodeName ?? '') === '');
    assert.equal(
      waiting === undefined ? undefined : condition(waiting, 'PodScheduled')?.message,
      "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..",
    );
    // One of them goes; the waiting pod takes its node.
    const gone = bound[0];
    await server.json(`${podsPath()}/${gone?.metadata.name ?? ''}?gracePeriodSeconds=0`, {
      method: 'DELETE',
    });
    const moved = await waitFor(
      'the waiting web pod bound',
      () => getPod(waiting?.metadata.name ?? ''),
      (p) => (p.spec?.nodeName ?? '') !== '',
    );
    assert.equal(moved.spec?.nodeName, gone?.spec?.nodeName);
    for (const name of names)
      await server
        .json(`${podsPath()}/${name}?gracePeriodSeconds=0`, { method: 'DELETE' })
        .catch(() => undefined);
  });

  it('holds a pod with required pod affinity until a pod it selects runs, then puts it beside it', async () => {
    await server.json(podsPath(), {
      method: 'POST',
      body: podBody('follower', {
        spec: {
          affinity: {
            podAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [
                { labelSelector: { matchLabels: { role: 'leader' } }, topologyKey: 'kubernetes.io/hostname' },
              ],
            },
          },
        },
      }),
    });
    const held = await waitFor(
      'follower unschedulable',
      () => getPod('follower'),
      (p) => condition(p, 'PodScheduled')?.reason === 'Unschedulable',
    );
    assert.equal(
      condition(held, 'PodScheduled')?.message,
      "0/3 nodes are available: 3 node(s) didn't match pod affinity rules. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..",
    );
    await server.json(podsPath(), {
      method: 'POST',
      body: podBody('leader', {
        labels: { role: 'leader' },
        spec: { nodeSelector: { 'kubernetes.io/hostname': 'sim-node-2' } },
      }),
    });
    const follower = await waitFor(
      'follower bound',
      () => getPod('follower'),
      (p) => (p.spec?.nodeName ?? '') !== '',
    );
    assert.equal(follower.spec?.nodeName, 'sim-node-2');
  });

  it('keeps a pod out of nodes where its DoNotSchedule spread constraint would be skewed', async () => {
    const spreadPod = (name: string, node: string, constraint?: Record<string, unknown>) =>
      podBody(name, {
        labels: { app: 'spread' },
        spec: {
          nodeSelector: { 'kubernetes.io/hostname': node },
          ...(constraint === undefined
            ? {}
            : {
                topologySpreadConstraints: [
                  {
                    maxSkew: 1,
                    whenUnsatisfiable: 'DoNotSchedule',
                    labelSelector: { matchLabels: { app: 'spread' } },
                    ...constraint,
                  },
                ],
              }),
        },
      });
    const bound = (name: string) =>
      waitFor(
        `${name} bound`,
        () => getPod(name),
        (p) => (p.spec?.nodeName ?? '') !== '',
      );
    const unschedulable = (name: string) =>
      waitFor(
        `${name} unschedulable`,
        () => getPod(name),
        (p) => condition(p, 'PodScheduled')?.reason === 'Unschedulable',
      );
    await server.json(podsPath(), { method: 'POST', body: spreadPod('spread-0', 'sim-node-0') });
    await bound('spread-0');
    // Counting every node (nodeAffinityPolicy Ignore), sim-node-0 would hold 2 against 0.
    await server.json(podsPath(), {
      method: 'POST',
      body: spreadPod('spread-1', 'sim-node-0', {
        topologyKey: 'kubernetes.io/hostname',
        nodeAffinityPolicy: 'Ignore',
      }),
    });
    assert.equal(
      condition(await unschedulable('spread-1'), 'PodScheduled')?.message,
      "0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling..",
    );
    await server.json(podsPath(), {
      method: 'POST',
      body: spreadPod('spread-2', 'sim-node-1', { topologyKey: 'example.com/rack' }),
    });
    assert.equal(
      condition(await unschedulable('spread-2'), 'PodScheduled')?.message,
      "0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints (missing required label), 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..",
    );
    // One matching pod on each other node raises the least domain to 1: spread-1 fits now.
    for (const [name, node] of [
      ['spread-3', 'sim-node-1'],
      ['spread-4', 'sim-node-2'],
    ] as const)
      await server.json(podsPath(), { method: 'POST', body: spreadPod(name, node) });
    assert.equal((await bound('spread-1')).spec?.nodeName, 'sim-node-0');
    for (const name of ['spread-0', 'spread-1', 'spread-2', 'spread-3', 'spread-4'])
      await server.json(`${podsPath()}/${name}?gracePeriodSeconds=0`, { method: 'DELETE' });
  });

  it('keeps a second pod asking for a taken host port off the node (NodePorts)', async () => {
    const withHostPort = (name: string) =>
      podBody(name, {
        spec: {
          nodeSelector: { 'kubernetes.io/hostname': 'sim-node-2' },
          containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80, hostPort: 8443 }] }],
        },
      });
    await server.json(podsPath(), { method: 'POST', body: withHostPort('port-first') });
    await waitFor(
      'port-first bound',
      () => getPod('port-first'),
      (p) => (p.spec?.nodeName ?? '') !== '',
    );
    await server.json(podsPath(), { method: 'POST', body: withHostPort('port-second') });
    const second = await waitFor(
      'port-second unschedulable',
      () => getPod('port-second'),
      (p) => condition(p, 'PodScheduled')?.reason === 'Unschedulable',
    );
    assert.equal(
      condition(second, 'PodScheduled')?.message,
      "0/3 nodes are available: 1 node(s) didn't have free ports for the requested pod ports, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling..",
    );
    // The port comes free with the first pod gone.
    await server.json(`${podsPath()}/port-first?gracePeriodSeconds=0`, { method: 'DELETE' });
    await waitFor(
      'port-second bound',
      () => getPod('port-second'),
      (p) => (p.spec?.nodeName ?? '') === 'sim-node-2',
    );
    await server.json(`${podsPath()}/port-second?gracePeriodSeconds=0`, { method: 'DELETE' });
  });

  it('ignores pods of another scheduler', async () => {
    await server.json(podsPath(), {
      method: 'POST',
      body: podBody('other', { spec: { schedulerName: 'my-scheduler' } }),
    });
    // The pod created after it, for default-scheduler, is bound; by then this one would have been.
    await server.json(podsPath(), { method: 'POST', body: podBody('after-other') });
    await waitFor(
      'after-other bound',
      () => getPod('after-other'),
      (p) => (p.spec?.nodeName ?? '') !== '',
    );
    assert.equal((await getPod('other')).spec?.nodeName, undefined);
  });
});

describe('scheduler preemption', () => {
  const onNode2 = { 'kubernetes.io/hostname': 'sim-node-2' };
  const cpuPod = (name: string, cpu: string, spec: Record<string, unknown> = {}) =>
    podBody(name, {
      spec: {
        nodeSelector: onNode2,
        terminationGracePeriodSeconds: 0,
        containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu } } }],
        ...spec,
      },
    });
  const priorityClass = (name: string, value: number, preemptionPolicy = 'PreemptLowerPriority') =>
    server.json('/apis/scheduling.k8s.io/v1/priorityclasses', {
      method: 'POST',
      body: {
        apiVersion: 'scheduling.k8s.io/v1',
        kind: 'PriorityClass',
        metadata: { name },
        value,
        preemptionPolicy,
      },
    });
  const bound = (name: string) =>
    waitFor(
      `${name} bound`,
      () => getPod(name),
      (p) => (p.spec?.nodeName ?? '') !== '',
    );
  const eventsOf = async (name: string, reason: string) =>
    (
      await server.json<{ items: { reason: string; message: string; involvedObject: { name: string } }[] }>(
        '/api/v1/namespaces/default/events',
      )
    ).items.filter((e) => e.involvedObject.name === name && e.reason === reason);
  const noPreemptionHead =
    "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match Pod's node affinity/selector.";

  it('deletes the fewest pods of lower priority to make room, nominates the pod, and binds it there', async () => {
    await priorityClass('sim-preemptible', -10);
    // 28 of the node's 32 cores go to two preemptible pods; a held finalizer keeps the first visible
    // while it terminates.
    await server.json(podsPath(), {
      method: 'POST',
      body: cpuPod('victim-a', '20', { priorityClassName: 'sim-preemptible' }),
    });
    await bound('victim-a');
    const held = await getPod('victim-a');
    await server.json(`${podsPath()}/victim-a`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: { metadata: { finalizers: ['example.com/hold'] } },
    });
    await server.json(podsPath(), {
      method: 'POST',
      body: cpuPod('victim-b', '8', { priorityClassName: 'sim-preemptible' }),
    });
    await bound('victim-b');
    // 16 cores: without victim-a (the older, so the first put back, which does not fit) it fits.
    const preemptor = await server.json<Obj>(podsPath(), { method: 'POST', body: cpuPod('preemptor', '16') });
    const victim = await waitFor(
      'victim-a terminating',
      () => getPod('victim-a'),
      (p) => p.metadata.deletionTimestamp !== undefined,
    );
    const target = condition(victim, 'DisruptionTarget');
    assert.equal(target?.status, 'True');
    assert.equal(target.reason, 'PreemptionByScheduler');
    assert.equal(target.message, 'default-scheduler: preempting to accommodate a higher priority pod');
    const nominated = await waitFor(
      'preemptor nominated',
      () => getPod('preemptor'),
      (p) => p.status?.['nominatedNodeName'] === 'sim-node-2',
    );
    assert.equal(nominated.spec?.nodeName, undefined);
    // The preemption that made room adds nothing to the message; attempts while its victim
    // terminates say why they do not preempt again.
    assert.ok(
      [
        noPreemptionHead,
        `${noPreemptionHead} preemption: not eligible due to a terminating pod on the nominated node..`,
      ].includes(condition(nominated, 'PodScheduled')?.message ?? ''),
      condition(nominated, 'PodScheduled')?.message,
    );
    assert.equal((await getPod('victim-b')).metadata.deletionTimestamp, undefined);
    const preempted = await eventsOf('victim-a', 'Preempted');
    assert.deepEqual(
      preempted.map((e) => e.message),
      [`Preempted by pod ${preemptor.metadata.uid ?? ''} on node sim-node-2`],
    );
    assert.equal(held.metadata.uid, victim.metadata.uid);
    // The victim goes; the pod takes the room it was nominated for.
    await server.json(`${podsPath()}/victim-a`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: { metadata: { finalizers: null } },
    });
    const placed = await bound('preemptor');
    assert.equal(placed.spec?.nodeName, 'sim-node-2');
    assert.equal((await getPod('victim-b')).spec?.nodeName, 'sim-node-2');
  });

  it('does not preempt for a pod whose priority class says Never', async () => {
    await priorityClass('sim-polite', 5, 'Never');
    // victim-b (priority -10) could make room, but the pod may not ask for it.
    await server.json(podsPath(), {
      method: 'POST',
      body: cpuPod('polite', '16', { priorityClassName: 'sim-polite' }),
    });
    const waiting = await waitFor(
      'polite unschedulable',
      () => getPod('polite'),
      (p) => condition(p, 'PodScheduled')?.reason === 'Unschedulable',
    );
    assert.equal(
      condition(waiting, 'PodScheduled')?.message,
      `${noPreemptionHead} preemption: not eligible due to preemptionPolicy=Never..`,
    );
    assert.equal(waiting.status?.['nominatedNodeName'], undefined);
    assert.equal((await getPod('victim-b')).metadata.deletionTimestamp, undefined);
    for (const name of ['polite', 'preemptor', 'victim-b'])
      await server.json(`${podsPath()}/${name}?gracePeriodSeconds=0`, { method: 'DELETE' });
  });
});

describe('simulated kubelets', () => {
  it('runs a bound pod: Running, Ready, container statuses, host and pod IPs, start time', async () => {
    await server.json(podsPath(), { method: 'POST', body: podBody('web') });
    const pod = await waitFor(
      'web running',
      () => getPod('web'),
      (p) => p.status?.['phase'] === 'Running',
    );
    for (const type of [
      'PodReadyToStartContainers',
      'Initialized',
      'Ready',
      'ContainersReady',
      'PodScheduled',
    ])
      assert.equal(condition(pod, type)?.status, 'True', type);
    const nodes = await server.json<List>('/api/v1/nodes');
    const node = nodes.items.find((n) => n.metadata.name === pod.spec?.nodeName);
    assert.ok(node);
    const cidrPrefix = String(node.spec?.['podCIDR']).replace(/\.0\/24$/, '.');
    assert.ok(String(pod.status?.['podIP']).startsWith(cidrPrefix), String(pod.status?.['podIP']));
    const internal = (node.status?.['addresses'] as { type: string; address: string }[]).find(
      (a) => a.type === 'InternalIP',
    );
    assert.equal(pod.status?.['hostIP'], internal?.address);
    assert.match(String(pod.status?.['startTime']), /Z$/);
    const [cs] = pod.status?.['containerStatuses'] as {
      name: string;
      ready: boolean;
      started: boolean;
      state: { running?: { startedAt: string } };
    }[];
    assert.equal(cs?.name, 'c');
    assert.equal(cs.ready, true);
    assert.equal(cs.started, true);
    assert.ok(cs.state.running?.startedAt);
  });

  it('gives each running pod its own IP', async () => {
    const pods = await waitFor(
      'running pods',
      () => server.json<List>(podsPath()),
      (l) => l.items.filter((p) => p.status?.['phase'] === 'Running').length >= 3,
    );
    const ips = pods.items.filter((p) => p.status?.['phase'] === 'Running').map((p) => p.status?.['podIP']);
    assert.equal(new Set(ips).size, ips.length);
  });

  it("gives a pod on the host's network its node's address, as kubelet does", async () => {
    await server.json(podsPath(), {
      method: 'POST',
      body: podBody('on-host', { spec: { hostNetwork: true } }),
    });
    const pod = await waitFor(
      'on-host running',
      () => getPod('on-host'),
      (p) => p.status?.['phase'] === 'Running',
    );
    assert.equal(pod.status?.['podIP'], pod.status?.['hostIP']);
    assert.deepEqual(pod.status?.['podIPs'], [{ ip: pod.status?.['hostIP'] }]);
  });

  it('completes run-to-completion pods with the annotated exit code', async () => {
    const done = { annotations: { 'capstan.dev/exit-code': '0', 'capstan.dev/run-seconds': '0' } };
    const failed = { annotations: { 'capstan.dev/exit-code': '3', 'capstan.dev/run-seconds': '0' } };
    await server.json(podsPath(), {
      method: 'POST',
      body: podBody('ok-job', { ...done, spec: { restartPolicy: 'Never' } }),
    });
    await server.json(podsPath(), {
      method: 'POST',
      body: podBody('bad-job', { ...failed, spec: { restartPolicy: 'Never' } }),
    });
    const ok = await waitFor(
      'ok-job succeeded',
      () => getPod('ok-job'),
      (p) => p.status?.['phase'] === 'Succeeded',
    );
    const bad = await waitFor(
      'bad-job failed',
      () => getPod('bad-job'),
      (p) => p.status?.['phase'] === 'Failed',
    );
    const exit = (p: Obj) =>
      (
        p.status?.['containerStatuses'] as { state: { terminated?: { exitCode: number; reason: string } } }[]
      )[0]?.state.terminated;
    assert.deepEqual([exit(ok)?.exitCode, exit(ok)?.reason], [0, 'Completed']);
    assert.deepEqual([exit(bad)?.exitCode, exit(bad)?.reason], [3, 'Error']);
    assert.equal(condition(ok, 'Ready')?.status, 'False');
    assert.equal(condition(ok, 'Ready')?.reason, 'PodCompleted');
  });

  it('restarts an OnFailure pod that exits non-zero: CrashLoopBackOff, not ready, restartCount 1', async () => {
    await server.json(podsPath(), {
      method: 'POST',
      body: podBody('crashy', {
        annotations: { 'capstan.dev/exit-code': '1', 'capstan.dev/run-seconds': '0' },
        spec: { restartPolicy: 'OnFailure' },
      }),
    });
    interface Status {
      restartCount: number;
      state: { waiting?: { reason: string } };
      lastState: { terminated?: { exitCode: number } };
    }
    const pod = await waitFor(
      'crashy restarted',
      () => getPod('crashy'),
      (p) => ((p.status?.['containerStatuses'] as Status[] | undefined)?.[0]?.restartCount ?? 0) > 0,
    );
    const [cs] = pod.status?.['containerStatuses'] as Status[];
    assert.ok(cs);
    assert.equal(cs.restartCount, 1);
    assert.equal(cs.state.waiting?.reason, 'CrashLoopBackOff');
    assert.equal(cs.lastState.terminated?.exitCode, 1);
    assert.equal(pod.status?.['phase'], 'Running');
    assert.equal(condition(pod, 'Ready')?.status, 'False');
    assert.equal(condition(pod, 'Ready')?.reason, 'ContainersNotReady');
    // kubelet's BackOff warning about the container, naming the pod as format.Pod does.
    interface Ev {
      type: string;
      reason: string;
      message: string;
      involvedObject: { name: string; fieldPath?: string };
    }
    const backOff = await waitFor(
      'the BackOff event',
      async () =>
        (await server.json<{ items: Ev[] }>('/api/v1/namespaces/default/events')).items.filter(
          (e) => e.involvedObject.name === 'crashy' && e.reason === 'BackOff',
        ),
      (l) => l.length > 0,
    );
    assert.deepEqual(
      backOff.map((e) => [e.type, e.involvedObject.fieldPath, e.message]),
      [
        [
          'Warning',
          'spec.containers{c}',
          `Back-off restarting failed container c in pod crashy_default(${pod.metadata.uid ?? ''})`,
        ],
      ],
    );
  });

  it("sorts containers' statuses by name, as kubelet does, and keeps init containers in spec order", async () => {
    const containers = ['web', 'app', 'sidecar'].map((name) => ({ name, image: 'nginx' }));
    const initContainers = ['z-setup', 'a-migrate'].map((name) => ({ name, image: 'busybox' }));
    await server.json(podsPath(), {
      method: 'POST',
      body: podBody('several', { spec: { containers, initContainers } }),
    });
    const pod = await waitFor(
      'several running',
      () => getPod('several'),
      (p) => p.status?.['phase'] === 'Running',
    );
    const names = (key: string) => (pod.status?.[key] as { name: string }[]).map((c) => c.name);
    assert.deepEqual(names('containerStatuses'), ['app', 'sidecar', 'web']);
    assert.deepEqual(names('initContainerStatuses'), ['z-setup', 'a-migrate']);
  });

  it('runs a sidecar (an init container with restartPolicy Always) beside the containers', async () => {
    const initContainers = [
      { name: 'setup', image: 'busybox' },
      { name: 'proxy', image: 'envoy', restartPolicy: 'Always' },
    ];
    await server.json(podsPath(), {
      method: 'POST',
      body: podBody('sidecarred', { spec: { initContainers } }),
    });
    const pod = await waitFor(
      'sidecarred running',
      () => getPod('sidecarred'),
      (p) => p.status?.['phase'] === 'Running',
    );
    interface Status {
      name: string;
      ready: boolean;
      started: boolean;
      state: { running?: { startedAt: string }; terminated?: { reason: string } };
    }
    const [setup, proxy] = pod.status?.['initContainerStatuses'] as Status[];
    assert.equal(setup?.state.terminated?.reason, 'Completed');
    assert.equal(setup.started, false);
    assert.ok(proxy?.state.running?.startedAt);
    assert.equal(proxy.started, true);
    assert.equal(proxy.ready, true);
    assert.equal(condition(pod, 'Ready')?.status, 'True');
    // A run-to-completion pod's sidecar is stopped once its containers are done.
    const done = { 'capstan.dev/exit-code': '0', 'capstan.dev/run-seconds': '0' };
    await server.json(podsPath(), {
      method: 'POST',
      body: podBody('sidecar-job', { annotations: done, spec: { initContainers, restartPolicy: 'Never' } }),
    });
    const finished = await waitFor(
      'sidecar-job succeeded',
      () => getPod('sidecar-job'),
      (p) => p.status?.['phase'] === 'Succeeded',
    );
    const statuses = finished.status?.['initContainerStatuses'] as Status[];
    assert.deepEqual(
      statuses.map((c) => [c.name, c.state.terminated?.reason, c.started]),
      [
        ['setup', 'Completed', false],
        ['proxy', 'Completed', false],
      ],
    );
  });

  it('starts an ephemeral container added to a running pod (kubectl debug): running, not ready', async () => {
    await server.json(podsPath(), { method: 'POST', body: podBody('debugged') });
    await waitFor(
      'debugged running',
      () => getPod('debugged'),
      (p) => p.status?.['phase'] === 'Running',
    );
    // What kubectl debug sends: a strategic merge patch of the ephemeralcontainers subresource.
    const debugger_ = {
      name: 'debugger-x1',
      image: 'busybox',
      stdin: true,
      tty: true,
      targetContainerName: 'c',
    };
    const res = await server.request(`${podsPath()}/debugged/ephemeralcontainers`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
      body: { spec: { ephemeralContainers: [debugger_] } },
    });
    assert.equal(res.status, 200, res.body);
    interface Status {
      name: string;
      ready: boolean;
      started?: boolean;
      restartCount: number;
      image: string;
      containerID?: string;
      state: { running?: { startedAt: string } };
    }
    const statuses = (p: Obj) => (p.status?.['ephemeralContainerStatuses'] ?? []) as Status[];
    const pod = await waitFor(
      'debugger started',
      () => getPod('debugged'),
      (p) => statuses(p).length === 1,
    );
    const [status] = statuses(pod);
    assert.ok(status);
    assert.equal(status.name, 'debugger-x1');
    assert.ok(status.state.running?.startedAt);
    assert.equal(status.ready, false);
    assert.equal(status.started, undefined);
    assert.equal(status.restartCount, 0);
    assert.equal(status.image, 'busybox');
    assert.match(status.containerID ?? '', /^containerd:\/\//);
    // The pod's own containers and readiness are left as they were.
    assert.equal(condition(pod, 'Ready')?.status, 'True');
    assert.equal((pod.status?.['containerStatuses'] as Status[])[0]?.ready, true);
  });

  it('holds a pod with a readiness gate not Ready until its condition is True, and keeps that condition', async () => {
    const gate = 'example.com/load-balancer-ready';
    await server.json(podsPath(), {
      method: 'POST',
      body: podBody('gated', { spec: { readinessGates: [{ conditionType: gate }] } }),
    });
    const ready = (p: Obj) => condition(p, 'Ready');
    let pod = await waitFor(
      'gated running',
      () => getPod('gated'),
      (p) => p.status?.['phase'] === 'Running',
    );
    assert.equal(condition(pod, 'ContainersReady')?.status, 'True');
    assert.equal(ready(pod)?.status, 'False');
    assert.equal(ready(pod)?.reason, 'ReadinessGatesNotReady');
    assert.equal(
      ready(pod)?.message,
      `corresponding condition of pod readiness gate "${gate}" does not exist.`,
    );
    // What a load balancer controller does: a condition of its own through the status subresource.
    const setGate = async (status: string) => {
      const res = await server.request(`${podsPath()}/gated/status`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/strategic-merge-patch+json' },
        body: { status: { conditions: [{ type: gate, status }] } },
      });
      assert.equal(res.status, 200, res.body);
    };
    await setGate('False');
    pod = await waitFor(
      'the gate named False',
      () => getPod('gated'),
      (p) => ready(p)?.message === `the status of pod readiness gate "${gate}" is not "True", but False`,
    );
    assert.equal(ready(pod)?.status, 'False');
    await setGate('True');
    pod = await waitFor(
      'gated ready',
      () => getPod('gated'),
      (p) => ready(p)?.status === 'True',
    );
    assert.equal(ready(pod)?.reason, undefined);
    assert.equal(condition(pod, gate)?.status, 'True');
  });

  it('deletes a pod whose containers ignore SIGTERM with grace 0 once its grace period is over', async () => {
    await server.json(podsPath(), {
      method: 'POST',
      body: podBody('graceful', { annotations: { 'capstan.dev/stop-seconds': '60' } }),
    });
    await waitFor(
      'graceful running',
      () => getPod('graceful'),
      (p) => p.status?.['phase'] === 'Running',
    );
    const res = await server.request(`${podsPath()}/graceful`, {
      method: 'DELETE',
      body: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 1 },
    });
    assert.equal(res.status, 200);
    assert.ok((JSON.parse(res.body) as Obj).metadata.deletionTimestamp);
    // Still there while its grace period runs: the kubelet waits it out.
    const terminating = await server.request(`${podsPath()}/graceful`);
    assert.equal(terminating.status, 200);
    await waitFor(
      'graceful gone',
      () => server.request(`${podsPath()}/graceful`),
      (r) => r.status === 404,
    );
  });

  it('deletes a pod whose containers exit at SIGTERM (the default) before its grace period ends', async () => {
    await server.json(podsPath(), { method: 'POST', body: podBody('quick-stop') });
    await waitFor(
      'quick-stop running',
      () => getPod('quick-stop'),
      (p) => p.status?.['phase'] === 'Running',
    );
    // The default grace period is 30 s; the containers are gone at once, and so is the pod.
    const res = await server.request(`${podsPath()}/quick-stop`, { method: 'DELETE' });
    assert.equal(res.status, 200);
    assert.equal((JSON.parse(res.body) as Obj).metadata.deletionGracePeriodSeconds, 30);
    await waitFor(
      'quick-stop gone',
      () => server.request(`${podsPath()}/quick-stop`),
      (r) => r.status === 404,
    );
  });
});

const rsPath = '/apis/apps/v1/namespaces/default/replicasets';

function replicaSet(name: string, replicas: number) {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { rs: name } },
      template: { metadata: { labels: { rs: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  };
}

const podsOf = async (label: string): Promise<Obj[]> =>
  (await server.json<List>(`${podsPath()}?labelSelector=${encodeURIComponent(label)}`)).items;
const live = (pods: readonly Obj[]): Obj[] => pods.filter((p) => p.metadata.deletionTimestamp === undefined);

describe('replicaset controller', () => {
  it('creates the replicas, owned by the ReplicaSet, and reports them ready and available', async () => {
    const rs = await server.json<Obj>(rsPath, { method: 'POST', body: replicaSet('three', 3) });
    const done = await waitFor(
      'three available',
      () => server.json<Obj>(`${rsPath}/three`),
      (r) => r.status?.['availableReplicas'] === 3,
    );
    assert.equal(done.status?.['replicas'], 3);
    assert.equal(done.status['readyReplicas'], 3);
    assert.equal(done.status['fullyLabeledReplicas'], 3);
    assert.equal(done.status['observedGeneration'], 1);
    const pods = await podsOf('rs=three');
    assert.equal(pods.length, 3);
    for (const pod of pods) {
      assert.match(pod.metadata.name, /^three-[a-z0-9]{5}$/);
      const [ref] = pod.metadata.ownerReferences ?? [];
      assert.ok(ref);
      assert.equal(ref.uid, rs.metadata.uid);
      assert.equal(ref.controller, true);
      assert.equal(ref.kind, 'ReplicaSet');
    }
  });

  it('scales down by deleting pods and reports the new count', async () => {
    const patched = await server.request(`${rsPath}/three/scale`, {
      method: 'PUT',
      body: {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: 'three', namespace: 'default' },
        spec: { replicas: 1 },
      },
    });
    assert.equal(patched.status, 200, patched.body);
    await waitFor(
      'one live pod',
      () => podsOf('rs=three'),
      (pods) => live(pods).length === 1,
    );
    const rs = await waitFor(
      'status of one',
      () => server.json<Obj>(`${rsPath}/three`),
      (r) => r.status?.['replicas'] === 1,
    );
    assert.equal(rs.status?.['observedGeneration'], 2);
  });

  it('adopts an orphan pod its selector matches instead of creating one', async () => {
    const orphan = podBody('orphan');
    await server.json(podsPath(), {
      method: 'POST',
      body: { ...orphan, metadata: { ...orphan.metadata, labels: { rs: 'adopter' } } },
    });
    const rs = await server.json<Obj>(rsPath, { method: 'POST', body: replicaSet('adopter', 1) });
    const adopted = await waitFor(
      'orphan adopted',
      () => getPod('orphan'),
      (p) => (p.metadata.ownerReferences ?? []).length === 1,
    );
    assert.equal(adopted.metadata.ownerReferences?.[0]?.uid, rs.metadata.uid);
    await waitFor(
      'adopter available',
      () => server.json<Obj>(`${rsPath}/adopter`),
      (r) => r.status?.['availableReplicas'] === 1,
    );
    assert.deepEqual(
      (await podsOf('rs=adopter')).map((p) => p.metadata.name),
      ['orphan'],
    );
  });
});

const deployPath = '/apis/apps/v1/namespaces/default/deployments';

function deployment(name: string, image: string, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image }] } },
      ...extra,
    },
  };
}

/** kubectl rollout status's test: the rollout of the current generation is complete. */
const rolledOut = (d: Obj): boolean => {
  const s = d.status ?? {};
  const replicas = (d.spec?.['replicas'] as number | undefined) ?? 1;
  return (
    (s['observedGeneration'] as number) >= ((d.metadata as { generation?: number }).generation ?? 0) &&
    s['updatedReplicas'] === replicas &&
    s['replicas'] === replicas &&
    s['availableReplicas'] === replicas
  );
};

const replicaSetsOf = async (app: string): Promise<Obj[]> =>
  (await server.json<List>(`${rsPath}?labelSelector=${encodeURIComponent(`app=${app}`)}`)).items;

/** As `kubectl set image`: the template's one container gets another image (a GET and a PUT). */
async function setImage(name: string, image: string): Promise<{ status: number; body: string }> {
  const d = await server.json<Obj>(`${deployPath}/${name}`);
  const template = d.spec?.['template'] as { spec: { containers: { image: string }[] } };
  const [container] = template.spec.containers;
  assert.ok(container);
  container.image = image;
  return server.request(`${deployPath}/${name}`, { method: 'PUT', body: d });
}

describe('deployment controller', () => {
  it('rolls out a new deployment: a hashed ReplicaSet of revision 1, and a complete status', async () => {
    const created = await server.json<Obj>(deployPath, {
      method: 'POST',
      body: deployment('web', 'nginx:1'),
    });
    const d = await waitFor('web rolled out', () => server.json<Obj>(`${deployPath}/web`), rolledOut);
    assert.equal(d.metadata.annotations?.['deployment.kubernetes.io/revision'], '1');
    assert.equal(condition(d, 'Available')?.status, 'True');
    assert.equal(condition(d, 'Available')?.reason, 'MinimumReplicasAvailable');
    assert.equal(condition(d, 'Progressing')?.reason, 'NewReplicaSetAvailable');
    const [rs, ...more] = await replicaSetsOf('web');
    assert.ok(rs);
    assert.equal(more.length, 0);
    const hash = rs.metadata.labels?.['pod-template-hash'] ?? '';
    assert.match(hash, /^[bcdfghjklmnpqrstvwxz2456789]+$/);
    assert.equal(rs.metadata.name, `web-${hash}`);
    assert.equal(rs.metadata.annotations?.['deployment.kubernetes.io/revision'], '1');
    assert.equal(rs.metadata.ownerReferences?.[0]?.uid, created.metadata.uid);
    assert.equal(
      condition(d, 'Progressing')?.message,
      `ReplicaSet "web-${hash}" has successfully progressed.`,
    );
    const pods = live(await podsOf('app=web'));
    assert.equal(pods.length, 3);
    assert.ok(pods.every((p) => p.metadata.labels?.['pod-template-hash'] === hash));
  });

  it('rolls a new template out through a new ReplicaSet, the old one scaled to zero', async () => {
    assert.equal((await setImage('web', 'nginx:2')).status, 200);
    const d = await waitFor(
      'web at revision 2',
      () => server.json<Obj>(`${deployPath}/web`),
      (x) => x.metadata.annotations?.['deployment.kubernetes.io/revision'] === '2' && rolledOut(x),
    );
    const rss = await waitFor(
      'old scaled down',
      () => replicaSetsOf('web'),
      (l) => l.length === 2 && l.some((rs) => rs.spec?.['replicas'] === 0),
    );
    const current = rss.find((rs) => rs.spec?.['replicas'] === 3);
    assert.ok(current);
    assert.equal(current.metadata.annotations?.['deployment.kubernetes.io/revision'], '2');
    assert.equal(
      (current.spec?.['template'] as { spec: { containers: { image: string }[] } }).spec.containers[0]?.image,
      'nginx:2',
    );
    assert.equal(d.status?.['updatedReplicas'], 3);
  });

  it('going back to the first template reuses its ReplicaSet as revision 3', async () => {
    assert.equal((await setImage('web', 'nginx:1')).status, 200);
    await waitFor(
      'web at revision 3',
      () => server.json<Obj>(`${deployPath}/web`),
      (x) => x.metadata.annotations?.['deployment.kubernetes.io/revision'] === '3' && rolledOut(x),
    );
    const rss = await replicaSetsOf('web');
    assert.equal(rss.length, 2);
    const back = rss.find((rs) => rs.metadata.annotations?.['deployment.kubernetes.io/revision'] === '3');
    assert.ok(back);
    assert.equal(back.metadata.annotations?.['deployment.kubernetes.io/revision-history'], '1');
  });

  it('keeps no more old ReplicaSets than revisionHistoryLimit', async () => {
    await server.json(deployPath, {
      method: 'POST',
      body: deployment('short', 'nginx:1', { replicas: 1, revisionHistoryLimit: 1 }),
    });
    for (const image of ['nginx:2', 'nginx:3']) {
      await waitFor('short rolled out', () => server.json<Obj>(`${deployPath}/short`), rolledOut);
      assert.equal((await setImage('short', image)).status, 200);
    }
    await waitFor(
      'two ReplicaSets left',
      () => replicaSetsOf('short'),
      (l) =>
        l.length === 2 &&
        l.some((rs) => rs.metadata.annotations?.['deployment.kubernetes.io/revision'] === '3'),
    );
    const revisions = (await replicaSetsOf('short'))
      .map((rs) => rs.metadata.annotations?.['deployment.kubernetes.io/revision'])
      .sort();
    assert.deepEqual(revisions, ['2', '3']);
  });

  it('scales the current ReplicaSet with the deployment', async () => {
    const res = await server.request(`${deployPath}/web/scale`, {
      method: 'PUT',
      body: {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: 'web', namespace: 'default' },
        spec: { replicas: 5 },
      },
    });
    assert.equal(res.status, 200, res.body);
    const d = await waitFor(
      'web at 5',
      () => server.json<Obj>(`${deployPath}/web`),
      (x) => rolledOut(x) && x.status?.['replicas'] === 5,
    );
    assert.equal(d.status?.['readyReplicas'], 5);
    assert.equal(live(await podsOf('app=web')).length, 5);
  });
});

describe('endpointslice controller', () => {
  const slicesPath = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices';
  interface Slice extends Obj {
    addressType: string;
    endpoints: { addresses: string[]; conditions: { ready: boolean }; targetRef: { name: string } }[];
    ports: { name: string; port: number; protocol: string }[];
  }
  const sliceOf = async (svc: string): Promise<Slice[]> =>
    (
      await server.json<{ items: Slice[] }>(
        `${slicesPath}?labelSelector=${encodeURIComponent(`kubernetes.io/service-name=${svc}`)}`,
      )
    ).items;

  it('gives a Service an EndpointSlice of the ready pods it selects, owned by the Service', async () => {
    const svc = await server.json<Obj>('/api/v1/namespaces/default/services', {
      method: 'POST',
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'web' },
        spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] },
      },
    });
    const ready = (e: Slice['endpoints'][number]): boolean => e.conditions.ready;
    const running = live(await podsOf('app=web')).filter((p) => p.status?.['phase'] === 'Running');
    const [slice] = await waitFor(
      'a slice with every web pod ready',
      () => sliceOf('web'),
      (l) => l.length === 1 && l[0]?.endpoints.filter(ready).length === running.length,
    );
    assert.ok(slice);
    assert.equal(slice.addressType, 'IPv4');
    assert.match(slice.metadata.name, /^web-[a-z0-9]{5}$/);
    assert.equal(
      slice.metadata.labels?.['endpointslice.kubernetes.io/managed-by'],
      'endpointslice-controller.k8s.io',
    );
    assert.equal(slice.metadata.ownerReferences?.[0]?.uid, svc.metadata.uid);
    assert.deepEqual(slice.ports, [{ name: 'http', port: 8080, protocol: 'TCP' }]);
    const readyOnes = slice.endpoints.filter(ready);
    assert.deepEqual(
      readyOnes.map((e) => e.targetRef.name).sort(),
      running.map((p) => p.metadata.name).sort(),
    );
    const ips = running.map((p) => String(p.status?.['podIP'])).sort();
    assert.deepEqual(readyOnes.map((e) => e.addresses[0]).sort(), ips);
    // Pods still terminating from the rollouts are listed, not ready.
    const terminating = (await podsOf('app=web')).filter((p) => p.metadata.deletionTimestamp !== undefined);
    for (const pod of terminating) {
      const e: Slice['endpoints'][number] | undefined = slice.endpoints.find(
        (x) => x.targetRef.name === pod.metadata.name,
      );
      if (e !== undefined) assert.equal(e.conditions.ready, false);
    }
  });

  it('marks a terminating pod not ready in the slice', async () => {
    const [victim] = live(await podsOf('app=web'));
    assert.ok(victim);
    // Its containers take a while to stop: until then it is Terminating, still Running. (Stopped
    // at once, it would be Failed at once, and out of the slice.)
    await server.json(`${podsPath()}/${victim.metadata.name}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: { metadata: { annotations: { 'capstan.dev/stop-seconds': '5' } } },
    });
    const res = await server.request(`${podsPath()}/${victim.metadata.name}`, { method: 'DELETE' });
    assert.equal(res.status, 200);
    const [slice] = await waitFor(
      'victim not ready',
      () => sliceOf('web'),
      (l) =>
        l[0]?.endpoints.some((e) => e.targetRef.name === victim.metadata.name && !e.conditions.ready) ===
        true,
    );
    assert.ok(slice);
  });

  it('keeps one placeholder slice, ports and endpoints null, for a Service that selects no pod', async () => {
    await server.json('/api/v1/namespaces/default/services', {
      method: 'POST',
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'lonely' },
        spec: { selector: { app: 'nobody' }, ports: [{ port: 80 }] },
      },
    });
    const slices = await waitFor(
      'a placeholder slice',
      () =>
        server.json<{ items: Record<string, unknown>[] }>(
          `${slicesPath}?labelSelector=${encodeURIComponent('kubernetes.io/service-name=lonely')}`,
        ),
      (l) => l.items.length === 1,
    );
    assert.deepEqual(
      slices.items.map((x) => [x['addressType'], x['ports'], x['endpoints']]),
      [['IPv4', null, null]],
    );
  });

  it('spreads more than 100 endpoints over slices of at most 100, each pod in one', async () => {
    await server.json(rsPath, { method: 'POST', body: replicaSet('wide', 150) });
    await server.json('/api/v1/namespaces/default/services', {
      method: 'POST',
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'wide' },
        spec: { selector: { rs: 'wide' }, ports: [{ port: 80 }] },
      },
    });
    const spread = async (want: number): Promise<Slice[]> => {
      const slices = await waitFor(
        `${String(want)} ready endpoints`,
        () => sliceOf('wide'),
        (l) => l.flatMap((x) => x.endpoints).filter((e) => e.conditions.ready).length === want,
        20_000,
      );
      const targets = slices.flatMap((x) => x.endpoints.map((e) => e.targetRef.name));
      assert.equal(new Set(targets).size, targets.length, 'no pod in two slices');
      for (const x of slices) assert.ok(x.endpoints.length <= 100, `${x.metadata.name} over 100`);
      return slices;
    };
    assert.deepEqual(
      (await spread(150)).map((x) => x.endpoints.length).sort((a, b) => a - b),
      [50, 100],
    );
    // Scaled down, slices lose endpoints (an emptied one goes); none holds more than 100.
    await server.json(`${rsPath}/wide`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: { spec: { replicas: 60 } },
    });
    const after = await spread(60);
    assert.ok(after.length >= 1 && after.length <= 2, String(after.length));
    // The ready endpoints are the pods that stay; those still stopping may be listed, not ready.
    const staying = new Set(live(await podsOf('rs=wide')).map((p) => p.metadata.name));
    const ready = after.flatMap((x) => x.endpoints.filter((e) => e.conditions.ready));
    assert.deepEqual(new Set(ready.map((e) => e.targetRef.name)), staying);
  });
});

describe('job controller', () => {
  const jobsPath = '/apis/batch/v1/namespaces/default/jobs';
  const job = (name: string, spec: Record<string, unknown>, exitCode: string) => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: {
      ...spec,
      template: {
        metadata: { annotations: { 'capstan.dev/exit-code': exitCode, 'capstan.dev/run-seconds': '0' } },
        spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] },
      },
    },
  });

  it('runs pods until `completions` succeeded (two at a time), then is Complete', async () => {
    await server.json(jobsPath, {
      method: 'POST',
      body: job('three', { completions: 3, parallelism: 2 }, '0'),
    });
    const done = await waitFor(
      'three complete',
      () => server.json<Obj>(`${jobsPath}/three`),
      (j) => condition(j, 'Complete')?.status === 'True',
    );
    assert.equal(done.status?.['succeeded'], 3);
    // active is 0, which kube leaves out (an int32 tagged omitempty).
    assert.equal('active' in done.status, false);
    assert.equal(condition(done, 'Complete')?.reason, 'CompletionsReached');
    assert.equal(condition(done, 'SuccessCriteriaMet')?.status, 'True');
    assert.ok(done.status['completionTime']);
    const pods = await podsOf('job-name=three');
    assert.equal(pods.length, 3);
    assert.ok(pods.every((p) => p.status?.['phase'] === 'Succeeded'));
  });

  // backoffLimit 0: a replacement would wait out the 10 s pod failure backoff on this real clock
  // (simulated-job-policies.test.ts drives that on a virtual one).
  it('fails once more than backoffLimit pods failed', async () => {
    await server.json(jobsPath, { method: 'POST', body: job('doomed', { backoffLimit: 0 }, '2') });
    const failed = await waitFor(
      'doomed failed',
      () => server.json<Obj>(`${jobsPath}/doomed`),
      (j) => condition(j, 'Failed')?.status === 'True',
    );
    assert.equal(failed.status?.['failed'], 1);
    assert.equal(condition(failed, 'Failed')?.reason, 'BackoffLimitExceeded');
    assert.equal(condition(failed, 'Failed')?.message, 'Job has reached the specified backoff limit');
    assert.equal((await podsOf('job-name=doomed')).length, 1);
  });
});
