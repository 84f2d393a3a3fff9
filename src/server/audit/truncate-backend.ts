// --audit-{log,webhook}-truncate-enabled (k8s.io/apiserver/plugin/pkg/audit/truncate): an event
// larger than max-event-size loses its request and response objects (and says so in the
// audit.k8s.io/truncated annotation); one still too large is dropped and reported; the rest go on
// in batches of at most max-batch-size bytes.
import { auditEventJSON } from './event-json.js';
import { levelAtLeast, type AuditEvent, type AuditSink } from './types.js';

export interface TruncateConfig {
  readonly maxEventSize: number;
  readonly maxBatchSize: number;
}

export interface TruncateBackendOptions {
  readonly delegate: AuditSink;
  readonly config: TruncateConfig;
  /** Told of events dropped as too large (kube's plugin "truncate"). */
  readonly onError: (err: Error, dropped: number) => void;
}

// kube's calcSize: the bytes of the event as the backends encode it.
const sizeOf = (e: AuditEvent): number => Buffer.byteLength(auditEventJSON(e));

function truncated(e: AuditEvent): AuditEvent {
  const { requestObject: _request, rawRequestObject: _raw, responseObject: _response, ...rest } = e;
  return { ...rest, annotations: { ...e.annotations, 'audit.k8s.io/truncated': 'true' } };
}

export class TruncatingAuditBackend implements AuditSink {
  readonly #opts: TruncateBackendOptions;

  constructor(opts: TruncateBackendOptions) {
    this.#opts = opts;
  }

  processEvents(...events: AuditEvent[]): boolean | Promise<boolean> {
    const { maxEventSize, maxBatchSize } = this.#opts.config;
    const results: (boolean | Promise<boolean>)[] = [];
    let batch: AuditEvent[] = [];
    let batchSize = 0;
    let tooLarge = 0;
    for (let event of events) {
      let size = sizeOf(event);
      if (size > maxEventSize && levelAtLeast(event.level, 'Request')) {
        event = truncated(event);
        size = sizeOf(event);
      }
      if (size > maxEventSize) {
        tooLarge++;
        continue;
      }
      if (batch.length > 0 && batchSize + size > maxBatchSize) {
        results.push(this.#opts.delegate.processEvents(...batch));
        batch = [];
        batchSize = 0;
      }
      batchSize += size;
      batch.push(event);
    }
    if (batch.length > 0) results.push(this.#opts.delegate.processEvents(...batch));
    if (tooLarge > 0) this.#opts.onError(new Error('event is too large even after truncating'), tooLarge);
    if (results.every((r) => typeof r === 'boolean')) return results.every((r) => r);
    return Promise.all(results.map(async (r) => r)).then((all) => all.every((r) => r));
  }

  close(): void | Promise<void> {
    return this.#opts.delegate.close?.();
  }
}
