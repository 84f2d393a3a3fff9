// client-go's work queue metrics (k8s.io/client-go/util/workqueue/metrics.go) counted in plain numbers
// per queue name, read at a scrape by prom-workqueue-metrics.ts. A queue asks the provider once, when
// it is made, for its recorder: every add, get and done after that touches only the recorder's fields.
// Unfinished work and the longest running processor, which client-go computes every 500 ms, are
// computed when read, which gives the values a scrape would see without a timer.

/** What a named queue reports (client-go's queueMetrics and retryMetrics together). */
export interface QueueMetrics {
  /** A key became dirty: it was not waiting already (Add past its duplicate check). */
  add(key: string): void;
  /** A worker took the key. */
  get(key: string): void;
  /** A worker finished the key. */
  done(key: string): void;
  /** AddAfter, which AddRateLimited calls too. */
  retry(): void;
  /** The queue shut down: its dropped keys leave the depth, its workers stop counting as unfinished. */
  close(): void;
}

/** Makes each queue's recorder (client-go's MetricsProvider, one call instead of seven). */
export interface WorkqueueMetricsProvider {
  queueMetrics(name: string): QueueMetrics;
}

const ignore = (): void => undefined;

/** The recorder of a queue nobody reads: an unnamed queue's, a test's. */
export const noQueueMetrics: QueueMetrics = Object.freeze({
  add: ignore,
  get: ignore,
  done: ignore,
  retry: ignore,
  close: ignore,
});

export const noWorkqueueMetrics: WorkqueueMetricsProvider = Object.freeze({
  queueMetrics: () => noQueueMetrics,
});

/** kube's bounds for both duration histograms: ExponentialBuckets(10e-9, 10, 10), multiplied as Go does. */
export const workqueueDurationBounds: readonly number[] = (() => {
  const bounds: number[] = [];
  for (let b = 10e-9; bounds.length < 10; b *= 10) bounds.push(b);
  return bounds;
})();

/** Observations per bucket (not cumulative; the last past every bound), their sum and count. */
export class DurationHistogram {
  readonly buckets = new Array<number>(workqueueDurationBounds.length + 1).fill(0);
  sum = 0;
  count = 0;

  observe(seconds: number): void {
    const bounds = workqueueDurationBounds;
    let i = 0;
    while (i < bounds.length && seconds > (bounds[i] ?? 0)) i++;
    this.buckets[i] = (this.buckets[i] ?? 0) + 1;
    this.sum += seconds;
    this.count++;
  }
}

/** One queue name's series: every queue of that name (a controller restarted) adds to them. */
export interface WorkqueueSeries {
  readonly name: string;
  depth: number;
  adds: number;
  retries: number;
  readonly queueDuration: DurationHistogram;
  readonly workDuration: DurationHistogram;
}

interface Unfinished {
  /** Seconds every key in progress has been worked on, summed. */
  total: number;
  /** Seconds of the key worked on longest. */
  longest: number;
}

class QueueRecorder implements QueueMetrics {
  readonly #series: WorkqueueSeries;
  readonly #now: () => number;
  readonly #onClose: (r: QueueRecorder) => void;
  /** When each dirty key not yet taken was first added (ms). */
  readonly #addTimes = new Map<string, number>();
  /** When each key in progress was taken (ms). */
  readonly #startTimes = new Map<string, number>();

  constructor(series: WorkqueueSeries, at: { now: () => number; onClose: (r: QueueRecorder) => void }) {
    this.#series = series;
    this.#now = at.now;
    this.#onClose = at.onClose;
  }

  add(key: string): void {
    this.#series.adds++;
    this.#series.depth++;
    if (!this.#addTimes.has(key)) this.#addTimes.set(key, this.#now());
  }

  get(key: string): void {
    this.#series.depth--;
    const now = this.#now();
    this.#startTimes.set(key, now);
    const added = this.#addTimes.get(key);
    if (added === undefined) return;
    this.#series.queueDuration.observe((now - added) / 1000);
    this.#addTimes.delete(key);
  }

  done(key: string): void {
    const started = this.#startTimes.get(key);
    if (started === undefined) return;
    this.#series.workDuration.observe((this.#now() - started) / 1000);
    this.#startTimes.delete(key);
  }

  retry(): void {
    this.#series.retries++;
  }

  close(): void {
    this.#series.depth -= this.#addTimes.size;
    this.#addTimes.clear();
    this.#onClose(this);
  }

  addUnfinished(into: Unfinished, now: number): void {
    for (const started of this.#startTimes.values()) {
      const age = (now - started) / 1000;
      into.total += age;
      if (age > into.longest) into.longest = age;
    }
  }
}

export interface WorkqueueMetricsOptions {
  /** Milliseconds on a clock that only moves forward (default: performance.now). */
  readonly now?: () => number;
}

/** A workqueue series as a scrape reads it. */
export interface WorkqueueReading {
  readonly series: WorkqueueSeries;
  readonly unfinishedSeconds: number;
  readonly longestRunningSeconds: number;
}

/** The server's work queue metrics: the provider its controllers' queues are made with. */
export class WorkqueueMetrics implements WorkqueueMetricsProvider {
  readonly #now: () => number;
  readonly #series = new Map<string, WorkqueueSeries>();
  readonly #queues = new Map<string, Set<QueueRecorder>>();

  constructor(opts: WorkqueueMetricsOptions = {}) {
    this.#now = opts.now ?? (() => performance.now());
  }

  queueMetrics(name: string): QueueMetrics {
    // client-go gives an unnamed queue no metrics.
    if (name === '') return noQueueMetrics;
    let series = this.#series.get(name);
    if (series === undefined) {
      series = {
        name,
        depth: 0,
        adds: 0,
        retries: 0,
        queueDuration: new DurationHistogram(),
        workDuration: new DurationHistogram(),
      };
      this.#series.set(name, series);
    }
    let queues = this.#queues.get(name);
    if (queues === undefined) {
      queues = new Set();
      this.#queues.set(name, queues);
    }
    const live = queues;
    const recorder = new QueueRecorder(series, {
      now: this.#now,
      onClose: (r) => live.delete(r),
    });
    live.add(recorder);
    return recorder;
  }

  /** Every name's series, with the work in progress of its open queues as of now. */
  read(): WorkqueueReading[] {
    const now = this.#now();
    const readings: WorkqueueReading[] = [];
    for (const series of this.#series.values()) {
      const unfinished: Unfinished = { total: 0, longest: 0 };
      for (const q of this.#queues.get(series.name) ?? []) q.addUnfinished(unfinished, now);
      readings.push({
        series,
        unfinishedSeconds: unfinished.total,
        longestRunningSeconds: unfinished.longest,
      });
    }
    return readings;
  }
}
