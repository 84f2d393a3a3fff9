// BENCH_NEIGHBOUR=1: another process busy on the machine's cores for a whole bench/api run, as
// issue 16 measured the tail ("another process busy on the 2 cores"): a Node process spinning at
// normal priority, so the kernel shares the cores between it, the servers and the load generator.
// Both servers run beside it alike, slice by slice, so their ratios stay comparable; what it shows
// is whether Capstan's p99 stays a small multiple of its p50 when it does not have the cores to
// itself (writers served in arrival order, none starved behind a burst).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** A running neighbour; `stop` ends it and waits for it to exit. */
export interface Neighbour {
  readonly pid: number;
  stop(): Promise<void>;
}

// Spins until told to stop or until its parent goes: it yields to its event loop every 50 ms, so it
// hears the IPC channel close and a bench that dies leaves no spinning process behind.
const spinner = `
process.on('disconnect', () => process.exit(0));
const slice = () => { const end = Date.now() + 50; while (Date.now() < end); setImmediate(slice); };
slice();
`;

export async function startNeighbour(): Promise<Neighbour> {
  const child: ChildProcess = spawn(process.execPath, ['-e', spinner], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await once(child, 'spawn');
  const pid = child.pid ?? 0;
  return {
    pid,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** BENCH_NEIGHBOUR=1 asks for one. */
export const neighbourWanted = (): boolean => process.env['BENCH_NEIGHBOUR'] === '1';
