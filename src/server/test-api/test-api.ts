// The test API's one model: what a test may do to a server (snapshots, the request log, faults,
// the clock). startCapstan's object, the HTTP surface under /capstan/v1/ and the `capstan`
// subcommands all go through it.
import type { Clock } from '../../machinery/time/clock.js';
import type { CacheSeeds } from '../../storage/cacher/cache-seeds.js';
import { CompactedError, type Backend } from '../../storage/kv/backend.js';
import { Faults } from './faults.js';
import { RequestLog, type RequestFilter, type RequestLogOptions, type RequestRecord } from './request-log.js';
import { serverClock, type ServerClock } from './server-clock.js';
import { everything, Snapshots } from './snapshots.js';

export interface TestAPIInit {
  readonly clock: Clock;
  readonly backends: () => Promise<readonly Backend[]>;
  /** The server's watch caches: snapshots keep their content for forks. */
  readonly caches?: CacheSeeds;
  /** The request log's capacity and bodies; false: no log. */
  readonly requestLog?: RequestLogOptions | false;
}

export class TestAPI {
  readonly #backends: () => Promise<readonly Backend[]>;
  readonly clock: ServerClock;
  readonly faults = new Faults();
  readonly snapshots: Snapshots;
  /** Absent when the log is turned off. */
  readonly requestLog: RequestLog | undefined;

  constructor(init: TestAPIInit) {
    this.#backends = init.backends;
    this.clock = serverClock(init.clock);
    this.snapshots = new Snapshots({
      backends: init.backends,
      now: () => init.clock.now(),
      ...(init.caches === undefined ? {} : { caches: init.caches }),
    });
    this.requestLog = init.requestLog === false ? undefined : new RequestLog(init.requestLog ?? {});
  }

  snapshot(): Promise<string> {
    return this.snapshots.snapshot();
  }

  restore(name: string): Promise<void> {
    return this.snapshots.restore(name);
  }

  /**
   * A compaction as etcd's compactor makes one, at the newest revision, that also breaks every watch
   * on the store as a compacted revision does: the watch caches list again and end their watches,
   * and clients that watch again from an older resourceVersion get 410 Expired and relist.
   * Resolves with the revision compacted (the newest over the backends).
   */
  async compact(): Promise<number> {
    let newest = 0;
    for (const backend of await this.#backends()) {
      const { revision } = await backend.count(everything);
      await backend.compact(revision);
      backend.interruptWatches?.(new CompactedError(revision, revision));
      newest = Math.max(newest, revision);
    }
    return newest;
  }

  requests(filter?: RequestFilter): RequestRecord[] {
    return this.requestLog?.calls(filter) ?? [];
  }

  clearRequests(): void {
    this.requestLog?.clear();
  }
}
