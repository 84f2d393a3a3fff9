// A server process watched from outside for a soak: its resident memory, open file descriptors,
// threads and CPU time read from /proc at a steady interval while a workload runs, and a judgement of
// the series for unbounded growth. The first quarter of the samples is warm-up (caches filling, the
// JIT, libuv's threads starting) and is not judged. The last quarter is judged against the middle
// half: RSS rises and falls with V8's garbage collection (a saw tooth of tens of MB whose period can
// be a minute), so its peaks are compared: the last quarter's highest sample against the middle
// half's; descriptors and threads are levels, so their medians are compared. A steady level passes
// however it got there; a trend that keeps rising fails.
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ProcessSample {
  /** Seconds since sampling started. */
  readonly atS: number;
  readonly rssMB: number;
  readonly fds: number;
  readonly threads: number;
  /** User + system CPU time the process used since it started, seconds. */
  readonly cpuS: number;
  /** The workload's operations so far. */
  readonly ops: number;
}

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these ticks (100 on every common build). */
const ticksPerSecond = 100;

function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; the fields after it start with the state (field 3),
  // so utime (field 14) and stime (field 15) are the 12th and 13th after the closing parenthesis.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11] ?? 0) + Number(rest[12] ?? 0)) / ticksPerSecond;
}

/** One sample of `pid` (which must be alive); `atS` and `ops` are the caller's. */
export function sampleProcess(pid: number, atS: number, ops: number): ProcessSample {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string): number =>
    Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  const fds = readdirSync(`/proc/${pid}/fd`).length;
  return { atS, rssMB: field('VmRSS') / 1024, fds, threads: field('Threads'), cpuS: cpuSeconds(pid), ops };
}

export interface SampleOptions {
  readonly pid: number;
  readonly durationMs: number;
  readonly everyMs: number;
  readonly ops: () => number;
  /** Ends sampling early (a test's `after`); the samples so far are returned. */
  readonly signal?: AbortSignal;
}

/** Samples `pid` at once and then every `everyMs` until `durationMs` has passed. */
export async function sampleFor(o: SampleOptions): Promise<ProcessSample[]> {
  const t0 = Date.now();
  const samples = [sampleProcess(o.pid, 0, o.ops())];
  while (Date.now() - t0 < o.durationMs && o.signal?.aborted !== true) {
    const next = t0 + samples.length * o.everyMs;
    const aborted = await sleep(Math.max(0, next - Date.now()), false, { signal: o.signal }).catch(
      () => true,
    );
    if (aborted) break;
    samples.push(sampleProcess(o.pid, (Date.now() - t0) / 1000, o.ops()));
  }
  return samples;
}

export interface GrowthLimits {
  /** RSS fails when the late peak exceeds the middle half's by this ratio and by `rssMB`. */
  readonly rssRatio: number;
  readonly rssMB: number;
  /** Descriptors and threads fail when the late median exceeds the middle half's by more than these. */
  readonly fds: number;
  readonly threads: number;
}

export const defaultGrowthLimits: GrowthLimits = { rssRatio: 1.15, rssMB: 40, fds: 30, threads: 10 };

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

/** Each way the series grew past the limits; empty when it did not. */
export function growthProblems(
  samples: readonly ProcessSample[],
  limits: GrowthLimits = defaultGrowthLimits,
): string[] {
  const q = Math.floor(samples.length / 4);
  if (q < 1) return ['too few samples to judge growth: run longer or sample more often'];
  const middle = samples.slice(q, samples.length - q);
  const late = samples.slice(samples.length - q);
  const problems: string[] = [];
  const [rss0, rss1] = [Math.max(...middle.map((s) => s.rssMB)), Math.max(...late.map((s) => s.rssMB))];
  if (rss1 > rss0 * limits.rssRatio && rss1 - rss0 > limits.rssMB)
    problems.push(`RSS peaked at ${rss1.toFixed(0)} MB, past the ${rss0.toFixed(0)} MB peak before it`);
  const medians = (f: (s: ProcessSample) => number): [number, number] => [
    median(middle.map(f)),
    median(late.map(f)),
  ];
  const [fd0, fd1] = medians((s) => s.fds);
  if (fd1 - fd0 > limits.fds) problems.push(`open descriptors grew from ${fd0} to ${fd1}`);
  const [th0, th1] = medians((s) => s.threads);
  if (th1 - th0 > limits.threads) problems.push(`threads grew from ${th0} to ${th1}`);
  return problems;
}

/** The samples as rows for a table: time, RSS, descriptors, threads, CPU, operations. */
export function sampleRows(samples: readonly ProcessSample[]): string[][] {
  return samples.map((s) => [
    `${s.atS.toFixed(0)} s`,
    `${s.rssMB.toFixed(0)} MB`,
    String(s.fds),
    String(s.threads),
    `${s.cpuS.toFixed(1)} s`,
    String(s.ops),
  ]);
}

export const sampleColumns = ['at', 'RSS', 'open fds', 'threads', 'CPU', 'operations'] as const;
