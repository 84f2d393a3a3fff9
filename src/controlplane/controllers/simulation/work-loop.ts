// client-go's workqueue driven by workers: keys are deduplicated while queued, never synced twice at
// once, and a failed sync is retried after its per-key exponential backoff.
import { errorText } from '../../../server/logging/error-text.js';
import type { Logger } from '../../../server/logging/logger.js';
import { RateLimitingQueue } from '../namespace/rate-limiting-queue.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';

export interface WorkLoopOptions {
  readonly name: string;
  readonly logger: Logger;
  readonly workers?: number;
  readonly sync: (key: string) => Promise<void>;
  /** The queue's name in the workqueue_* metrics (kube's queue name; default `name`). */
  readonly queueName?: string;
  /** Where the queue's metrics go (the server's); none without it. */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

export class WorkLoop {
  readonly queue: RateLimitingQueue;
  readonly #opts: WorkLoopOptions;
  #running: Promise<unknown> | undefined;

  constructor(opts: WorkLoopOptions) {
    this.#opts = opts;
    this.queue = new RateLimitingQueue({
      baseDelayMs: 5,
      maxDelayMs: 10_000,
      name: opts.queueName ?? opts.name,
      ...(opts.workqueueMetrics === undefined ? {} : { metrics: opts.workqueueMetrics }),
    });
  }

  run(): void {
    this.#running ??= Promise.all(
      Array.from({ length: Math.max(1, this.#opts.workers ?? 1) }, () => this.#worker()),
    );
  }

  async close(): Promise<void> {
    this.queue.close();
    await this.#running;
  }

  async #worker(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      try {
        await this.#opts.sync(key);
        this.queue.forget(key);
      } catch (err) {
        this.#opts.logger.v(2, `${this.#opts.name}: syncing ${key} failed, requeued`, {
          err: errorText(err),
        });
        this.queue.addRateLimited(key);
      } finally {
        this.queue.done(key);
      }
    }
  }
}
