#!/usr/bin/env node
// Runs every *.test.ts under src/, test/ and examples/ with node's test runner, three files at a time.
//
// The TypeScript is compiled once, up front, into a temporary copy of the checkout: one esbuild
// build bundles every test file, with the modules they share split into chunks (npm packages stay
// imports), and everything else is a symbolic link to the checkout's file (the .ts sources too, for
// the tests that start a child with tsx or read a source file). Each test file then runs in plain
// node and loads a few files: loading the server's ~1,600 modules one by one cost ~1.5 s of CPU per
// test file (resolving, reading and compiling each, and an inline source map in every one), ~0.4 s
// as chunks. Every module keeps the import.meta.url it had as a file of its own in the copy (the
// path it was compiled from, .js for .ts), so paths that code derives from it land in the copy, whose
// links lead back to the checkout (node_modules, test-output, dist...). Besides the tests, the
// bundle's entry points are what the tests start as a file of the copy: the SQLite writer thread
// (beside the module that starts it) and the command (a child server, src/cmd/capstan.js).
import { build } from 'esbuild';
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { batchEntries, batchEntry, batchTestFiles } from './test-batches.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// The folders whose TypeScript is compiled; the console's front end has its own toolchain.
const compiled = ['src', 'test', 'examples', 'bench'];
const consoleDir = join('src', 'console');
const keptAsIs = new Set(['node_modules', consoleDir]);
// The console's unit tests are bundled one file each (with the console modules they import, npm
// packages left as imports) into this folder of the copy: the copy's src/console is a link to the
// sources, which the server bundles for the browser as they are.
const consoleTestsDir = '.console-tests';
const isConsoleFile = (f) => f.startsWith(consoleDir + sep);

/** Every file under dir (relative to root), skipping what is kept as a link. */
function filesUnder(dir, out, links) {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const rel = join(dir, e.name);
    if (keptAsIs.has(rel) || e.name === 'node_modules') links.push(rel);
    else if (e.isDirectory()) filesUnder(rel, out, links);
    else out.push(rel);
  }
}

// Started as files of the copy rather than imported: each must be an entry point of the build.
const startedAsFiles = ['src/storage/backends/sqlite/writer-worker.ts', 'src/cmd/capstan.ts'];

/** Where a compiled module would be as a file of its own in the copy. */
const compiledPath = (tree, rel) => join(tree, rel.replace(/\.ts$/, '.js'));

/**
 * An esbuild plugin that gives each source module that reads import.meta.url (or .dirname,
 * .filename) the value it would have as a file of its own in the copy, not its chunk's.
 */
function ownImportMeta(tree, sources) {
  const readers = new Map();
  for (const rel of sources) {
    const text = readFileSync(join(root, rel), 'utf8');
    if (text.includes('import.meta.')) readers.set(join(root, rel), { rel, text });
  }
  return {
    name: 'own-import-meta',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        const reader = readers.get(args.path);
        if (reader === undefined) return undefined;
        const file = compiledPath(tree, reader.rel);
        const contents = reader.text
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(file).href))
          .replaceAll('import.meta.dirname', JSON.stringify(dirname(file)))
          .replaceAll('import.meta.filename', JSON.stringify(file));
        return { contents, loader: 'ts' };
      });
    },
  };
}

/** The temporary copy: the bundled tests and their chunks beside links to everything in the checkout. */
async function compiledCopy(entries, batches) {
  const tree = mkdtempSync(join(tmpdir(), 'capstan-tests-'));
  // Folders that tests fill in the checkout must exist now to be linked: a fresh clone has no dist/
  // until bin/capstan bundles, and no test-output/ until the console's screenshots.
  for (const dir of ['dist', 'test-output']) mkdirSync(join(root, dir), { recursive: true });
  const files = [];
  const links = [];
  for (const e of readdirSync(root)) if (!compiled.includes(e)) links.push(e);
  for (const dir of compiled) filesUnder(dir, files, links);
  const sources = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  for (const f of [...files, ...links]) {
    mkdirSync(dirname(join(tree, f)), { recursive: true });
    symlinkSync(join(root, f), join(tree, f));
  }
  await build({
    absWorkingDir: root,
    entryPoints: [...entries, ...startedAsFiles],
    outdir: tree,
    outbase: '.',
    bundle: true,
    splitting: true,
    packages: 'external',
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // In files of their own: inline, each chunk's map made it ~twice as slow to load. Without the
    // sources' text, which stack traces do not need (they name the .ts files of the checkout): the
    // library's map is 2.8 MB instead of 8.7, and a process with --enable-source-maps loads the
    // library in ~0.08 s less CPU (~0.54 against 0.62 s; 0.46 without maps), in every test file's
    // process (the runner's flag; the servers tests start as children run without maps).
    sourcemap: true,
    sourcesContent: false,
    plugins: [ownImportMeta(tree, sources), batchEntries(root, batches)],
    logLevel: 'warning',
  });
  return tree;
}

/** The console's *.test.ts files under `dir` (relative to root: a folder holding the console's or inside it). */
function consoleTestsUnder(dir) {
  const holds = dir === '' || (consoleDir + sep).startsWith(dir + sep);
  const start = holds ? consoleDir : isConsoleFile(dir + sep) ? dir : undefined;
  const found = [];
  const walk = (d) => {
    for (const e of readdirSync(join(root, d), { withFileTypes: true })) {
      const rel = join(d, e.name);
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith('.test.ts')) found.push(rel);
    }
  };
  if (start !== undefined) walk(start);
  return found;
}

/** Bundles the console's tests into the copy; each runs from there as plain JavaScript. */
async function bundleConsoleTests(tree, entryPoints) {
  if (entryPoints.length === 0) return;
  await build({
    absWorkingDir: root,
    entryPoints,
    outdir: join(tree, consoleTestsDir),
    outbase: consoleDir,
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
}

/** Where a test file runs in the copy. */
const runPath = (f) =>
  (isConsoleFile(f) ? join(consoleTestsDir, relative(consoleDir, f)) : f).replace(/\.ts$/, '.js');

const args = process.argv.slice(2);
const roots = args.length > 0 ? args : ['src', 'test', 'examples'];
const tests = [];
for (const r of roots) {
  if (r.endsWith('.test.ts')) tests.push(relative(root, resolve(r)));
  else {
    const dir = relative(root, resolve(r));
    const all = [];
    filesUnder(dir, all, []);
    tests.push(...all.filter((f) => f.endsWith('.test.ts')), ...consoleTestsUnder(dir));
  }
}
tests.sort();
// The longest files start first, so that none of them is left running alone at the end (with three
// files at a time, a minute-long file started last adds its minute to the run).
const slowFirst = [
  'test/e2e/package-install.test.ts',
  'test/robustness/etcd-replicas.test.ts',
  'test/e2e/replicas.test.ts',
  'src/storage/kv-store/kv-store.conformance.test.ts',
  'test/integration/bad-input-',
  'test/e2e/kubectl-core.test.ts',
  'test/robustness/',
  'test/e2e/kubectl-encryption-rotation.test.ts',
];
const rank = (f) => {
  const i = slowFirst.findIndex((prefix) => f.startsWith(prefix));
  return i < 0 ? slowFirst.length : i;
};
tests.sort((a, b) => rank(a) - rank(b));
// Files of paced load: long in wall time (~105 s) but light in CPU (~0.1 core). They run in a test
// runner of their own beside the three-at-a-time one, so that they hold none of its slots; their
// output is kept in a file and printed after the others'.
const paced = new Set(['test/robustness/soak.test.ts']);
const pacedTests = tests.filter((f) => paced.has(f));
const pooledTests = tests.filter((f) => !paced.has(f));
if (tests.length === 0) {
  console.error('no test files found under', roots.join(', '));
  process.exit(1);
}

// Files that can share a process run in batches (scripts/test-batches.mjs), after the longest files
// and before the other files that run alone: a batch of files that wait (for etcd, say) can take a
// minute, and the end-to-end files that come last take seconds each.
const first = (f) => rank(f) < slowFirst.length;
const { single, batches } = batchTestFiles(
  root,
  pooledTests.filter((f) => !isConsoleFile(f)),
  first,
);
const runs = [
  ...single.filter(first).map((f) => ({ in: f, files: [f] })),
  ...batches.map((files, i) => ({ in: batchEntry(i), files })),
  ...single.filter((f) => !first(f)).map((f) => ({ in: f, files: [f] })),
];
// node's test runner starts the files it is given in the order of their names, not in the given
// order: each run's file is named for its place.
for (const [i, r] of runs.entries()) {
  const what = r.files.length === 1 ? r.files[0].replace(/\.test\.ts$/, '').replaceAll(sep, '-') : 'batch';
  r.out = join('.test-runs', `${String(i + 1).padStart(3, '0')}-${what}.test`);
}
const pooledRuns = [...pooledTests.filter(isConsoleFile).map(runPath), ...runs.map((r) => `${r.out}.js`)];
const tree = await compiledCopy([...pacedTests, ...runs.map((r) => ({ in: r.in, out: r.out }))], batches);
await bundleConsoleTests(tree, tests.filter(isConsoleFile));
// Ctrl-C reaches the test runner too; waiting for it to end lets the copy be removed below.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => undefined);
const runnerArgs = (runPaths, concurrency) => [
  '--enable-source-maps',
  '--test',
  '--test-reporter=spec',
  `--test-concurrency=${concurrency}`,
  ...runPaths,
];
// Every server the tests start, in process or as a child, freezes what its watch caches hand to
// updates (ServerRunOptions.checkSharing): code that changes such an object in place throws.
const testEnv = { ...process.env, CAPSTAN_CHECK_SHARING: '1' };
let status = 1;
try {
  let pacedRun = Promise.resolve({ code: 0, output: '' });
  if (pacedTests.length > 0) {
    const outPath = join(tree, '.paced-tests.log');
    const out = openSync(outPath, 'w');
    const child = spawn(process.execPath, runnerArgs(pacedTests.map(runPath), 1), {
      stdio: ['ignore', out, out],
      cwd: tree,
      env: testEnv,
    });
    closeSync(out);
    pacedRun = new Promise((done) => {
      child.on('error', (err) =>
        done({ code: 1, output: `could not start the paced tests: ${err.message}\n` }),
      );
      child.on('close', (code) => done({ code: code ?? 1, output: readFileSync(outPath, 'utf8') }));
    });
  }
  const pooled =
    pooledRuns.length > 0
      ? spawnSync(process.execPath, runnerArgs(pooledRuns, 3), { stdio: 'inherit', cwd: tree, env: testEnv })
      : { status: 0 };
  const pacedResult = await pacedRun;
  if (pacedTests.length > 0) {
    process.stdout.write(
      `\n# paced files, run beside the others: ${pacedTests.join(', ')}\n${pacedResult.output}`,
    );
  }
  status = (pooled.status ?? 1) !== 0 ? (pooled.status ?? 1) : pacedResult.code;
  // A failure inside a batch names its test; which file that is, the batch's list says.
  if (status !== 0 && batches.length > 0) {
    process.stdout.write('\n# the batches, each run as one file:\n');
    for (const r of runs)
      if (r.files.length > 1) process.stdout.write(`# ${r.out}.js: ${r.files.join(' ')}\n`);
  }
} finally {
  rmSync(tree, { recursive: true, force: true });
}
process.exit(status);
