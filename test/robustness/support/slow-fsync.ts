// The slow-fsync fault: a process run under strace's syscall fault injection, every fsync and
// fdatasync held delayUs, and the check both slow-fsync files make of a history through Capstan.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { TestContext } from 'node:test';
import type { CapstanNode } from './capstan-node.js';
import { checkHistory } from './check-history.js';
import { Workload } from './workload.js';

export const delayUs = 20_000;

/** The command a process runs under so that each of its (and its threads') fsyncs takes delayUs. */
export const slowFsync: readonly string[] = [
  'strace',
  '--seccomp-bpf',
  '-f',
  '-qq',
  '-o',
  '/dev/null',
  '-e',
  'trace=fdatasync,fsync',
  '-e',
  `inject=fdatasync:delay_enter=${delayUs}`,
  '-e',
  `inject=fsync:delay_enter=${delayUs}`,
];

export function straceInstalled(): boolean {
  return spawnSync('strace', ['-V'], { stdio: 'ignore' }).status === 0;
}

/** Skips without strace on a developer machine; in CI (CI set) a missing strace is a failure. */
export function requireStrace(t: TestContext): boolean {
  if (straceInstalled()) return true;
  if (process.env['CI'] !== undefined && process.env['CI'] !== '')
    throw new Error('strace not installed but CI is set: apt-get install -y strace');
  t.skip('strace not installed: apt-get install -y strace');
  return false;
}

/**
 * 200 operations of concurrent clients through `node`, then the history's check: linearizable,
 * watches ordered and gapless, most operations answered, and no write acknowledged faster than one
 * slow fsync (the delay is really there). `started` hands the workload to the file, whose after() closes it.
 */
export async function checkUnderSlowFsync(
  t: TestContext,
  node: CapstanNode,
  opts: { seed: number; started: (w: Workload) => void },
): Promise<void> {
  const w = await Workload.standard(() => node.credentials, opts.seed);
  opts.started(w);
  const t0 = Date.now();
  await w.reach(200, 20_000);
  const history = await w.finish();
  const verdict = checkHistory(history, w.baseRv);
  t.diagnostic(`seed ${opts.seed}: ${verdict.summary}; 200 operations in ${Date.now() - t0} ms`);
  assert.deepEqual(verdict.problems, [], verdict.problems.join('\n'));
  const ok = history.ops.filter((o) => o.output.type !== 'unknown').length;
  assert.ok(ok > 100, `only ${ok} operations answered`);
  const writes = history.ops.filter((o) => o.output.type === 'ok' && o.input.kind !== 'get');
  const fastest = Math.min(...writes.map((o) => o.ret - o.call));
  t.diagnostic(`fastest acknowledged write ${fastest} ms of ${writes.length}`);
  assert.ok(fastest >= delayUs / 1000, `a write acknowledged in ${fastest} ms, under the fsync delay`);
}
