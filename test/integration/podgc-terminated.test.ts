// PodGC's terminated-pod threshold on a virtual clock: past startCapstan's terminatedPodGCThreshold
// (kube-controller-manager's --terminated-pod-gc-threshold), the next pass (every 20 s) deletes the
// surplus, evicted pods first and then the oldest; running and pending pods are not counted.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { waitFor } from './support/wait-for.js';

let server: CapstanServer;
let token = '';
before(async () => {
  server = await startCapstan({
    scheme: 'http',
    clock: 'virtual',
    simulate: { nodes: 1, terminatedPodGCThreshold: 3 },
  });
  token = server.kubeConfig.users[0]?.user.token ?? '';
});
after(async () => {
  await server.stop();
});

async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${init.method ?? 'GET'} ${path}: ${String(res.status)} ${text}`);
  return JSON.parse(text) as T;
}

interface PodView {
  metadata: { name: string; resourceVersion: string };
  status?: { phase?: string; reason?: string };
}
const pods = '/api/v1/namespaces/default/pods';

/** A pod no node fits, so no kubelet writes its status: the test does, as a kubelet would. */
async function podIn(name: string, status: { phase: string; reason?: string }): Promise<void> {
  await api(pods, {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name },
      spec: {
        nodeSelector: { 'example.com/nowhere': 'true' },
        containers: [{ name: 'c', image: 'busybox' }],
      },
    },
  });
  if (status.phase === 'Pending') return;
  const pod = await api<PodView>(`${pods}/${name}`);
  await api(`${pods}/${name}/status`, {
    method: 'PUT',
    body: { ...pod, status: { ...pod.status, ...status } },
  });
}

const names = async (): Promise<string[]> =>
  (await api<{ items: PodView[] }>(pods)).items.map((p) => p.metadata.name).sort();

it('deletes the terminated pods past the threshold at its next pass: evicted first, then the oldest', async () => {
  // One creation second each, the clock moved between them: a is the oldest.
  for (const [name, status] of [
    ['a', { phase: 'Succeeded' }],
    ['b', { phase: 'Failed' }],
    ['c', { phase: 'Succeeded' }],
    ['d', { phase: 'Failed', reason: 'Evicted' }],
    ['e', { phase: 'Succeeded' }],
    ['waiting', { phase: 'Pending' }],
  ] as const) {
    await podIn(name, status);
    await server.clock.advance('1s');
  }
  // Five terminated against a threshold of three: nothing goes before the pass.
  assert.deepEqual(await names(), ['a', 'b', 'c', 'd', 'e', 'waiting']);
  await server.clock.advance('20s');
  await waitFor('the surplus collected', names, (n) => n.length === 4);
  assert.deepEqual(await names(), ['b', 'c', 'e', 'waiting']);
  // One more terminated pod and one running: the next pass takes only the oldest terminated one,
  // the running and the pending pod counting for nothing.
  await podIn('f', { phase: 'Running' });
  await podIn('g', { phase: 'Succeeded' });
  await server.clock.advance('20s');
  await waitFor('b collected', names, (n) => !n.includes('b'));
  assert.deepEqual(await names(), ['c', 'e', 'f', 'g', 'waiting']);
});
