// --simulate's pod addresses: a pod that finished gives its address back (as CNI plugins free it
// when the pod's sandbox goes; the API keeps it in the pod's status), so a node runs more pods over
// time than its /24 pod CIDR has addresses; and a fork's kubelet holds the addresses of the running
// pods it inherits rather than hand them out again.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import type { List, Obj } from './support/simulated-server.js';
import { jsonCall } from './support/json-call.js';
import { waitFor } from './support/wait-for.js';

const pods = '/api/v1/namespaces/default/pods';

/** A GET, or a POST of `body`; a status of 300 or more fails. */
async function api<T = Obj>(server: CapstanServer, path: string, body?: unknown): Promise<T> {
  const res = await jsonCall<T>(server, { method: body === undefined ? 'GET' : 'POST', path, body });
  if (res.status >= 300) throw new Error(`${path}: ${String(res.status)} ${JSON.stringify(res.body)}`);
  return res.body;
}

const pod = (name: string, finishes: boolean): unknown => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    ...(finishes ? { annotations: { 'capstan.dev/exit-code': '0', 'capstan.dev/run-seconds': '0' } } : {}),
  },
  spec: { restartPolicy: finishes ? 'Never' : 'Always', containers: [{ name: 'c', image: 'busybox' }] },
});

/** The pod once it is in `phase`. */
const inPhase = (server: CapstanServer, name: string, phase: string): Promise<Obj> =>
  waitFor(
    `${name} ${phase}`,
    () => api(server, `${pods}/${name}`),
    (p) => p.status?.['phase'] === phase,
  );

const podIP = (p: Obj): string => String(p.status?.['podIP']);

describe('simulated pod addresses', () => {
  let server: CapstanServer;
  before(async () => {
    server = await startCapstan({ scheme: 'http', simulate: { nodes: 1 } });
  });
  after(async () => {
    await server.stop();
  });

  it("gives a finished pod's address to the next pod, and keeps it in the finished pod's status", async () => {
    await api(server, pods, pod('first', true));
    const first = await inPhase(server, 'first', 'Succeeded');
    assert.match(podIP(first), /^\d+\.\d+\.\d+\.\d+$/);
    await api(server, pods, pod('next', false));
    const next = await inPhase(server, 'next', 'Running');
    // The lowest free address, which the finished pod gave back.
    assert.equal(podIP(next), podIP(first));
    assert.equal(podIP(await api(server, `${pods}/first`)), podIP(first));
  });

  it('runs a Job of more pods than the node has addresses to completion', async () => {
    const completions = 260;
    await api(server, '/apis/batch/v1/namespaces/default/jobs', {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'many' },
      spec: {
        completions,
        parallelism: 100,
        template: {
          metadata: { annotations: { 'capstan.dev/run-seconds': '0' } },
          spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] },
        },
      },
    });
    const job = await waitFor(
      'the job complete',
      () => api(server, '/apis/batch/v1/namespaces/default/jobs/many'),
      (j) => j.status?.['succeeded'] === completions,
      60_000,
    );
    assert.equal(job.status?.conditions?.find((c) => c.type === 'Complete')?.status, 'True');
    // A /24 has 253 addresses for pods: more than that many pods ran on the one node.
    const done = await api<List>(server, `${pods}?labelSelector=job-name%3Dmany`);
    assert.equal(done.items.filter((p) => p.status?.['phase'] === 'Succeeded').length, completions);
  });

  it("holds, in a fork's kubelet, the addresses of the running pods the fork starts with", async () => {
    const next = await api(server, `${pods}/next`);
    const fork = await server.fork(await server.snapshot());
    try {
      await api(fork, pods, pod('forked', false));
      const forked = await inPhase(fork, 'forked', 'Running');
      assert.notEqual(podIP(forked), podIP(next));
      const running = (await api<List>(fork, pods)).items.filter((p) => p.status?.['phase'] === 'Running');
      assert.equal(new Set(running.map(podIP)).size, running.length);
    } finally {
      await fork.stop();
    }
  });
});
