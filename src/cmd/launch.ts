// launch: what bin/capstan runs. Loads the bundled command (dist/cmd/capstan.cjs, beside the
// bundled launcher) through the V8 code cache and runs it. The cache is written a second after the
// server is ready, or at exit if that comes first, so it also holds the code that served the first
// requests (health probes, kubectl's discovery). `node dist/cmd/capstan.cjs` runs the same command
// without a cache.
import { dirname, join } from 'node:path';
import { loadWithCodeCache } from './code-cache.js';

const bundle = loadWithCodeCache(join(dirname(process.argv[1] ?? '.'), 'capstan.cjs'));
const run = bundle.exports['runAsProcess'] as (hooks: { onReady: () => void; onExit: () => void }) => void;
// Only a server that got ready leaves a cache: one from `--help` would hold little, and a cache
// that loads is kept until the bundle changes.
let state: 'starting' | 'ready' | 'saved' = 'starting';
const save = (): void => {
  if (state !== 'ready') return;
  state = 'saved';
  bundle.save();
};
run({
  onReady: () => {
    state = 'ready';
    setTimeout(save, 1000).unref();
  },
  onExit: save,
});
