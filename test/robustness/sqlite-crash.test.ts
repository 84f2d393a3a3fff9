// Robustness on SQLite: one Capstan process, concurrent clients and watchers recorded through HTTP,
// and faults: kill -9 and restart (twice), then Capstan's own fault injection (503s and 504s before a
// write is served, a latency past the client's deadline so a write lands after the client gave up,
// watches cut after a few events). The whole history must be linearizable per object, the watches
// ordered, unique and gapless, the lists equal to the replay of the watches. ROBUSTNESS_SEED picks the
// clients' choices (printed; the default is fixed).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, before, it } from 'node:test';
import { CapstanNode } from './support/capstan-node.js';
import { checkHistory } from './support/check-history.js';
import { KubeClient } from './support/kube-client.js';
import { Workload } from './support/workload.js';
import { Timeline } from './support/timeline.js';

const seed = Number(process.env['ROBUSTNESS_SEED'] ?? 23);
let node: CapstanNode | undefined;
let workload: Workload | undefined;

before(async () => {
  node = await CapstanNode.start(['--enable-test-api']);
});

after(async () => {
  workload?.close();
  await node?.stop();
});

async function testAPI(n: CapstanNode, method: string, path: string, body?: unknown): Promise<void> {
  const admin = new KubeClient(() => n.credentials, 5000);
  try {
    const reply = await admin.request(method, `/capstan/v1/${path}`, body);
    assert.ok(reply.status < 300, `${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
  } finally {
    admin.close();
  }
}

it(`SQLite: a history across kill -9, restarts and injected faults is linearizable (seed ${seed})`, async (t) => {
  const n = node as CapstanNode;
  const w = await Workload.start({
    creds: () => n.credentials,
    ns: 'robustness',
    seed,
    clients: 4,
    keys: 3,
    hopWatchers: 2,
    timeoutMs: 1500,
  });
  workload = w;
  const timeline = new Timeline();
  await w.reach(60);
  timeline.mark('kill -9 at');
  await n.restart();
  timeline.mark('ready again at');
  await w.reach(w.history.ops.length + 60);
  const writes = ['create', 'update', 'delete'];
  await testAPI(n, 'POST', 'faults', { verb: writes, resource: 'configmaps', respond: 503, fraction: 0.1 });
  await testAPI(n, 'POST', 'faults', { verb: writes, resource: 'configmaps', respond: 504, fraction: 0.05 });
  await testAPI(n, 'POST', 'faults', {
    verb: writes,
    resource: 'configmaps',
    latencyMs: 1800,
    fraction: 0.05,
  });
  await testAPI(n, 'POST', 'faults', {
    verb: 'watch',
    resource: 'configmaps',
    dropWatchAfterEvents: 4,
    times: 6,
  });
  timeline.mark('faults on at');
  await w.reach(w.history.ops.length + 80);
  await testAPI(n, 'DELETE', 'faults');
  timeline.mark('kill -9 at');
  await n.restart();
  timeline.mark('ready again at');
  await w.reach(w.history.ops.length + 60);
  const history = await w.finish();
  timeline.mark('finished at');
  const dump = process.env['ROBUSTNESS_DUMP'];
  if (dump !== undefined) writeFileSync(dump, JSON.stringify({ baseRv: w.baseRv, history }));
  const verdict = checkHistory(history, w.baseRv);
  timeline.mark('checked at');
  t.diagnostic(`seed ${seed}, ${n.restarts} restarts: ${verdict.summary}; ${timeline.toString()}`);
  assert.deepEqual(verdict.problems, [], verdict.problems.join('\n'));
  assert.ok(verdict.counts.unknown > 0, 'the faults left no operation of unknown outcome');
  assert.ok(verdict.counts.listsChecked > 10, 'too few lists were checked against the replay');
});
