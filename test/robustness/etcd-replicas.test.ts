// Robustness with two Capstan replicas in one history: a 3-member etcd on loopback, two Capstan
// processes on it sharing one PKI directory (`capstan pki`), replica B behind a link that delays
// everything etcd sends it by 50 ms (so its watch cache lags etcd), the watchers spread over both and
// each client sending its requests to both in turn, each replica in turn killed with kill -9 mid-run
// and restarted, then the etcd leader. kube serves a GET by name and a list without a resourceVersion
// as consistent reads, so a read on one replica after a write acknowledged by the other must see it:
// the history, checked whole, must be linearizable per object, the watches (served from each
// replica's own watch cache) ordered, unique and gapless and in agreement with each other, the lists
// equal to the replay of the watches. ROBUSTNESS_SEED picks the clients' choices (printed).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { runPKICommand } from '../../src/cmd/pki-command.js';
import { findLeader } from '../../src/storage/backends/etcd3/testing/cluster-status.js';
import {
  etcdInstalled,
  requireEtcd,
  startEtcdCluster,
  type EtcdProcess,
} from '../../src/storage/backends/etcd3/testing/etcd-process.js';
import { CapstanNode, type Credentials } from './support/capstan-node.js';
import { checkHistory } from './support/check-history.js';
import { DelayProxy } from './support/delay-proxy.js';
import { Workload } from './support/workload.js';
import { Timeline } from './support/timeline.js';

const seed = Number(process.env['ROBUSTNESS_SEED'] ?? 23);
let cluster: EtcdProcess | undefined;
let pkiDir = '';
const proxies: DelayProxy[] = [];
const replicas: CapstanNode[] = [];
/** How late replica B hears from etcd. */
const delayMs = 50;
let workload: Workload | undefined;

before(async () => {
  if (!etcdInstalled()) return; // the test says why it skips, or fails in CI
  pkiDir = await mkdtemp(join(tmpdir(), 'capstan-robustness-pki-'));
  const io = { stdout: { write: () => true }, stderr: process.stderr };
  assert.equal(await runPKICommand(['--dir', pkiDir, '--san', '127.0.0.1'], io), 0);
  // etcd 3.4 cannot be asked for progress: idle watch caches learn the revision from these.
  cluster = await startEtcdCluster({ name: 'replicas', progressNotifyInterval: '1s' });
  for (const endpoint of cluster.endpoints)
    proxies.push(await DelayProxy.start(Number(new URL(endpoint).port), delayMs));
  const flags = (endpoints: readonly string[]): string[] => [
    '--storage-backend=etcd3',
    `--etcd-servers=${endpoints.join(',')}`,
    `--pki-dir=${pkiDir}`,
  ];
  // One after the other: the first one's bootstrap (namespaces, the kubernetes Service) is then
  // settled when the second starts, which keeps the start short on a loaded machine.
  replicas.push(await CapstanNode.start(flags(cluster.endpoints)));
  replicas.push(await CapstanNode.start(flags(proxies.map((p) => `http://127.0.0.1:${p.port}`))));
});

after(async () => {
  workload?.close();
  await Promise.all(replicas.map((r) => r.stop()));
  await Promise.all(proxies.map((p) => p.close()));
  await cluster?.stop();
  if (pkiDir !== '') await rm(pkiDir, { recursive: true, force: true });
});

/**
 * Watcher i on replica A when i is even, else on B; each client sends its requests to A and B in turn
 * (a write acknowledged by one replica, then a read on the other), its list pages too; the setup and
 * the final reads (client 0) go to A.
 */
function roaming(a: CapstanNode, b: CapstanNode): (client: number) => Credentials {
  const sent = new Map<number, number>();
  return (client) => {
    if (client === 0) return a.credentials;
    if (client >= 100) return (client % 2 === 0 ? a : b).credentials;
    const n = sent.get(client) ?? client;
    sent.set(client, n + 1);
    return (n % 2 === 0 ? a : b).credentials;
  };
}

it(`etcd, two replicas: a history across kill -9 of each replica and of the etcd leader is linearizable (seed ${seed})`, async (t) => {
  if (!requireEtcd(t)) return;
  const [a, b] = replicas as [CapstanNode, CapstanNode];
  const w = await Workload.standard(roaming(a, b), seed);
  workload = w;
  const timeline = new Timeline();
  await w.reach(200);
  timeline.mark('replica B killed at');
  await b.restart();
  timeline.mark('replica B ready again at');
  await w.reach(w.history.ops.length + 300);
  timeline.mark('replica A killed at');
  await a.restart();
  timeline.mark('replica A ready again at');
  await w.reach(w.history.ops.length + 200);
  const leader = await findLeader(cluster as EtcdProcess);
  timeline.mark(`etcd leader ${leader.name} killed at`);
  await leader.kill();
  await w.reach(w.history.ops.length + 150);
  await leader.restart();
  timeline.mark('etcd leader back at');
  await w.reach(w.history.ops.length + 100);
  timeline.mark('last operations at');
  const history = await w.finish();
  timeline.mark('finished at');
  const verdict = checkHistory(history, w.baseRv);
  timeline.mark('checked at');
  t.diagnostic(`seed ${seed}: ${verdict.summary}; ${timeline.toString()}`);
  const unknown = new Map<string, number>();
  for (const o of history.ops)
    if (o.output.type === 'unknown') {
      const why = o.output.error.slice(0, 60);
      unknown.set(why, (unknown.get(why) ?? 0) + 1);
    }
  t.diagnostic(`unknown outcomes: ${[...unknown].map(([why, n]) => `${n}× ${why}`).join(' | ')}`);
  assert.deepEqual(verdict.problems, [], verdict.problems.join('\n'));
  assert.ok(verdict.counts.listsChecked > 10, 'too few lists were checked against the replay');
});
