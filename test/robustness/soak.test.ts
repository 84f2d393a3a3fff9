// The CI-sized soak: bench/soak.ts's mixed load with Capstan's fault injection (503s, writes held past
// the clients' deadline, watches cut short) for SOAK_TEST_SECONDS (default 100) against one Capstan
// process on SQLite, paced so that it leaves room for the other test files running beside it (three
// clients, each waiting THINK_MS after each operation). The server's RSS, open descriptors and threads
// are sampled every 5 s and must not grow without bound; the whole history must pass every check of
// the robustness suite. ROBUSTNESS_SEED picks the clients' choices (printed; the default is fixed).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { CapstanNode } from './support/capstan-node.js';
import { checkHistory } from './support/check-history.js';
import { growthProblems, sampleColumns, sampleFor, sampleRows } from './support/process-growth.js';
import { addSoakFaults } from './support/soak-faults.js';
import { Workload } from './support/workload.js';

const seed = Number(process.env['ROBUSTNESS_SEED'] ?? 23);
const seconds = Number(process.env['SOAK_TEST_SECONDS'] ?? 100);
const thinkMs = 150;
const hopPauseMs = 1000;
const stop = new AbortController();
let node: CapstanNode | undefined;
let workload: Workload | undefined;

before(async () => {
  node = await CapstanNode.start(['--enable-test-api']);
});

after(async () => {
  stop.abort();
  workload?.close();
  await node?.stop();
});

it(`SQLite soak: ${seconds} s of paced load with faults, no unbounded growth, the history checks (seed ${seed})`, async (t) => {
  const n = node as CapstanNode;
  await addSoakFaults(() => n.credentials);
  const clientCpu0 = process.cpuUsage();
  const w = await Workload.start({
    creds: () => n.credentials,
    ns: 'soak',
    seed,
    clients: 3,
    keys: 8,
    hopWatchers: 2,
    timeoutMs: 2000,
    thinkMs,
    hopPauseMs,
  });
  workload = w;
  const samples = await sampleFor({
    pid: n.pid ?? 0,
    durationMs: seconds * 1000,
    everyMs: 5000,
    ops: () => w.history.ops.length,
    signal: stop.signal,
  });
  const history = await w.finish();
  const verdict = checkHistory(history, w.baseRv);
  const clientCpu = process.cpuUsage(clientCpu0);
  const first = samples[0];
  const last = samples.at(-1);
  const serverCpuS = (last?.cpuS ?? 0) - (first?.cpuS ?? 0);
  t.diagnostic(`seed ${seed}: ${verdict.summary}`);
  t.diagnostic(
    `CPU over ${(last?.atS ?? 0).toFixed(0)} s: server ${serverCpuS.toFixed(1)} s, ` +
      `clients and checker ${((clientCpu.user + clientCpu.system) / 1e6).toFixed(1)} s`,
  );
  for (const row of [sampleColumns, ...sampleRows(samples)]) t.diagnostic(row.join(' | '));
  assert.deepEqual(growthProblems(samples), [], 'the server grew without bound');
  assert.deepEqual(verdict.problems, [], verdict.problems.join('\n'));
  assert.ok(verdict.counts.unknown > 0, 'the faults left no operation of unknown outcome');
  assert.ok(verdict.counts.listsChecked > 10, 'too few lists were checked against the replay');
});
