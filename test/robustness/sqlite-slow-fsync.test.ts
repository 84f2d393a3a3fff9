// Robustness on SQLite whose every fsync and fdatasync is held 20 ms (strace's syscall fault injection;
// Capstan runs under it with -f, since the commits happen in a writer worker thread): concurrent
// clients through Capstan, answers may be slow but must be correct. The history must be linearizable
// per object, the watches ordered, unique and gapless, no acknowledged write lost. ROBUSTNESS_SEED
// picks the clients' choices.
import { after, before, it } from 'node:test';
import { CapstanNode } from './support/capstan-node.js';
import {
  checkUnderSlowFsync,
  delayUs,
  requireStrace,
  slowFsync,
  straceInstalled,
} from './support/slow-fsync.js';
import type { Workload } from './support/workload.js';

const seed = Number(process.env['ROBUSTNESS_SEED'] ?? 37);
let node: CapstanNode | undefined;
let workload: Workload | undefined;

before(async () => {
  if (!straceInstalled()) return; // the test says why it skips, or fails in CI
  node = await CapstanNode.start([], { wrap: slowFsync });
});

after(async () => {
  workload?.close();
  await node?.stop();
});

it(`SQLite with every fsync ${delayUs / 1000} ms slow: the history is linearizable (seed ${seed})`, async (t) => {
  if (!requireStrace(t) || node === undefined) return;
  await checkUnderSlowFsync(t, node, {
    seed,
    started: (w) => {
      workload = w;
    },
  });
});
