// --simulate with pod stages given as data (startCapstan({ simulate: { stages } })): the simulated
// kubelets follow them on the virtual clock instead of their default lifecycle.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstan, type CapstanServer, type PodStages } from '../../src/index.js';
import { waitFor } from './support/wait-for.js';

const stages: PodStages = {
  stages: [
    { name: 'never', selector: { matchLabels: { stage: 'never' } }, next: { stay: true } },
    {
      name: 'start-unready',
      selector: { phases: ['Pending'], matchLabels: { stage: 'slow' } },
      next: { phase: 'Running', ready: false },
    },
    {
      name: 'ready-later',
      selector: { phases: ['Running'], matchLabels: { stage: 'slow' } },
      delay: { seconds: 10 },
      next: { phase: 'Running', ready: true },
    },
    { name: 'start', selector: { phases: ['Pending'] }, next: { phase: 'Running' } },
    {
      name: 'crash',
      selector: { phases: ['Running'], matchLabels: { stage: 'crash' }, restartPolicies: ['Never'] },
      delay: { seconds: 5, secondsFromAnnotation: 'example.com/run' },
      next: { exit: { code: 3 } },
    },
  ],
};

interface Pod {
  metadata: { name: string };
  status?: {
    phase?: string;
    conditions?: { type: string; status: string }[];
    containerStatuses?: { state?: { terminated?: { exitCode: number } } }[];
  };
}

let server: CapstanServer;
const api = async <T>(path: string, body?: unknown): Promise<T> => {
  const token = server.kubeConfig.users[0]?.user.token ?? '';
  const res = await fetch(`${server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${path}: ${String(res.status)} ${text}`);
  return JSON.parse(text) as T;
};
const pod = (name: string, stage: string, extra: Record<string, unknown> = {}) =>
  api('/api/v1/namespaces/default/pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { stage } },
    spec: { containers: [{ name: 'c', image: 'busybox' }], ...extra },
  });
const get = (name: string) => api<Pod>(`/api/v1/namespaces/default/pods/${name}`);
const ready = (p: Pod) => p.status?.conditions?.find((c) => c.type === 'Ready')?.status;

before(async () => {
  server = await startCapstan({ scheme: 'http', clock: 'virtual', simulate: { nodes: 1, stages } });
});
after(async () => {
  await server.stop();
});

describe('pod stages as data', () => {
  it('a stage that stays leaves a bound pod Pending', async () => {
    await pod('stuck', 'never');
    await pod('plain', 'none');
    await waitFor(
      'plain running',
      () => get('plain'),
      (p) => p.status?.phase === 'Running' && ready(p) === 'True',
    );
    const stuck = await get('stuck');
    assert.equal(stuck.status?.phase, 'Pending');
  });

  it('a pod starts unready and becomes Ready only after its stage delay', async () => {
    await pod('slow', 'slow');
    await waitFor(
      'slow running, not ready',
      () => get('slow'),
      (p) => p.status?.phase === 'Running' && ready(p) === 'False',
    );
    await server.clock.advance('9s');
    assert.equal(ready(await get('slow')), 'False');
    await server.clock.advance('2s');
    await waitFor(
      'slow ready',
      () => get('slow'),
      (p) => ready(p) === 'True',
    );
  });

  it('a stage ends a pod with its exit code after the delay an annotation gives', async () => {
    await api('/api/v1/namespaces/default/pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'crash', labels: { stage: 'crash' }, annotations: { 'example.com/run': '20' } },
      spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' },
    });
    await waitFor(
      'crash running',
      () => get('crash'),
      (p) => p.status?.phase === 'Running',
    );
    await server.clock.advance('10s');
    assert.equal((await get('crash')).status?.phase, 'Running');
    await server.clock.advance('11s');
    const failed = await waitFor(
      'crash failed',
      () => get('crash'),
      (p) => p.status?.phase === 'Failed',
    );
    assert.equal(failed.status?.containerStatuses?.[0]?.state?.terminated?.exitCode, 3);
  });
});
