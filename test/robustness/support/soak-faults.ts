// The faults a soak runs under, through Capstan's test API (--enable-test-api): a few writes answered
// 503 before they are served, a few held past the clients' 2 s deadline (so they land after the client
// gave up), and a share of the watches cut after 50 events (so watchers resume).
import type { Credentials } from './capstan-node.js';
import { KubeClient } from './kube-client.js';

const writes = ['create', 'update', 'delete'];

export const soakFaultRules: readonly Record<string, unknown>[] = [
  { verb: writes, resource: 'configmaps', respond: 503, fraction: 0.02 },
  { verb: writes, resource: 'configmaps', latencyMs: 2500, fraction: 0.01 },
  { verb: 'watch', resource: 'configmaps', dropWatchAfterEvents: 50, fraction: 0.2 },
];

export async function addSoakFaults(creds: () => Credentials): Promise<void> {
  const admin = new KubeClient(creds, 5000);
  try {
    for (const rule of soakFaultRules) {
      const reply = await admin.request('POST', '/capstan/v1/faults', rule);
      if (reply.status !== 201) throw new Error(`fault rule: ${reply.status} ${JSON.stringify(reply.body)}`);
    }
  } finally {
    admin.close();
  }
}
