// The parent's side of the forked load generator (bench/api-client.ts). A run reads the server's CPU
// time just before `go` and just after the result: Capstan runs in this process, where nothing else
// runs during a timed run; the bare server runs in a process of its own and reports its own. Connections
// are opened, and objects read, before that window.
import type { FromClient, LoadJob, LoadResult, Percentiles, ToClient } from './api-client.js';
import { ChildChannel } from './child-channel.js';

export interface Measured extends LoadResult {
  /** The server process's CPU time (µs, user + system) over the timed run. */
  readonly serverCpuUs: number;
}

/** Reads the CPU time (µs, user + system) of the process a server runs in. */
export interface CpuClock {
  cpuUs(): Promise<number>;
}

export const ownCpuUs = (): Promise<number> => {
  const u = process.cpuUsage();
  return Promise.resolve(u.user + u.system);
};

export class LoadGenerator {
  readonly #channel = new ChildChannel<ToClient, FromClient>(new URL('./api-client.ts', import.meta.url), {});

  async #ask<T extends FromClient['type']>(
    msg: ToClient,
    type: T,
  ): Promise<Extract<FromClient, { type: T }>> {
    const m = await this.#channel.ask(msg);
    if (m.type === 'error') throw new Error(`the load generator failed: ${m.message}`);
    if (m.type !== type) throw new Error(`the load generator answered ${m.type}, not ${type}`);
    return m as Extract<FromClient, { type: T }>;
  }

  /** Runs one job; failures are printed (the first one's status and body) and counted. */
  async run(job: LoadJob, server: CpuClock): Promise<Measured> {
    await this.#ask({ type: 'prepare', job }, 'ready');
    const cpu = await server.cpuUs();
    const { result } = await this.#ask({ type: 'go' }, 'result');
    const serverCpuUs = (await server.cpuUs()) - cpu;
    if (result.failures > 0) {
      console.error(
        `  FAILED ${job.operation} ${job.collection} (${job.connections} connections): ${result.failures} of ` +
          `${result.failures + result.completed}; first: ${result.firstFailure ?? ''}`,
      );
    }
    return { ...result, serverCpuUs };
  }

  /** Exact p50 and p99 of every recorded cell, over all its jobs. */
  async percentiles(): Promise<Record<string, Percentiles>> {
    return (await this.#ask({ type: 'stats' }, 'stats')).stats;
  }

  close(): Promise<void> {
    return this.#channel.close();
  }
}
