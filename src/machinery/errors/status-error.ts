import type { Status, StatusDetails } from '../../api/meta.js';
import { reasonCodes, type StatusReason } from './status-reasons.js';

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
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: init.message,
    reason: init.reason,
    code: init.code ?? reasonCodes[init.reason],
  };
  if (init.details !== undefined) status.details = omitEmpty(init.details);
  return status;
}

/** StatusDetails as Go writes it: every field is `omitempty`, so empty ones are left out. */
function omitEmpty(details: StatusDetails): StatusDetails {
  const out: StatusDetails = {};
  for (const [key, value] of Object.entries(details) as [keyof StatusDetails, unknown][]) {
    if (value === '' || value === 0 || value === undefined || (Array.isArray(value) && value.length === 0))
      continue;
    (out as Record<string, unknown>)[key] = value;
  }
  return out;
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
