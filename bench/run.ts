// npm run bench [-- name…]: runs the named benchmarks (default: all) and prints Markdown tables
// with ratios against baselines measured in the same run.
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
};

const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(benches);
console.log(`Capstan benchmarks, ${new Date().toISOString()}, node ${process.version}`);
for (const name of names) {
  const load = benches[name];
  if (load === undefined) {
    console.error(`unknown benchmark ${name}; known: ${Object.keys(benches).join(', ')}`);
    process.exit(2);
  }
  await (await load()).run();
}
