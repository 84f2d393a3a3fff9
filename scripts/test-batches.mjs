// Groups test files that can share a process into batches: one entry point of the test build that
// imports each of them, run by node's test runner as one file. Starting a test process and loading
// what a file imports cost ~0.3 s of CPU per file, more than most unit test files' tests take
// (measured: 49 of them, one process each, 19.3 s of CPU; as one batch 3.6 s).
//
// A file shares a process only if nothing in it reaches past its own tests. Left alone are:
// - files with a hook at the top level (`before`, `after`, `beforeEach`, `afterEach`): node:test
//   puts such a hook on the process's root test, so it would also run around other files' tests;
// - files that assert something of the whole process (that a library is not loaded yet, say), marked
//   with a line `// test-batches: alone` and the reason;
// - the end-to-end and robustness files (child processes, long runs: nothing to gain);
// - files that `alone` names (long ones, started first).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const rootHook = /^(before|after|beforeEach|afterEach)\(/m;
const marked = /^\/\/ test-batches: alone\b/m;
const aloneFolders = ['test/e2e/', 'test/robustness/'];

/** Files per batch: big enough to share the loading, small enough to spread over the runner's slots. */
const batchSize = 16;

const namespace = 'capstan-test-batch';

/**
 * The files that run alone, and the batches of the others, each a list of files (in the given order,
 * so that a batch holds neighbours, which import the same modules).
 */
export function batchTestFiles(root, files, alone) {
  const single = [];
  const shared = [];
  for (const f of files) {
    const text = readFileSync(join(root, f), 'utf8');
    const own =
      alone(f) || aloneFolders.some((dir) => f.startsWith(dir)) || rootHook.test(text) || marked.test(text);
    (own ? single : shared).push(f);
  }
  // One file left over runs as itself.
  if (shared.length === 1) return { single: files, batches: [] };
  const batches = [];
  for (let i = 0; i < shared.length; i += batchSize) batches.push(shared.slice(i, i + batchSize));
  return { single, batches };
}

/** The esbuild entry point of batch i: a module that imports the batch's files, in order. */
export const batchEntry = (i) => `${namespace}:${i}`;

/** The esbuild plugin that makes the batches' entry modules. */
export function batchEntries(root, batches) {
  return {
    name: namespace,
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${namespace}:`) }, (args) => ({ path: args.path, namespace }));
      build.onLoad({ filter: /.*/, namespace }, (args) => {
        const files = batches[Number(args.path.slice(namespace.length + 1))];
        const contents = files.map((f) => `import ${JSON.stringify(join(root, f))};\n`).join('');
        return { contents, loader: 'js', resolveDir: root };
      });
    },
  };
}
