import type { Status, StatusDetails } from '../../api/meta.js';
import { reasonCodes, type StatusReason } from './status-reasons.js';
import { orderedStatus } from './status-order.js';

/**
 * An error that is a Kubernetes Status: it travels from storage up to HTTP unchanged and is
 * written as the response body by one place in the endpoints layer.
 */
export class StatusError extends Error {
  readonly status: Status;

  constructor(status: Status) {
    super(status.message ?? status.reason ?? 'unknown error');
    this.name = 'StatusError';
    this.status = status;
  }

  get code(): number {
    return this.status.code;
  }

  get reason(): StatusReason {
    return (this.status.reason ?? 'Unknown') as StatusReason;
  }
}

export interface StatusInit {
  reason: StatusReason;
  message: string;
  details?: StatusDetails;
  code?: number;
}

export function newStatus(init: StatusInit): Status {
  return orderedStatus({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: init.message,
    reason: init.reason,
    ...(init.details === undefined ? {} : { details: init.details }),
    code: init.code ?? reasonCodes[init.reason],
  });
}

export function statusError(init: StatusInit): StatusError {
  return new StatusError(newStatus(init));
}

export function isStatusError(err: unknown): err is StatusError {
  return err instanceof StatusError;
}

/** The reason of a StatusError, or 'Unknown' for anything else (apierrors.ReasonForError). */
export function reasonForError(err: unknown): StatusReason {
  return err instanceof StatusError ? err.reason : 'Unknown';
}
