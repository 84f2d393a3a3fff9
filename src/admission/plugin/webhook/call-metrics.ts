// How one webhook call is counted (the metrics calls of kube's mutating and validating
// dispatchers): an allowed call as code 200; a call that failed with its status's code, refusing
// the request unless failurePolicy Ignore let it pass (fail open); a denial with the webhook's code;
// anything else as the apiserver's own error, code 0. A call cut short because the request was
// canceled is counted, but neither as a refusal nor as failing open.
import type { Operation } from '../../attributes.js';
import type { AdmissionMetrics, WebhookType } from '../../metrics/admission-metrics.js';
import type { WebhookAccessor } from './accessor.js';
import { CallingWebhookError, WebhookRejection } from './errors.js';

/** Where a webhook plugin counts, and as which type. */
export interface WebhookMetricsTarget {
  readonly admission: AdmissionMetrics;
  readonly type: WebhookType;
}

export function observeWebhookCall(
  target: WebhookMetricsTarget | undefined,
  hook: WebhookAccessor,
  r: {
    readonly operation: Operation;
    readonly seconds: number;
    /** What the call threw; undefined when the webhook allowed the request. */
    readonly failure: unknown;
    /** The request was canceled (kube's context.Canceled). */
    readonly canceled: boolean;
  },
): void {
  if (target === undefined) return;
  const { admission: m, type } = target;
  const { operation, seconds, failure } = r;
  const name = hook.name;
  if (failure === undefined) {
    m.observeWebhook(name, { type, operation, seconds, rejected: false, code: 200 });
    return;
  }
  if (failure instanceof CallingWebhookError) {
    const ignored = hook.failurePolicy === 'Ignore';
    if (!ignored && !r.canceled)
      m.observeWebhookRejection(name, {
        type,
        operation,
        errorType: 'calling_webhook_error',
        code: failure.code,
      });
    m.observeWebhook(name, { type, operation, seconds, rejected: !ignored, code: failure.code });
    if (ignored && !r.canceled) m.observeWebhookFailOpen(name, type);
    return;
  }
  if (failure instanceof WebhookRejection) {
    const code = failure.status.code;
    m.observeWebhookRejection(name, { type, operation, errorType: 'no_error', code });
    m.observeWebhook(name, { type, operation, seconds, rejected: true, code });
    return;
  }
  m.observeWebhookRejection(name, { type, operation, errorType: 'apiserver_internal_error', code: 0 });
  m.observeWebhook(name, { type, operation, seconds, rejected: true, code: 0 });
}
