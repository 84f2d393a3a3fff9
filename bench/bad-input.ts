// bench/bad-input: the soak's share of generated bad input. SOAK_BAD_INPUTS (default 100,000) split
// evenly over the five test/integration/bad-input-*.test.ts files, each run with BAD_INPUT_RUNS set
// to its share (their CI defaults add up to 11,000) through the project's test runner; the same
// checks: every answer below 500 and arriving, no crash, every stored object of the aimed kinds
// reading back and validating. BAD_INPUT_SEED changes the seed. Prints the time and the verdict;
// fails (exit code 1) when a file fails.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export async function run(): Promise<void> {
  const dir = join('test', 'integration');
  const files = readdirSync(join(root, dir))
    .filter((f) => f.startsWith('bad-input-') && f.endsWith('.test.ts'))
    .map((f) => join(dir, f));
  const total = Number(process.env['SOAK_BAD_INPUTS'] ?? 100_000);
  const each = Math.ceil(total / files.length);
  console.log(
    `\n### ${each * files.length} generated bad inputs (${each} in each of ${files.length} files)\n`,
  );
  const started = performance.now();
  const code = await new Promise<number>((done) => {
    const child = spawn(process.execPath, ['scripts/run-tests.mjs', ...files], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, BAD_INPUT_RUNS: String(each) },
    });
    // The runner's lines that say what ran and how it ended, and everything after the first
    // failure (the failing requests and answers), not every passing case.
    let rest = '';
    let failed = false;
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        if (line.includes('✖')) failed = true;
        if (failed || /inputs \(BAD_INPUT|^ℹ (tests|pass|fail)/.test(line)) console.log(line);
      }
    });
    child.on('close', (c) => {
      done(c ?? 1);
    });
  });
  const minutes = (performance.now() - started) / 60_000;
  console.log(`\n${code === 0 ? 'passed' : 'FAILED'} in ${minutes.toFixed(1)} min`);
  if (code !== 0) process.exitCode = 1;
}
