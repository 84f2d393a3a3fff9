// --audit-log-mode and --audit-webhook-mode (kube's AuditBatchOptions.wrapBackend): batch buffers
// and sends asynchronously; blocking makes the request wait for its events but ignores failures;
// blocking-strict also fails a request whose RequestReceived event could not be stored.
import { BufferedAuditBackend, type BatchConfig } from './buffered-backend.js';
import type { AuditEvent, AuditSink } from './types.js';

export const auditModes = ['batch', 'blocking', 'blocking-strict'] as const;
export type AuditMode = (typeof auditModes)[number];

function ignoreErrors(delegate: AuditSink): AuditSink {
  return {
    processEvents(...events: AuditEvent[]): boolean | Promise<boolean> {
      const stored = delegate.processEvents(...events);
      return typeof stored === 'boolean' ? true : stored.then(() => true);
    },
    close: () => delegate.close?.(),
  };
}

export interface ModeOptions {
  readonly mode: AuditMode;
  readonly batch: BatchConfig;
  /** Told of events batch mode drops (kube's plugin "buffered"). */
  readonly onBufferError: (err: Error, dropped: number) => void;
}

export function withAuditMode(delegate: AuditSink, opts: ModeOptions): AuditSink {
  switch (opts.mode) {
    case 'blocking-strict':
      return delegate;
    case 'blocking':
      return ignoreErrors(delegate);
    case 'batch':
      return new BufferedAuditBackend({ delegate, config: opts.batch, onError: opts.onBufferError });
  }
}
