// The webhooks' errors (k8s.io/apiserver/pkg/util/webhook/error.go and admission/plugin/webhook/
// errors): a call that failed (failurePolicy decides), a webhook's denial, and dry runs a webhook
// with side effects cannot take.
import type { Status } from '../../../api/meta.js';
import { newBadRequest, StatusError } from '../../../machinery/errors/index.js';

/**
 * ErrCallingWebhook: the webhook could not be reached or answered nonsense. `code` is its status's
 * code in kube (400 for a call that failed, 503 for an answer that does not verify), which the
 * webhook metrics report.
 */
export class CallingWebhookError extends Error {
  readonly webhookName: string;
  readonly code: number;

  constructor(webhookName: string, reason: string, code = 400) {
    super(`failed calling webhook ${JSON.stringify(webhookName)}: ${reason}`);
    this.name = 'CallingWebhookError';
    this.webhookName = webhookName;
    this.code = code;
  }
}

/** ErrWebhookRejection: the webhook answered allowed: false. */
export class WebhookRejection extends Error {
  readonly status: StatusError;

  constructor(status: StatusError) {
    super(status.message);
    this.name = 'WebhookRejection';
    this.status = status;
  }
}

/**
 * ToStatusErr: the webhook's status with its message prefixed by who denied the request; never
 * a code under 400 nor a Success status.
 */
export function toStatusErr(webhookName: string, result: Partial<Status> | undefined): StatusError {
  const deniedBy = `admission webhook ${JSON.stringify(webhookName)} denied the request`;
  const code = typeof result?.code === 'number' && result.code >= 400 ? result.code : 400;
  const message = result?.message ?? '';
  const reason = result?.reason ?? '';
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message:
      message !== ''
        ? `${deniedBy}: ${message}`
        : reason !== ''
          ? `${deniedBy}: ${reason}`
          : `${deniedBy} without explanation`,
    code,
  };
  if (reason !== '') status.reason = reason;
  if (result?.details !== undefined) status.details = result.details;
  return new StatusError(status);
}

/** NewDryRunUnsupportedErr. */
export function newDryRunUnsupportedErr(webhookName: string): StatusError {
  return newBadRequest(`admission webhook ${JSON.stringify(webhookName)} does not support dry run`);
}
