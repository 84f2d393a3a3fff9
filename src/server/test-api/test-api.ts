// The test API's one model: what a test may do to a server (snapshots, the request log, faults,
// the clock). startCapstan's object, the HTTP surface under /capstan/v1/ and the `capstan`
// subcommands all go through it.
import type { Clock } from '../../machinery/time/clock.js';
import type { Backend } from '../../storage/kv/backend.js';
import { Faults } from './faults.js';
import { RequestLog, type RequestFilter, type RequestLogOptions, type RequestRecord } from './request-log.js';
import { serverClock, type ServerClock } from './server-clock.js';
import { Snapshots } from './snapshots.js';

export interface TestAPIInit {
  readonly clock: Clock;
  readonly backends: () => Promise<readonly Backend[]>;
  /** The request log's capacity and bodies; false: no log. */
  readonly requestLog?: RequestLogOptions | false;
}

export class TestAPI {
  readonly clock: ServerClock;
  readonly faults = new Faults();
  readonly snapshots: Snapshots;
  /** Absent when the log is turned off. */
  readonly requestLog: RequestLog | undefined;

  constructor(init: TestAPIInit) {
    this.clock = serverClock(init.clock);
    this.snapshots = new Snapshots(init.backends, () => init.clock.now());
    this.requestLog = init.requestLog === false ? undefined : new RequestLog(init.requestLog ?? {});
  }

  snapshot(): Promise<string> {
    return this.snapshots.snapshot();
  }

  restore(name: string): Promise<void> {
    return this.snapshots.restore(name);
  }

  requests(filter?: RequestFilter): RequestRecord[] {
    return this.requestLog?.calls(filter) ?? [];
  }

  clearRequests(): void {
    this.requestLog?.clear();
  }
}
