// Runs a heavy test scenario in a worker thread. node:test tracks every promise of the test's
// thread (it wants to blame late async activity on a test), which makes promise-heavy code about
// three times slower; a worker has no such hooks. The scenario module's export is called with `arg`;
// what it returns (structured-cloneable) comes back, what it throws fails the caller.
import { Worker } from 'node:worker_threads';

export function runInWorker(moduleUrl: URL, exportName: string, arg: unknown): Promise<unknown> {
  const code = [
    "const { parentPort, workerData } = require('node:worker_threads');",
    "import('tsx/esm/api')",
    '  .then((tsx) => { tsx.register(); return import(workerData.url); })',
    '  .then((mod) => mod[workerData.name](workerData.arg))',
    '  .then((result) => parentPort.postMessage({ result }));',
  ].join('\n');
  const worker = new Worker(code, { eval: true, workerData: { url: moduleUrl.href, name: exportName, arg } });
  return new Promise((resolve, reject) => {
    let result: unknown;
    worker.on('message', (msg: { result: unknown }) => {
      result = msg.result;
    });
    worker.on('error', reject);
    worker.on('exit', (code) => {
      if (code === 0) resolve(result);
      else reject(new Error(`scenario worker exited with code ${code}`));
    });
  });
}
