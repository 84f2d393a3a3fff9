#!/usr/bin/env node
// `npm test`: the type-checks and the lint (scripts/check.mjs) beside the tests (scripts/run-tests.mjs),
// not before them. The tests leave part of the two cores idle (files waiting on etcd or a child), and
// the check is one process, mostly single-threaded, so side by side the whole takes less than one
// after the other (first measured: 433 s against 400 + 92). At a lower priority
// (niceness 10) the check got so little of the cores that it ended 25 s after the tests. The tests'
// output streams as they run; the check's is printed after it. Arguments go to run-tests.mjs (files or
// folders to run). The exit code is the tests' when they fail, else the check's.
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Runs a script of this folder; resolves with its exit code and, when piped, its output. */
function runScript(name, { args = [], piped = false } = {}) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [resolve(here, name), ...args], {
      stdio: piped ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    const out = [];
    if (piped) {
      child.stdout.on('data', (c) => out.push(c));
      child.stderr.on('data', (c) => out.push(c));
    }
    child.on('error', (err) =>
      done({ code: 1, out: [Buffer.from(`could not start ${name}: ${err.message}\n`)] }),
    );
    child.on('close', (code) => done({ code: code ?? 1, out }));
  });
}

// Ctrl-C reaches the children too; waiting for them lets run-tests.mjs remove its copy.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => undefined);
const check = runScript('check.mjs', { piped: true });
const tests = await runScript('run-tests.mjs', { args: process.argv.slice(2) });
const checked = await check;
process.stdout.write(`\n# type-checks and lint (scripts/check.mjs), run beside the tests\n`);
process.stdout.write(Buffer.concat(checked.out));
process.exit(tests.code !== 0 ? tests.code : checked.code);
