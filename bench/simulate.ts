// bench/simulate: a Deployment of many pods through the simulated cluster (startCapstan({ simulate:
// { nodes } }) in this process, real clock): the time until every pod is bound, until the
// Deployment reports them all ready, the process's CPU time over that span and its peak RSS.
// SIM_BENCH_PODS (default 10000) and SIM_BENCH_NODES (default 100) size it; the baseline row is a
// Deployment of 1% of the pods in the same server first, so the ratio says how the cost grows.
import { startCapstan, type CapstanServer } from '../src/index.js';
import { fmtMs, printGrid } from './support.js';

const pods = Number(process.env['SIM_BENCH_PODS'] ?? '10000');
const nodes = Number(process.env['SIM_BENCH_NODES'] ?? '100');

interface Measured {
  readonly pods: number;
  readonly boundMs: number;
  readonly readyMs: number;
  readonly cpuMs: number;
  readonly peakRssMb: number;
}

async function api<T>(server: CapstanServer, path: string, body?: unknown): Promise<T> {
  const token = server.kubeConfig.users[0]?.user.token ?? '';
  const res = await fetch(`${server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${path}: ${String(res.status)} ${text}`);
  return JSON.parse(text) as T;
}

async function deploy(server: CapstanServer, name: string, replicas: number): Promise<Measured> {
  const cpu = process.cpuUsage();
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 100);
  const start = performance.now();
  await api(server, '/apis/apps/v1/namespaces/default/deployments', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
    },
  });
  let boundMs = 0;
  try {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      if (boundMs === 0) {
        // metadata-only count of the bound pods through a field selector would list them all; the
        // Deployment's own status is cheaper to poll, and bound = readyReplicas' precursor.
        const list = await api<{ items: unknown[] }>(
          server,
          `/api/v1/namespaces/default/pods?labelSelector=app%3D${name}&fieldSelector=spec.nodeName%3D&limit=1`,
        );
        if (list.items.length === 0) boundMs = performance.now() - start;
      }
      const d = await api<{ status?: { readyReplicas?: number } }>(
        server,
        `/apis/apps/v1/namespaces/default/deployments/${name}`,
      );
      if ((d.status?.readyReplicas ?? 0) >= replicas) break;
    }
  } finally {
    clearInterval(sampler);
  }
  const readyMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return {
    pods: replicas,
    boundMs: boundMs === 0 ? readyMs : boundMs,
    readyMs,
    cpuMs: (used.user + used.system) / 1000,
    peakRssMb: peak / 2 ** 20,
  };
}

export async function run(): Promise<void> {
  const server = await startCapstan({ scheme: 'http', requestLog: false, simulate: { nodes } });
  try {
    const small = await deploy(server, 'warm', Math.max(1, Math.round(pods / 100)));
    const big = await deploy(server, 'web', pods);
    const row = (label: string, m: Measured): string[] => [
      label,
      String(m.pods),
      fmtMs(m.boundMs),
      fmtMs(m.readyMs),
      fmtMs(m.cpuMs),
      m.peakRssMb.toFixed(0),
      (m.readyMs / m.pods).toFixed(2),
    ];
    printGrid(
      `a Deployment through --simulate with ${String(nodes)} nodes (startCapstan in this process, memory storage)`,
      ['deployment', 'pods', 'all bound (ms)', 'all ready (ms)', 'CPU (ms)', 'peak RSS (MB)', 'ms per pod'],
      [row('baseline: 1% of the pods', small), row('the Deployment', big)],
    );
  } finally {
    await server.stop();
  }
}
