// The TTL-after-finished controller (pkg/controller/ttlafterfinished): a finished Job with
// spec.ttlSecondsAfterFinished is deleted (foreground, its pods first) once that many seconds have
// passed since it finished (completionTime, or the Complete/Failed condition's transition), on the
// server's clock.
import type { Job } from '../../../api/batch/v1/job.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import type { Logger } from '../../../server/logging/logger.js';
import type { APIClient } from '../simulation/api-client.js';
import type { SimClock } from '../simulation/clock.js';
import { keyOf, splitKey, type Informer } from '../simulation/informer.js';
import { WorkLoop } from '../simulation/work-loop.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';

export interface TTLAfterFinishedOptions {
  readonly client: APIClient;
  readonly jobs: Informer<Job>;
  readonly clock: SimClock;
  readonly logger: Logger;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

/** When the Job finished, in ms; undefined while it runs. */
export function finishTime(job: Job): number | undefined {
  const c = (job.status?.conditions ?? []).find(
    (x) => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True',
  );
  if (c === undefined) return undefined;
  const at = Date.parse(job.status?.completionTime ?? c.lastTransitionTime ?? '');
  return Number.isNaN(at) ? undefined : at;
}

export class TTLAfterFinishedController {
  readonly #opts: TTLAfterFinishedOptions;
  readonly #loop: WorkLoop;
  readonly #timers = new Map<string, () => void>();

  constructor(opts: TTLAfterFinishedOptions) {
    this.#opts = opts;
    this.#loop = new WorkLoop({
      queueName: 'ttl_jobs_to_delete',
      workqueueMetrics: opts.workqueueMetrics,
      name: 'ttlafterfinished',
      logger: opts.logger,
      sync: (k) => this.#sync(k),
    });
    opts.jobs.addHandler((type, job) => {
      if (type === 'DELETED') this.#cancel(keyOf(job));
      else if (job.spec?.ttlSecondsAfterFinished !== undefined) this.#loop.queue.add(keyOf(job));
    });
  }

  run(): void {
    this.#loop.run();
    for (const job of this.#opts.jobs.list())
      if (job.spec?.ttlSecondsAfterFinished !== undefined) this.#loop.queue.add(keyOf(job));
  }

  async close(): Promise<void> {
    for (const key of [...this.#timers.keys()]) this.#cancel(key);
    await this.#loop.close();
  }

  #cancel(key: string): void {
    this.#timers.get(key)?.();
    this.#timers.delete(key);
  }

  async #sync(key: string): Promise<void> {
    const job = this.#opts.jobs.get(key);
    const ttl = job?.spec?.ttlSecondsAfterFinished;
    if (job === undefined || ttl === undefined || job.metadata?.deletionTimestamp !== undefined) return;
    const finished = finishTime(job);
    if (finished === undefined) return;
    const expireAt = finished + ttl * 1000;
    const now = this.#opts.clock.now();
    if (expireAt > now) {
      this.#cancel(key);
      this.#timers.set(
        key,
        this.#opts.clock.after(expireAt - now, () => {
          this.#timers.delete(key);
          this.#loop.queue.add(key);
        }),
      );
      return;
    }
    const { namespace, name } = splitKey(key);
    const uid = job.metadata?.uid;
    try {
      await this.#opts.client
        .as('ttl-after-finished-controller')
        .delete(
          'batch/v1/jobs',
          { namespace, name },
          { propagationPolicy: 'Foreground', ...(uid === undefined ? {} : { preconditions: { uid } }) },
        );
    } catch (err) {
      const reason = reasonForError(err);
      if (reason !== 'NotFound' && reason !== 'Conflict') throw err;
    }
  }
}
