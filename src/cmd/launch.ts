// launch: what bin/capstan runs. Loads the bundled command (dist/cmd/capstan.cjs, beside the
// bundled launcher) through the V8 code cache and runs it; once the server is ready, the cache is
// written for the next start. `node dist/cmd/capstan.cjs` runs the same command without a cache.
import { dirname, join } from 'node:path';
import { loadWithCodeCache } from './code-cache.js';

const bundle = loadWithCodeCache(join(dirname(process.argv[1] ?? '.'), 'capstan.cjs'));
const run = bundle.exports['runAsProcess'] as (hooks: { onReady: () => void }) => void;
run({
  onReady: () => {
    bundle.save();
  },
});
