// bench/soak: SOAK_MINUTES (default 3) of the robustness suite's mixed load (creates, precondition
// updates, deletes, gets, paged lists, watches hopping between revisions) against one Capstan process
// on SQLite, with Capstan's fault injection on a share of the writes and watches (503s, latency past the
// client's deadline, watches cut short). Every SOAK_SAMPLE_SECONDS (default 10) it reads the server's
// RSS, open file descriptors and threads from /proc, prints them, and at the end fails (exit code 1)
// if they grew without bound: the median of the last quarter of samples against that of the second
// quarter (the first is warm-up), by more than 25 % and 40 MB for RSS, or 30 descriptors. The final
// history is checked as the robustness tests check theirs.
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { CapstanNode } from '../test/robustness/support/capstan-node.js';
import { checkHistory } from '../test/robustness/support/check-history.js';
import { KubeClient } from '../test/robustness/support/kube-client.js';
import { Workload } from '../test/robustness/support/workload.js';
import { printGrid } from './support.js';

interface Sample {
  readonly atS: number;
  readonly rssMB: number;
  readonly fds: number;
  readonly threads: number;
  readonly ops: number;
}

function sample(pid: number, atS: number, ops: number): Sample {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string): number =>
    Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  const fds = readdirSync(`/proc/${pid}/fd`).length;
  return { atS, rssMB: field('VmRSS') / 1024, fds, threads: field('Threads'), ops };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

/** Problems when the last quarter's median is far above the second quarter's. */
function growth(samples: readonly Sample[]): string[] {
  const q = Math.floor(samples.length / 4);
  if (q < 1) return ['too few samples to judge growth: run longer or sample more often'];
  const early = samples.slice(q, 2 * q);
  const late = samples.slice(samples.length - q);
  const problems: string[] = [];
  const [rss0, rss1] = [median(early.map((s) => s.rssMB)), median(late.map((s) => s.rssMB))];
  if (rss1 > rss0 * 1.25 && rss1 - rss0 > 40)
    problems.push(`RSS grew from ${rss0.toFixed(0)} MB to ${rss1.toFixed(0)} MB`);
  const [fd0, fd1] = [median(early.map((s) => s.fds)), median(late.map((s) => s.fds))];
  if (fd1 - fd0 > 30) problems.push(`open descriptors grew from ${fd0} to ${fd1}`);
  return problems;
}

async function addFaults(node: CapstanNode): Promise<void> {
  const admin = new KubeClient(() => node.credentials, 5000);
  const writes = ['create', 'update', 'delete'];
  const rules = [
    { verb: writes, resource: 'configmaps', respond: 503, fraction: 0.02 },
    { verb: writes, resource: 'configmaps', latencyMs: 2500, fraction: 0.01 },
    { verb: 'watch', resource: 'configmaps', dropWatchAfterEvents: 50, fraction: 0.2 },
  ];
  try {
    for (const rule of rules) {
      const reply = await admin.request('POST', '/capstan/v1/faults', rule);
      if (reply.status !== 201) throw new Error(`fault rule: ${reply.status} ${JSON.stringify(reply.body)}`);
    }
  } finally {
    admin.close();
  }
}

export async function run(): Promise<void> {
  const minutes = Number(process.env['SOAK_MINUTES'] ?? 3);
  const everyMs = Number(process.env['SOAK_SAMPLE_SECONDS'] ?? 10) * 1000;
  const seed = Number(process.env['ROBUSTNESS_SEED'] ?? 23);
  const node = await CapstanNode.start(['--enable-test-api']);
  let workload: Workload | undefined;
  try {
    await addFaults(node);
    const pid = node.pid ?? 0;
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
    const t0 = Date.now();
    const samples: Sample[] = [sample(pid, 0, 0)];
    while (Date.now() - t0 < minutes * 60_000) {
      await sleep(everyMs);
      samples.push(sample(pid, (Date.now() - t0) / 1000, w.history.ops.length));
    }
    const history = await w.finish();
    const verdict = checkHistory(history, w.baseRv);
    printGrid(
      `Soak: ${minutes} min of mixed load with faults on SQLite (seed ${seed})`,
      ['at', 'RSS', 'open fds', 'threads', 'operations'],
      samples.map((s) => [
        `${s.atS.toFixed(0)} s`,
        `${s.rssMB.toFixed(0)} MB`,
        String(s.fds),
        String(s.threads),
        String(s.ops),
      ]),
    );
    console.log(`\nhistory: ${verdict.summary}`);
    const problems = [...growth(samples), ...verdict.problems];
    for (const p of problems) console.log(`FAIL: ${p}`);
    if (problems.length > 0) process.exitCode = 1;
    else console.log('no unbounded growth; the history passed every check');
  } finally {
    workload?.close();
    await node.stop();
  }
}
