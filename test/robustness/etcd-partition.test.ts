// Robustness on a 3-member etcd cluster, each member in a network namespace of its own joined to the
// others and to Capstan by veth pairs (NetnsNetwork): one member is cut off, both directions, from
// its peers and from Capstan alike, while concurrent clients run through Capstan — first the leader
// (the other two elect a new one), then a follower — and healed. Where the kernel or the user cannot
// make namespaces, TCP proxies on the peer ports cut the peer traffic instead (as etcd's e2e
// framework does), and the test says so. The history must be linearizable per object, the watches
// ordered, unique and gapless, no acknowledged write lost. ROBUSTNESS_SEED picks the clients' choices;
// ROBUSTNESS_PARTITIONS=peer-proxies runs the fallback on purpose.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { findLeader, memberStatus } from '../../src/storage/backends/etcd3/testing/cluster-status.js';
import {
  etcdInstalled,
  requireEtcd,
  startEtcdCluster,
  type EtcdMember,
  type EtcdProcess,
} from '../../src/storage/backends/etcd3/testing/etcd-process.js';
import { netnsUnavailable } from '../../src/storage/backends/etcd3/testing/netns-network.js';
import type { PartitionNetwork } from '../../src/storage/backends/etcd3/testing/partition-network.js';
import { CapstanNode } from './support/capstan-node.js';
import { checkHistory } from './support/check-history.js';
import { Workload } from './support/workload.js';
import { Timeline } from './support/timeline.js';

const seed = Number(process.env['ROBUSTNESS_SEED'] ?? 29);
/** Probed once: why this machine cannot make network namespaces, if it cannot (or was told not to). */
const noNetns =
  process.env['ROBUSTNESS_PARTITIONS'] === 'peer-proxies'
    ? 'ROBUSTNESS_PARTITIONS=peer-proxies'
    : netnsUnavailable();
const kind = noNetns === undefined ? 'netns' : 'peer-proxies';
if (noNetns !== undefined)
  console.log(`etcd-partition: TCP peer proxies instead of network namespaces: ${noNetns}`);
let cluster: EtcdProcess | undefined;
let node: CapstanNode | undefined;
let workload: Workload | undefined;

before(async () => {
  // Without etcd the test itself skips with the reason (requireEtcd), or fails in CI.
  if (!etcdInstalled()) return;
  cluster = await startEtcdCluster({ name: 'partition', partitions: kind });
  node = await CapstanNode.start([
    '--storage-backend=etcd3',
    `--etcd-servers=${cluster.endpoints.join(',')}`,
  ]);
});

after(async () => {
  workload?.close();
  cluster?.network?.heal();
  await node?.stop();
  await cluster?.stop();
});

/**
 * Keeps a partition for 60 more operations or 6 s, whichever comes first: a client whose connection
 * is to the cut-off member gets timeouts (unknown outcomes) until the heal, as kube's would.
 */
async function during(w: Workload, n: number): Promise<number> {
  const start = w.history.ops.length;
  const deadline = Date.now() + 6000;
  while (w.history.ops.length < start + n && Date.now() < deadline) await sleep(20);
  return w.history.ops.length - start;
}

/** Cuts `m` off and waits until the other two agree on a leader that is not `m`. */
async function partition(etcd: EtcdProcess, net: PartitionNetwork, m: EtcdMember): Promise<EtcdMember> {
  const status = await memberStatus(m);
  net.isolate(m.name, BigInt(status.memberId).toString(16));
  return findLeader(etcd, 15_000, (o) => o.name !== m.name);
}

it(`etcd (${kind}): a history across a partition of the leader and of a follower is linearizable (seed ${seed})`, async (t) => {
  if (!requireEtcd(t)) return;
  if (noNetns !== undefined)
    t.diagnostic(`partitions by TCP peer proxies, not network namespaces: ${noNetns}`);
  const etcd = cluster as EtcdProcess;
  const net = etcd.network as PartitionNetwork;
  const n = node as CapstanNode;
  const w = await Workload.standard(() => n.credentials, seed);
  workload = w;
  const timeline = new Timeline();
  await w.reach(50, 20_000);
  const leader = await findLeader(etcd);
  const next = await partition(etcd, net, leader);
  timeline.mark(`leader ${leader.name} partitioned, ${next.name} leads at`);
  timeline.mark(`${await during(w, 60)} operations done in the partition, until`);
  net.heal();
  await findLeader(etcd, 15_000);
  timeline.mark('healed at');
  await w.reach(w.history.ops.length + 30, 20_000);
  const follower = etcd.members.find((m) => m.name !== next.name) ?? leader;
  const still = await partition(etcd, net, follower);
  timeline.mark(`follower ${follower.name} partitioned (${still.name} leads) at`);
  timeline.mark(`${await during(w, 60)} operations done in the partition, until`);
  net.heal();
  await findLeader(etcd, 15_000);
  timeline.mark('healed at');
  await w.reach(w.history.ops.length + 40, 20_000);
  const history = await w.finish();
  const verdict = checkHistory(history, w.baseRv);
  timeline.mark('checked at');
  t.diagnostic(`seed ${seed}: ${verdict.summary}; ${timeline.toString()}`);
  assert.deepEqual(verdict.problems, [], verdict.problems.join('\n'));
  assert.ok(verdict.counts.listsChecked > 10, 'too few lists were checked against the replay');
});
