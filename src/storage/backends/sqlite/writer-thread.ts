// Starts writer-worker in a thread. Built, it is dist/sqlite-writer.js beside the bundle that starts
// it (dist/index.js, a chunk in dist/chunks, or the command in dist/cmd). Compiled file by file (the
// test runner's copy of the tree), it is writer-worker.js beside this module. Run from the TypeScript
// sources (benchmarks, a test's child process), a worker does not inherit tsx from the command line on Node 20, and registering tsx
// in each thread costs ~250 ms: the worker is bundled with esbuild (a dev dependency) once per
// process instead, into node_modules/.cache/capstan/, where its imports resolve as the sources' do.
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WriterConfig } from './writer-protocol.js';

const builtName = 'sqlite-writer.js';

function builtWorker(): URL {
  for (const rel of [`./${builtName}`, `../${builtName}`]) {
    const url = new URL(rel, import.meta.url);
    if (existsSync(url)) return url;
  }
  throw new Error(`sqlite backend: the writer thread's ${builtName} is missing beside ${import.meta.url}`);
}

interface BuildSync {
  buildSync(o: object): { outputFiles: { text: string }[] };
}

let bundled: URL | undefined;

/** The worker bundled from the sources, once per process (a cache of a build, not state). */
function bundledWorker(): URL {
  if (bundled !== undefined) return bundled;
  const entry = fileURLToPath(new URL('./writer-worker.ts', import.meta.url));
  const root = fileURLToPath(new URL('../../../../', import.meta.url));
  const esbuild = createRequire(import.meta.url)('esbuild') as BuildSync;
  const out = esbuild.buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
  });
  const file = join(root, 'node_modules', '.cache', 'capstan', 'sqlite-writer.mjs');
  mkdirSync(dirname(file), { recursive: true });
  // Test files run in processes of their own, several at once: each writes aside and renames.
  const aside = `${file}.${process.pid}.tmp`;
  writeFileSync(aside, out.outputFiles[0]?.text ?? '');
  renameSync(aside, file);
  bundled = pathToFileURL(file);
  return bundled;
}

function workerModule(): URL {
  if (import.meta.url.endsWith('.ts')) return bundledWorker();
  const compiled = new URL('./writer-worker.js', import.meta.url);
  return existsSync(compiled) ? compiled : builtWorker();
}

export function startWriterThread(config: WriterConfig): Worker {
  return new Worker(workerModule(), { workerData: config, stdout: false, stderr: false });
}
