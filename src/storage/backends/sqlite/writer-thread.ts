// Starts writer-worker in a thread. Built, it is dist/sqlite-writer.js beside the bundle that starts
// it (dist/index.js, a chunk in dist/chunks, or the command in dist/cmd); run from the sources, the
// thread registers tsx first, which a worker does not inherit from the command line on Node 20.
import { existsSync } from 'node:fs';
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

export function startWriterThread(config: WriterConfig): Worker {
  const opts = { workerData: config, stdout: false, stderr: false };
  if (!import.meta.url.endsWith('.ts')) return new Worker(builtWorker(), opts);
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./writer-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { ...opts, eval: true });
}
