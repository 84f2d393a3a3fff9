// Robustness on a 3-member etcd whose every fsync and fdatasync is held 20 ms (strace's syscall fault
// injection; each member runs under it, so the leader's log writes and the followers' are slow): concurrent clients through Capstan, answers may be slow but must be
// correct. The history must be linearizable per object, the watches ordered, unique and gapless, no
// acknowledged write lost. ROBUSTNESS_SEED picks the clients' choices.
import { after, before, it } from 'node:test';
import {
  etcdInstalled,
  requireEtcd,
  startEtcdCluster,
  type EtcdProcess,
} from '../../src/storage/backends/etcd3/testing/etcd-process.js';
import { CapstanNode } from './support/capstan-node.js';
import {
  checkUnderSlowFsync,
  delayUs,
  requireStrace,
  slowFsync,
  straceInstalled,
} from './support/slow-fsync.js';
import type { Workload } from './support/workload.js';

const seed = Number(process.env['ROBUSTNESS_SEED'] ?? 31);
let etcd: EtcdProcess | undefined;
let node: CapstanNode | undefined;
let workload: Workload | undefined;

before(async () => {
  if (!etcdInstalled() || !straceInstalled()) return; // the test says why it skips, or fails in CI
  // The data dirs are on /dev/shm, where fsync costs nothing without the injected delay.
  etcd = await startEtcdCluster({ name: 'slow-fsync', wrap: slowFsync });
  node = await CapstanNode.start(['--storage-backend=etcd3', `--etcd-servers=${etcd.endpoints.join(',')}`]);
});

after(async () => {
  workload?.close();
  await node?.stop();
  await etcd?.stop();
});

it(`3-member etcd with every fsync ${delayUs / 1000} ms slow: the history is linearizable (seed ${seed})`, async (t) => {
  if (!requireEtcd(t) || !requireStrace(t) || node === undefined) return;
  await checkUnderSlowFsync(t, node, {
    seed,
    started: (w) => {
      workload = w;
    },
  });
});
