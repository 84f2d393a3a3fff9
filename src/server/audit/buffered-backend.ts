// Batch mode (k8s.io/apiserver/plugin/pkg/audit/buffered): events are copied into a bounded buffer
// and handed to the backend behind in batches of at most maxBatchSize, a batch going once it is full
// or maxBatchWait after its first event; batches are rate-limited when throttling is on. A full
// buffer drops the events that do not fit ("audit buffer queue blocked"): recording never makes a
// request wait and never fails it. A webhook gets batches without waiting for the one before (its
// retries run side by side); a log gets them one after another.
import { TokenBucket } from './token-bucket.js';
import type { AuditEvent, AuditSink } from './types.js';

export interface BatchConfig {
  /** --audit-*-batch-buffer-size: events waiting at most. */
  readonly bufferSize: number;
  readonly maxBatchSize: number;
  readonly maxBatchWaitMs: number;
  /** Batches a second and the burst allowed; absent: no limit. */
  readonly throttle?: { readonly qps: number; readonly burst: number } | undefined;
  /** Hand a batch over without waiting for the one before to be stored (the webhook). */
  readonly asyncDelegate: boolean;
}

export interface BufferedBackendOptions {
  readonly delegate: AuditSink;
  readonly config: BatchConfig;
  /** Told of events dropped here (the delegate reports its own failures). */
  readonly onError: (err: Error, dropped: number) => void;
  /** Waits for the rate limit; injected so tests need not wait. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** The rate limit's clock in milliseconds (performance.now); injected so tests control it. */
  readonly now?: () => number;
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

export class BufferedAuditBackend implements AuditSink {
  readonly #opts: BufferedBackendOptions;
  readonly #bucket: TokenBucket | undefined;
  #queue: AuditEvent[] = [];
  #timer: NodeJS.Timeout | undefined;
  /** maxBatchWait has passed since the oldest waiting event came. */
  #due = false;
  #closed = false;
  #pumping: Promise<void> | undefined;
  readonly #inFlight = new Set<Promise<unknown>>();

  constructor(opts: BufferedBackendOptions) {
    this.#opts = opts;
    const t = opts.config.throttle;
    this.#bucket = t === undefined ? undefined : new TokenBucket(t.qps, t.burst, opts.now);
  }

  processEvents(...events: AuditEvent[]): boolean {
    for (const [i, event] of events.entries()) {
      const why = this.#closed
        ? 'audit backend shut down'
        : this.#queue.length >= this.#opts.config.bufferSize
          ? 'audit buffer queue blocked'
          : undefined;
      if (why !== undefined) {
        this.#opts.onError(new Error(why), events.length - i);
        break;
      }
      // kube's DeepCopy: the filter goes on changing the event for its later stages.
      this.#queue.push(structuredClone(event));
    }
    this.#schedule();
    return true;
  }

  #ready(): boolean {
    const n = this.#queue.length;
    return n >= this.#opts.config.maxBatchSize || ((this.#due || this.#closed) && n > 0);
  }

  #schedule(): void {
    if (this.#pumping === undefined && this.#ready()) {
      this.#pumping = this.#pump().finally(() => {
        this.#pumping = undefined;
        this.#schedule();
      });
      return;
    }
    if (this.#timer === undefined && this.#queue.length > 0 && !this.#closed)
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.#due = true;
        this.#schedule();
      }, this.#opts.config.maxBatchWaitMs).unref();
  }

  async #pump(): Promise<void> {
    const sleep = this.#opts.sleep ?? defaultSleep;
    while (this.#ready()) {
      this.#due = false;
      clearTimeout(this.#timer);
      this.#timer = undefined;
      const batch = this.#queue.splice(0, this.#opts.config.maxBatchSize);
      const wait = this.#bucket?.reserve() ?? 0;
      if (wait > 0) await sleep(wait);
      const stored = this.#deliver(batch);
      if (!this.#opts.config.asyncDelegate) await stored;
      else {
        this.#inFlight.add(stored);
        void stored.finally(() => this.#inFlight.delete(stored));
      }
    }
  }

  #deliver(batch: AuditEvent[]): Promise<unknown> {
    try {
      return Promise.resolve(this.#opts.delegate.processEvents(...batch)).catch(() => false);
    } catch {
      return Promise.resolve(false);
    }
  }

  /** Sends what is buffered, waits for every batch handed over, then closes the backend behind. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#schedule();
    while (this.#pumping !== undefined) await this.#pumping;
    await Promise.all([...this.#inFlight]);
    await this.#opts.delegate.close?.();
  }
}
