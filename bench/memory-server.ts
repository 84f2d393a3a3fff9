// The server of bench/memory: Capstan on SQLite in a process of its own, so that its RSS is the
// server's alone. Started with --expose-gc: a `sample` message can ask for full collections first,
// and is answered with this process's memory figures and CPU time.
import { readFileSync } from 'node:fs';
import { startCapstan } from '../src/index.js';

export interface MemorySample {
  readonly rssMB: number;
  /** The peak RSS so far (VmHWM). */
  readonly peakRssMB: number;
  readonly heapUsedMB: number;
  /** What V8 holds for the heap, used or not. */
  readonly heapTotalMB: number;
  readonly externalMB: number;
  readonly cpuUs: number;
}

export type ToMemoryServer = { type: 'sample'; gc: boolean };
export type FromMemoryServer =
  { type: 'listening'; url: string; token: string } | { type: 'sample'; sample: MemorySample };

const mb = (bytes: number): number => bytes / 2 ** 20;

function peakRssMB(): number {
  const kb = /VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  return kb === undefined ? Number.NaN : Number(kb) / 1024;
}

async function sample(collect: boolean): Promise<MemorySample> {
  if (collect) {
    if (gc === undefined) throw new Error('bench/memory-server needs --expose-gc');
    // Twice, with a turn between: weak references and finalizers let go on the second pass.
    gc();
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  const m = process.memoryUsage();
  const cpu = process.cpuUsage();
  return {
    rssMB: mb(m.rss),
    peakRssMB: peakRssMB(),
    heapUsedMB: mb(m.heapUsed),
    heapTotalMB: mb(m.heapTotal),
    externalMB: mb(m.external),
    cpuUs: cpu.user + cpu.system,
  };
}

const send = (msg: FromMemoryServer): void => {
  process.send?.(msg);
};

// As bin/capstan serves: the request log is a test aid of in-process servers.
const server = await startCapstan({ storage: 'sqlite', scheme: 'http', requestLog: false });
process.on('message', (msg: ToMemoryServer) => {
  void sample(msg.gc).then((s) => {
    send({ type: 'sample', sample: s });
  });
});
process.on('disconnect', () => {
  void server.stop().then(() => process.exit(0));
});
send({ type: 'listening', url: server.url, token: server.kubeConfig.users[0]?.user.token ?? '' });
