// bench/soak: SOAK_MINUTES (default 3) of the robustness suite's mixed load (creates, precondition
// updates, deletes, gets, paged lists, watches hopping between revisions) against one Capstan process
// on SQLite, with Capstan's fault injection on a share of the writes and watches (503s, latency past the
// client's deadline, watches cut short). Every SOAK_SAMPLE_SECONDS (default 10) it reads the server's
// RSS, open file descriptors, threads and CPU time from /proc, prints them, and at the end fails (exit
// code 1) if they grew without bound (test/robustness/support/process-growth.ts judges, as the CI-sized
// soak in test/robustness/soak.test.ts does). The final history is checked as the robustness tests
// check theirs. Unlike the test, the load is not paced: six clients as fast as the server answers.
import { CapstanNode } from '../test/robustness/support/capstan-node.js';
import { checkHistory } from '../test/robustness/support/check-history.js';
import {
  growthProblems,
  sampleColumns,
  sampleFor,
  sampleRows,
} from '../test/robustness/support/process-growth.js';
import { addSoakFaults } from '../test/robustness/support/soak-faults.js';
import { Workload } from '../test/robustness/support/workload.js';
import { printGrid } from './support.js';

export async function run(): Promise<void> {
  const minutes = Number(process.env['SOAK_MINUTES'] ?? 3);
  const everyMs = Number(process.env['SOAK_SAMPLE_SECONDS'] ?? 10) * 1000;
  const seed = Number(process.env['ROBUSTNESS_SEED'] ?? 23);
  const node = await CapstanNode.start(['--enable-test-api']);
  let workload: Workload | undefined;
  try {
    await addSoakFaults(() => node.credentials);
    const w = await Workload.start({
      creds: () => node.credentials,
      ns: 'soak',
      seed,
      clients: 6,
      keys: 20,
      hopWatchers: 3,
      timeoutMs: 2000,
    });
    workload = w;
    const samples = await sampleFor({
      pid: node.pid ?? 0,
      durationMs: minutes * 60_000,
      everyMs,
      ops: () => w.history.ops.length,
    });
    const history = await w.finish();
    const verdict = checkHistory(history, w.baseRv);
    printGrid(
      `Soak: ${minutes} min of mixed load with faults on SQLite (seed ${seed})`,
      sampleColumns,
      sampleRows(samples),
    );
    console.log(`\nhistory: ${verdict.summary}`);
    const problems = [...growthProblems(samples), ...verdict.problems];
    for (const p of problems) console.log(`FAIL: ${p}`);
    if (problems.length > 0) process.exitCode = 1;
    else console.log('no unbounded growth; the history passed every check');
  } finally {
    workload?.close();
    await node.stop();
  }
}
