// Robustness on SQLite whose every fsync and fdatasync is held 20 ms (strace's syscall fault injection;
// Capstan runs under it with -f, since the commits happen in a writer worker thread): concurrent
// clients through Capstan, answers may be slow but must be correct. The history must be linearizable per object, the watches ordered, unique and gapless, no
// acknowledged write lost. ROBUSTNESS_SEED picks the clients' choices.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { CapstanNode } from './support/capstan-node.js';
import { checkHistory } from './support/check-history.js';
import { Workload } from './support/workload.js';

const seed = Number(process.env['ROBUSTNESS_SEED'] ?? 37);
const delayUs = 20_000;
const slowFsync = [
  'strace', '--seccomp-bpf', '-f', '-qq', '-o', '/dev/null',
  '-e', 'trace=fdatasync,fsync',
  '-e', `inject=fdatasync:delay_enter=${delayUs}`,
  '-e', `inject=fsync:delay_enter=${delayUs}`,
];
let node: CapstanNode | undefined;
let workload: Workload | undefined;

before(async () => {
  node = await CapstanNode.start([], { wrap: slowFsync });
});

after(async () => {
  workload?.close();
  await node?.stop();
});

it(`SQLite with every fsync ${delayUs / 1000} ms slow: the history is linearizable (seed ${seed})`, async (t) => {
  const n = node as CapstanNode;
  const w = await Workload.start({
    creds: () => n.credentials,
    ns: 'robustness',
    seed,
    clients: 4,
    keys: 3,
    hopWatchers: 2,
    timeoutMs: 2000,
  });
  workload = w;
  const t0 = Date.now();
  const deadline = t0 + 20_000;
  while (w.history.ops.length < 200) {
    if (Date.now() > deadline) assert.fail(`only ${w.history.ops.length} of 200 operations in 20 s`);
    await sleep(20);
  }
  const history = await w.finish();
  const verdict = checkHistory(history, w.baseRv);
  t.diagnostic(`seed ${seed}: ${verdict.summary}; 200 operations in ${Date.now() - t0} ms`);
  assert.deepEqual(verdict.problems, [], verdict.problems.join('\n'));
  const ok = history.ops.filter((o) => o.output.type !== 'unknown').length;
  assert.ok(ok > 100, `only ${ok} operations answered`);
  // The delay is really there: no successful write is acknowledged faster than one slow fsync.
  const writes = history.ops.filter((o) => o.output.type === 'ok' && o.input.kind !== 'get');
  const fastest = Math.min(...writes.map((o) => o.ret - o.call));
  t.diagnostic(`fastest acknowledged write ${fastest} ms of ${writes.length}`);
  assert.ok(fastest >= delayUs / 1000, `a write acknowledged in ${fastest} ms, under the fsync delay`);
});
