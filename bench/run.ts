// npm run bench [-- name…]: runs the named benchmarks (default: all) and prints Markdown tables
// with ratios against baselines measured in the same run.
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The benchmarks serve from this process, so it runs under the V8 flags bin/capstan gives the server
// on this machine (bin/node-flags): without them it starts itself again with them.
// BENCH_NODE_FLAGS=0 measures without them.
if (process.env['BENCH_NODE_FLAGS'] !== '0') {
  const script = fileURLToPath(new URL('../bin/node-flags', import.meta.url));
  const flags = execFileSync(script, { encoding: 'utf8' })
    .split('\n')
    .filter((f) => f !== '');
  const missing = flags.filter((f) => !process.execArgv.includes(f));
  if (missing.length > 0) {
    const args = [...missing, ...process.execArgv, ...process.argv.slice(1)];
    const { status, signal } = spawnSync(process.execPath, args, { stdio: 'inherit' });
    process.exit(signal === null ? (status ?? 1) : 1);
  }
}

const benches: Record<string, () => Promise<{ run(): Promise<void> }>> = {
  storage: () => import('./storage.js'),
  compaction: () => import('./compaction.js'),
  api: () => import('./api.js'),
  memory: () => import('./memory.js'),
  startup: () => import('./startup.js'),
  watch: () => import('./watch.js'),
  encryption: () => import('./encryption.js'),
  lifecycle: () => import('./lifecycle.js'),
  flowcontrol: () => import('./flowcontrol.js'),
  console: () => import('./console.js'),
  soak: () => import('./soak.js'),
  'bad-input': () => import('./bad-input.js'),
  simulate: () => import('./simulate.js'),
  profile: () => import('./profile.js'),
  promises: () => import('./promises.js'),
  ab: () => import('./ab.js'),
};

const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(benches);
const nodeFlags = process.execArgv.filter((f) => f.startsWith('--') && f !== '--import');
console.log(
  `Capstan benchmarks, ${new Date().toISOString()}, node ${process.version}` +
    (nodeFlags.length > 0 ? ` ${nodeFlags.join(' ')}` : ''),
);
for (const name of names) {
  const load = benches[name];
  if (load === undefined) {
    console.error(`unknown benchmark ${name}; known: ${Object.keys(benches).join(', ')}`);
    process.exit(2);
  }
  await (await load()).run();
}
