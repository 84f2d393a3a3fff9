// Robustness on a 3-member etcd cluster on loopback: one Capstan process on all three members,
// concurrent clients and watchers recorded through HTTP, and faults: kill -9 of the etcd leader (the
// others elect a new one; the killed member restarts and catches up), then of a follower, then of
// Capstan itself. The whole history must be linearizable per object, the watches ordered, unique and
// gapless, the lists equal to the replay of the watches. ROBUSTNESS_SEED picks the clients' choices.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, before, it } from 'node:test';
import { findLeader } from '../../src/storage/backends/etcd3/testing/cluster-status.js';
import {
  etcdInstalled,
  requireEtcd,
  startEtcdCluster,
  type EtcdProcess,
} from '../../src/storage/backends/etcd3/testing/etcd-process.js';
import { CapstanNode } from './support/capstan-node.js';
import { checkHistory } from './support/check-history.js';
import { Workload } from './support/workload.js';
import { Timeline } from './support/timeline.js';

const seed = Number(process.env['ROBUSTNESS_SEED'] ?? 23);
let cluster: EtcdProcess | undefined;
let node: CapstanNode | undefined;
let workload: Workload | undefined;

before(async () => {
  if (!etcdInstalled()) return; // the test says why it skips, or fails in CI
  cluster = await startEtcdCluster({ name: 'robustness' });
  node = await CapstanNode.start([
    '--storage-backend=etcd3',
    `--etcd-servers=${cluster.endpoints.join(',')}`,
  ]);
});

after(async () => {
  workload?.close();
  await node?.stop();
  await cluster?.stop();
});

it(`etcd: a history across the loss of the leader, of a follower and of Capstan is linearizable (seed ${seed})`, async (t) => {
  if (!requireEtcd(t)) return;
  const etcd = cluster as EtcdProcess;
  const n = node as CapstanNode;
  const w = await Workload.standard(() => n.credentials, seed);
  workload = w;
  const timeline = new Timeline();
  await w.reach(50);
  const leader = await findLeader(etcd);
  timeline.mark(`leader ${leader.name} killed at`);
  await leader.kill();
  const next = await findLeader(etcd);
  timeline.mark(`${next.name} leads at`);
  await w.reach(w.history.ops.length + 60);
  await leader.restart();
  timeline.mark('old leader back at');
  // A member that was neither leader: killing it leaves the cluster a quorum of two.
  const follower = etcd.members.find((m) => m.name !== next.name && m.name !== leader.name) ?? leader;
  await follower.kill();
  timeline.mark(`follower ${follower.name} killed at`);
  await w.reach(w.history.ops.length + 60);
  await follower.restart();
  timeline.mark('follower back at');
  await findLeader(etcd);
  await n.restart();
  timeline.mark('capstan killed and back at');
  await w.reach(w.history.ops.length + 40);
  timeline.mark('last operations at');
  const history = await w.finish();
  timeline.mark('finished at');
  const dump = process.env['ROBUSTNESS_DUMP'];
  if (dump !== undefined) writeFileSync(dump, JSON.stringify({ baseRv: w.baseRv, history }));
  const verdict = checkHistory(history, w.baseRv);
  timeline.mark('checked at');
  t.diagnostic(`seed ${seed}: ${verdict.summary}; ${timeline.toString()}`);
  const internal = history.ops.flatMap((o) =>
    o.output.type === 'unknown' && o.output.error.startsWith('500') ? [o.output.error] : [],
  );
  if (internal.length > 0) t.diagnostic(`500 answers: ${[...new Set(internal)].join(' | ')}`);
  assert.deepEqual(verdict.problems, [], verdict.problems.join('\n'));
  assert.ok(verdict.counts.listsChecked > 10, 'too few lists were checked against the replay');
});
