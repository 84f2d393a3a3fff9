#!/usr/bin/env node
// The type-checks (`npm run typecheck`) and the lint, side by side. Each is one single-threaded
// process (the typed lint builds its own TypeScript program), so on two cores they take about as long
// as the lint alone. Each one's output is printed whole once it ends; the step fails if any fails.
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => resolve(root, 'node_modules', '.bin', name);

const checks = [
  { name: 'typecheck', cmd: bin('tsc'), args: ['-p', 'tsconfig.json', '--noEmit'] },
  { name: 'typecheck (console)', cmd: bin('tsc'), args: ['-p', 'src/console', '--noEmit'] },
  { name: 'typecheck (console tests)', cmd: bin('tsc'), args: ['-p', 'src/console/test', '--noEmit'] },
  { name: 'lint', cmd: bin('eslint'), args: ['.'] },
];

function run({ name, cmd, args }) {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => out.push(c));
    child.on('error', (err) => {
      out.push(Buffer.from(`${String(err)}\n`));
      done({ name, code: 1, out, seconds: 0 });
    });
    child.on('close', (code) => {
      done({ name, code: code ?? 1, out, seconds: (performance.now() - started) / 1000 });
    });
  });
}

const results = await Promise.all(checks.map(run));
let failed = false;
for (const r of results) {
  process.stdout.write(Buffer.concat(r.out));
  console.log(`${r.code === 0 ? 'ok' : 'FAILED'}: ${r.name} (${r.seconds.toFixed(1)} s)`);
  if (r.code !== 0) failed = true;
}
process.exitCode = failed ? 1 : 0;
