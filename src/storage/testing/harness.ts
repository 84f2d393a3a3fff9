// What a store under test provides, the knobs for stores that legitimately differ, and the
// per-test environment: a fresh harness, a key prefix no other test uses, and cleanup.
import { it } from 'node:test';
import type { Interface, ListOptions } from '../interfaces.js';
import type { TestObject } from './test-object.js';
import { EventReader } from './watch-reader.js';

export interface StoreHarness {
  store: Interface<TestObject>;
  /** Compacts the store's history at `revision` (reads and watches below it then fail with 410). */
  compact(revision: number): Promise<void>;
  close(): Promise<void>;
}

export interface ConformanceOptions {
  /** The store honours ttl on create and update (default true). */
  ttl?: boolean;
  /** compact() really drops history, so old reads, continue tokens and watches get 410 (default true). */
  compaction?: boolean;
  /** Watches with progressNotify send BOOKMARK events (default true). */
  progressNotify?: boolean;
  /** Watches honour sendInitialEvents (default true). */
  sendInitialEvents?: boolean;
  /**
   * Reads at a resourceVersion may be served from a state at or after it that is not the newest
   * (the watch cache); the etcd3 store always serves the newest (default false).
   */
  laggingReads?: boolean;
  /**
   * The store sees every key the backend holds, even one its objects' key function would never
   * produce (a raw store); a cache knows keys only through its key function (default true).
   */
  rawKeys?: boolean;
  /**
   * A watch from a compacted revision fails with 410 even when a window of recent events could
   * still serve it; the watch cache answers from its own window instead (default true).
   */
  compactedWatchExpires?: boolean;
  /**
   * The store starts from the state a caller gives as cachedExisting, as the etcd3 store does; the
   * watch cache gives its own instead (default true).
   */
  takesCachedExisting?: boolean;
  /** How long to wait for a ttl to expire an object (default 5000 ms). */
  ttlTimeoutMs?: number;
  /** How long to wait for a progress BOOKMARK (default 5000 ms). */
  bookmarkTimeoutMs?: number;
  /** How long to wait for an ordinary watch event (default 3000 ms). */
  eventTimeoutMs?: number;
  /** Per-test timeout (default 20000 ms). */
  testTimeoutMs?: number;
}

export type ResolvedOptions = Readonly<Required<ConformanceOptions>>;

export function resolveOptions(opts: ConformanceOptions = {}): ResolvedOptions {
  return Object.freeze({
    ttl: opts.ttl ?? true,
    compaction: opts.compaction ?? true,
    rawKeys: opts.rawKeys ?? true,
    compactedWatchExpires: opts.compactedWatchExpires ?? true,
    takesCachedExisting: opts.takesCachedExisting ?? true,
    progressNotify: opts.progressNotify ?? true,
    sendInitialEvents: opts.sendInitialEvents ?? true,
    laggingReads: opts.laggingReads ?? false,
    ttlTimeoutMs: opts.ttlTimeoutMs ?? 5000,
    bookmarkTimeoutMs: opts.bookmarkTimeoutMs ?? 5000,
    eventTimeoutMs: opts.eventTimeoutMs ?? 3000,
    testTimeoutMs: opts.testTimeoutMs ?? 20000,
  });
}

export interface SuiteContext {
  readonly newHarness: () => Promise<StoreHarness>;
  readonly opts: ResolvedOptions;
}

export interface TestEnv {
  readonly harness: StoreHarness;
  readonly store: Interface<TestObject>;
  readonly opts: ResolvedOptions;
  /** A namespace no other test (in this process) uses. */
  readonly ns: string;
  /** `/pods/<ns>`: the recursive key of everything this test writes. */
  readonly prefix: string;
  /** `/pods/<ns>/<name>`. */
  key(name: string): string;
  /** Opens a watch that is stopped when the test ends. */
  watch(key: string, opts?: ListOptions<TestObject>): Promise<EventReader>;
}

const runId = Math.random().toString(36).slice(2, 7);
let sequence = 0;

/** A namespace-like name unique to this process run; also unique across runs sharing a backend. */
export function uniqueName(stem: string): string {
  sequence += 1;
  return `${stem}-${runId}-${sequence}`;
}

/** Which feature a test needs; a store that does not claim it does not register the test. */
export type Feature =
  | 'ttl'
  | 'compaction'
  | 'progressNotify'
  | 'sendInitialEvents'
  | 'compactedWatchExpires'
  | 'takesCachedExisting';

/** Registers one conformance case: a new harness, a unique prefix, and cleanup whatever happens. */
export function storeTest(
  ctx: SuiteContext,
  name: string,
  body: (env: TestEnv) => Promise<void> | void,
  needs: readonly Feature[] = [],
): void {
  // A case about a feature the store does not have is not registered at all: it does not apply, and
  // CI must show no skipped tests. The store's own tests cover how it differs.
  if (needs.some((feature) => !ctx.opts[feature])) return;
  it(name, { timeout: ctx.opts.testTimeoutMs }, async () => {
    const harness = await ctx.newHarness();
    const readers: EventReader[] = [];
    const ns = uniqueName('ns');
    const prefix = `/pods/${ns}`;
    const env: TestEnv = {
      harness,
      store: harness.store,
      opts: ctx.opts,
      ns,
      prefix,
      key: (n) => `${prefix}/${n}`,
      watch: async (key, opts) => {
        const reader = new EventReader(await harness.store.watch(key, opts), ctx.opts.eventTimeoutMs);
        readers.push(reader);
        return reader;
      },
    };
    try {
      await body(env);
    } finally {
      for (const reader of readers) reader.stop();
      await harness.close();
    }
  });
}
