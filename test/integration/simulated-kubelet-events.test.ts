// --simulate's kubelets record kube's kubelet events (a node's start, a pod's containers started and
// stopped), and --simulate-pod-stop-seconds (startCapstan({ simulate: { podStopSeconds } })) is how
// long a deleted pod without capstan.dev/stop-seconds stays Terminating, on the virtual clock. A
// deleted pod is written Failed, its containers terminated, before kubelet's final delete.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { waitFor } from './support/wait-for.js';

interface Event {
  reason?: string;
  count?: number;
  firstTimestamp?: string;
  lastTimestamp?: string;
  message?: string;
  source?: { component?: string; host?: string };
  reportingComponent?: string;
  reportingInstance?: string;
  involvedObject?: { kind?: string; name?: string; uid?: string; namespace?: string; fieldPath?: string };
}

let server: CapstanServer;
const api = async <T>(
  path: string,
  init: { method?: string; body?: unknown; patch?: boolean } = {},
): Promise<T> => {
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
  if (res.status >= 300) throw new Error(`${path}: ${String(res.status)} ${text}`);
  return JSON.parse(text) as T;
};
const podsPath = '/api/v1/namespaces/default/pods';
const eventsAbout = async (name: string): Promise<Event[]> => {
  const selector = encodeURIComponent(`involvedObject.name=${name}`);
  const list = await api<{ items: Event[] }>(`/api/v1/namespaces/default/events?fieldSelector=${selector}`);
  return list.items;
};
const createPod = (name: string, annotations: Record<string, string> = {}, restartPolicy = 'Always') =>
  api(podsPath, {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, annotations },
      spec: { restartPolicy, containers: [{ name: 'app', image: 'nginx:1.27' }] },
    },
  });
const podStatus = async (name: string): Promise<number> => {
  const token = server.kubeConfig.users[0]?.user.token ?? '';
  const res = await fetch(`${server.url}${podsPath}/${name}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await res.text();
  return res.status;
};
const running = (name: string) =>
  waitFor(
    `${name} running`,
    () => api<{ status?: { phase?: string } }>(`${podsPath}/${name}`),
    (p) => p.status?.phase === 'Running',
  );

before(async () => {
  server = await startCapstan({
    scheme: 'http',
    clock: 'virtual',
    simulate: { nodes: 1, podStopSeconds: 5 },
  });
});
after(async () => {
  await server.stop();
});

describe('simulated kubelet events', () => {
  it("records the node's start as kubelet and the node controller do", async () => {
    // The node lifecycle controller looks at the nodes every 5 s.
    await server.clock.advance('5s');
    const events = await waitFor(
      'node events',
      () => eventsAbout('sim-node-0'),
      (es) => es.some((e) => e.reason === 'NodeReady') && es.some((e) => e.reason === 'RegisteredNode'),
    );
    const kubelet = events.filter((e) => e.source?.component === 'kubelet');
    assert.deepEqual(
      kubelet.map((e) => `${e.reason ?? ''}: ${e.message ?? ''}`),
      [
        'Starting: Starting kubelet.',
        'NodeHasSufficientMemory: Node sim-node-0 status is now: NodeHasSufficientMemory',
        'NodeHasNoDiskPressure: Node sim-node-0 status is now: NodeHasNoDiskPressure',
        'NodeHasSufficientPID: Node sim-node-0 status is now: NodeHasSufficientPID',
        'NodeAllocatableEnforced: Updated Node Allocatable limit across pods',
        'NodeReady: Node sim-node-0 status is now: NodeReady',
      ],
    );
    for (const e of kubelet) {
      assert.deepEqual(e.involvedObject, { kind: 'Node', name: 'sim-node-0', uid: 'sim-node-0' });
      assert.deepEqual(e.source, { component: 'kubelet', host: 'sim-node-0' });
      assert.equal(e.reportingInstance, 'sim-node-0');
    }
    const registered = events.find((e) => e.reason === 'RegisteredNode');
    assert.equal(registered?.message, 'Node sim-node-0 event: Registered Node sim-node-0 in Controller');
    assert.equal(registered.source?.component, 'node-controller');
  });

  it("records a pod's container events, and stops it after the server's default stop time", async () => {
    await createPod('web');
    await running('web');
    const started = await waitFor(
      'web started',
      () => eventsAbout('web'),
      (es) => es.some((e) => e.reason === 'Started'),
    );
    const kubelet = started
      .filter((e) => e.source?.component === 'kubelet')
      .map((e) => `${e.reason ?? ''}: ${e.message ?? ''}`);
    assert.equal(kubelet.length, 4, kubelet.join('\n'));
    assert.equal(kubelet[0], 'Pulling: Pulling image "nginx:1.27"');
    assert.match(
      kubelet[1] ?? '',
      /^Pulled: Successfully pulled image "nginx:1\.27" in (\d+(\.\d+)?m?s) \(\1 including waiting\)\. Image size: \d+ bytes\.$/,
    );
    assert.deepEqual(kubelet.slice(2), ['Created: Created container: app', 'Started: Started container app']);
    const start = started.find((e) => e.reason === 'Started');
    assert.equal(start?.involvedObject?.fieldPath, 'spec.containers{app}');
    assert.equal(start.involvedObject.kind, 'Pod');
    assert.deepEqual(start.source, { component: 'kubelet', host: 'sim-node-0' });

    await api(`${podsPath}/web`, { method: 'DELETE' });
    await waitFor(
      'Killing',
      () => eventsAbout('web'),
      (es) => es.some((e) => e.reason === 'Killing' && e.message === 'Stopping container app'),
    );
    await server.clock.advance('4s');
    assert.equal(await podStatus('web'), 200);
    await server.clock.advance('2s');
    await waitFor(
      'web gone',
      () => podStatus('web'),
      (s) => s === 404,
    );
  });

  it('lets capstan.dev/stop-seconds win over the default, and a second pod of the image find it present', async () => {
    await createPod('slow', { 'capstan.dev/stop-seconds': '20' });
    await running('slow');
    const events = await waitFor(
      'slow started',
      () => eventsAbout('slow'),
      (es) => es.some((e) => e.reason === 'Started'),
    );
    assert.deepEqual(
      events.filter((e) => e.reason === 'Pulled' || e.reason === 'Pulling').map((e) => e.message),
      ['Container image "nginx:1.27" already present on machine'],
    );
    await api(`${podsPath}/slow`, { method: 'DELETE' });
    await server.clock.advance('10s');
    assert.equal(await podStatus('slow'), 200);
    await server.clock.advance('11s');
    await waitFor(
      'slow gone',
      () => podStatus('slow'),
      (s) => s === 404,
    );
  });

  it('counts a repeated BackOff warning on one event, as client-go does', async () => {
    await createPod('crashy', { 'capstan.dev/exit-code': '1', 'capstan.dev/run-seconds': '0' }, 'OnFailure');
    const backOffs = (es: Event[]) => es.filter((e) => e.reason === 'BackOff');
    await waitFor(
      'the first BackOff',
      () => eventsAbout('crashy'),
      (es) => backOffs(es).length === 1,
    );
    // The back-off is 10 s, then 20 s: each restart fails again and backs off again.
    for (let i = 0; i < 4; i++) await server.clock.advance('11s');
    const events = await waitFor(
      'the BackOff counted again',
      () => eventsAbout('crashy'),
      (es) => (backOffs(es)[0]?.count ?? 0) >= 2,
    );
    const [backOff, ...more] = backOffs(events);
    assert.equal(more.length, 0, 'one event, counted');
    assert.ok((backOff?.lastTimestamp ?? '') > (backOff?.firstTimestamp ?? ''), JSON.stringify(backOff));
  });
});

interface PodView {
  metadata: { finalizers?: string[]; deletionTimestamp?: string; deletionGracePeriodSeconds?: number };
  status?: {
    phase?: string;
    conditions?: { type: string; status: string; reason?: string }[];
    containerStatuses?: { ready: boolean; state: { terminated?: { exitCode: number; reason?: string } } }[];
  };
}

/** The watch events about one pod, read until it is DELETED. */
async function watchUntilDeleted(name: string): Promise<() => Promise<{ type: string; object: PodView }[]>> {
  const token = server.kubeConfig.users[0]?.user.token ?? '';
  const list = await api<{ metadata: { resourceVersion: string } }>(podsPath);
  const selector = encodeURIComponent(`metadata.name=${name}`);
  const url = `${server.url}${podsPath}?watch=1&fieldSelector=${selector}&resourceVersion=${list.metadata.resourceVersion}`;
  const abort = new AbortController();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal });
  const reader = res.body?.getReader();
  assert.ok(reader);
  const decoder = new TextDecoder();
  const events: { type: string; object: PodView }[] = [];
  let pending = '';
  return async () => {
    const deadline = Date.now() + 8000;
    while (!events.some((e) => e.type === 'DELETED') && Date.now() < deadline) {
      const chunk = await reader.read();
      if (chunk.done) break;
      pending += decoder.decode(chunk.value as Uint8Array, { stream: true });
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines)
        if (line.trim() !== '') events.push(JSON.parse(line) as (typeof events)[number]);
    }
    abort.abort();
    return events;
  };
}

describe('simulated kubelet: a deleted pod reaches a terminal phase before it goes', () => {
  const terminated = (p: PodView) =>
    p.status?.containerStatuses?.map((c) => [
      c.state.terminated?.exitCode,
      c.state.terminated?.reason,
      c.ready,
    ]);
  const readiness = (p: PodView) =>
    p.status?.conditions
      ?.filter((c) => c.type === 'Ready' || c.type === 'ContainersReady')
      .map((c) => [c.type, c.status, c.reason]);

  it('writes Failed with its containers stopped at SIGTERM (143) before the final delete', async () => {
    await createPod('sigterm');
    await running('sigterm');
    const events = await watchUntilDeleted('sigterm');
    await api(`${podsPath}/sigterm`, { method: 'DELETE' });
    await server.clock.advance('5s');
    const seen = await events();
    const deleted = seen.find((e) => e.type === 'DELETED');
    assert.ok(deleted, JSON.stringify(seen.map((e) => e.type)));
    assert.equal(deleted.object.status?.phase, 'Failed');
    assert.deepEqual(terminated(deleted.object), [[143, 'Error', false]]);
    assert.deepEqual(readiness(deleted.object), [
      ['Ready', 'False', 'PodFailed'],
      ['ContainersReady', 'False', 'PodFailed'],
    ]);
    // The terminal status was its own write, before the delete.
    const failedAt = seen.findIndex((e) => e.type === 'MODIFIED' && e.object.status?.phase === 'Failed');
    assert.ok(failedAt >= 0 && failedAt < seen.indexOf(deleted));
  });

  it('keeps a killed pod (137) with its terminal status until its finalizer is removed', async () => {
    await api(podsPath, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: 'held',
          finalizers: ['example.com/hold'],
          annotations: { 'capstan.dev/stop-seconds': '60' },
        },
        spec: { terminationGracePeriodSeconds: 30, containers: [{ name: 'app', image: 'nginx:1.27' }] },
      },
    });
    await running('held');
    await api(`${podsPath}/held`, { method: 'DELETE' });
    await server.clock.advance('29s');
    assert.equal((await api<PodView>(`${podsPath}/held`)).status?.phase, 'Running');
    await server.clock.advance('1s');
    const held = await waitFor(
      'held Failed and deleted by the kubelet',
      () => api<PodView>(`${podsPath}/held`),
      (p) => p.status?.phase === 'Failed' && p.metadata.deletionGracePeriodSeconds === 0,
    );
    assert.deepEqual(terminated(held), [[137, 'Error', false]]);
    assert.deepEqual(held.metadata.finalizers, ['example.com/hold']);
    assert.equal(await podStatus('held'), 200);
    await api(`${podsPath}/held`, { method: 'PATCH', patch: true, body: { metadata: { finalizers: null } } });
    await waitFor(
      'held gone',
      () => podStatus('held'),
      (s) => s === 404,
    );
  });
});
