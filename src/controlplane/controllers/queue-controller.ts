// The run and stop of a built-in controller (the Run of kube's controllers): list-and-watch loops
// feeding a rate-limited work queue, and workers taking keys off it to sync them until closed.
import { builtinScheme } from '../../api/builtin-scheme.js';
import type { Namespace } from '../../api/core/v1/namespace.js';
import type { KubeObject } from '../../api/meta.js';
import { StatusError } from '../../machinery/errors/index.js';
import type { Clock } from '../../machinery/time/clock.js';
import type { Getter, Lister, Watcher } from '../../registry/rest/capabilities.js';
import { internalContext } from '../../registry/rest/context.js';
import { errorText } from '../../server/logging/error-text.js';
import { builtinJSONCodec } from '../../storage/codec.js';
import type { Logger } from '../../server/logging/logger.js';
import { runListWatch } from './list-watch.js';
import { RateLimitingQueue } from './namespace/rate-limiting-queue.js';
import type { WorkqueueMetricsProvider } from '../../server/metrics/workqueue-metrics.js';
import { stopReason } from '../../machinery/errors/stop-reason.js';

/** A resource the controller lists and watches; its events put keys on the queue. */
export interface WatchedSource {
  readonly source: Lister & Watcher;
  /** Named in the log of a failed list and watch (`… list and watch of <what> failed`). */
  readonly what?: string;
  /**
   * Watch events and listed items whose JSON does not contain this text cannot concern the
   * controller: they are skipped without decoding their object (a pod without a claim, to
   * pvc-protection).
   */
  readonly mentions?: string;
  /** Watch events (and listed items, as ADDED) whose JSON this refuses: skipped undecoded. */
  readonly concerns?: (type: 'ADDED' | 'MODIFIED' | 'DELETED', json: Buffer) => boolean;
  readonly onEvent: (
    type: 'ADDED' | 'MODIFIED' | 'DELETED',
    obj: KubeObject,
    queue: RateLimitingQueue,
  ) => void;
}

/** Every namespace there is, keyed by its name (for controllers that keep something in each). */
export function everyNamespace(source: Lister & Watcher): WatchedSource {
  return {
    source,
    what: 'namespaces',
    onEvent: (type, obj, queue) => {
      if (type !== 'DELETED') queue.add(obj.metadata?.name ?? '');
    },
  };
}

/** The namespace a namespace-keyed sync is about; undefined when it is gone (404). */
export async function getNamespace(
  namespaces: Getter,
  name: string,
  signal: AbortSignal,
): Promise<Namespace | undefined> {
  try {
    return (await namespaces.get(internalContext({ signal }), name, {})) as Namespace;
  } catch (err) {
    if (err instanceof StatusError && err.status.code === 404) return undefined;
    throw err;
  }
}

export interface QueueControllerOptions {
  /** The controller's name in the start and shutdown logs. */
  readonly name: string;
  /** What the logs of a failed list and watch start with. */
  readonly logPrefix: string;
  readonly logger: Logger;
  /** How many keys are synced at once (default 1). */
  readonly workers?: number;
  readonly sources: readonly WatchedSource[];
  readonly resyncPeriodMs?: number | undefined;
  readonly sync: (key: string) => Promise<void>;
  /** A sync failed while the controller runs; requeues the key (and logs). */
  readonly onSyncError: (key: string, err: unknown) => void;
  /** The server's clock, for the queue's delayed adds (default: the system's). */
  readonly clock?: Clock;
  /** The queue's name in the workqueue_* metrics: the name kube's controller gives its queue. */
  readonly queueName?: string;
  /** Where the queue's metrics go (the server's); none without it. */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

export class QueueController {
  readonly queue: RateLimitingQueue;
  readonly #opts: QueueControllerOptions;
  readonly #abort = new AbortController();
  #running: Promise<unknown> | undefined;
  #closed: Promise<void> | undefined;

  constructor(opts: QueueControllerOptions) {
    this.#opts = opts;
    this.queue = new RateLimitingQueue({
      baseDelayMs: 5,
      maxDelayMs: 60_000,
      ...(opts.clock === undefined ? {} : { clock: opts.clock }),
      ...(opts.queueName === undefined ? {} : { name: opts.queueName }),
      ...(opts.workqueueMetrics === undefined ? {} : { metrics: opts.workqueueMetrics }),
    });
  }

  /** Aborts when the controller closes. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** Starts the watches and the workers; returns at once. */
  run(): void {
    if (this.#running !== undefined || this.#abort.signal.aborted) return;
    this.#opts.logger.info('Starting controller', { controller: this.#opts.name });
    const watches = this.#opts.sources.map((w) => this.#listWatch(w));
    const workers = Array.from({ length: Math.max(1, this.#opts.workers ?? 1) }, () => this.#worker());
    this.#running = Promise.all([...watches, ...workers]);
  }

  /** Stops watching and waits for the syncs in progress to end. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#abort.abort(stopReason);
      this.queue.close();
      if (this.#running === undefined) return;
      await this.#running;
      this.#opts.logger.info('Shutting down controller', { controller: this.#opts.name });
    })();
    return this.#closed;
  }

  #listWatch(w: WatchedSource): Promise<void> {
    const { logger, logPrefix } = this.#opts;
    const what = w.what === undefined ? '' : ` of ${w.what}`;
    const mentions = w.mentions === undefined ? undefined : Buffer.from(w.mentions);
    const concerns = w.concerns;
    // Listed items are ADDED events: those that cannot concern the controller are skipped
    // undecoded too (a fork's list of many ConfigMaps, of which the publisher wants one name).
    const filtered = mentions !== undefined || concerns !== undefined;
    return runListWatch({
      source: w.source,
      signal: this.#abort.signal,
      ...(mentions === undefined ? {} : { mentions }),
      ...(concerns === undefined ? {} : { concerns }),
      ...(filtered
        ? {
            onEncodedList: (items: readonly Buffer[]) => {
              for (const json of items) {
                if (mentions !== undefined && !json.includes(mentions)) continue;
                if (concerns !== undefined && !concerns('ADDED', json)) continue;
                // Decoded as storage decodes it: without the zero times Go writes (a null creationTimestamp).
                w.onEvent('ADDED', builtinJSONCodec(builtinScheme()).decode(json), this.queue);
              }
            },
          }
        : {}),
      onEvent: (type, obj) => {
        w.onEvent(type, obj, this.queue);
      },
      onError: (err) => {
        logger.v(2, `${logPrefix}: list and watch${what} failed, retrying`, { err: errorText(err) });
      },
      resyncPeriodMs: this.#opts.resyncPeriodMs,
    });
  }

  async #worker(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      try {
        await this.#opts.sync(key);
        this.queue.forget(key);
      } catch (err) {
        if (!this.#abort.signal.aborted) this.#opts.onSyncError(key, err);
      } finally {
        this.queue.done(key);
      }
    }
  }
}
