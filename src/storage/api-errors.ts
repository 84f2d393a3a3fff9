// Status errors the storage layer returns directly, as kube's storage and etcd3 packages do.
import {
  newBadRequest,
  newResourceExpired,
  newTimeoutError,
  type StatusError,
} from '../machinery/errors/index.js';

/** storage.NewTooLargeResourceVersionError: 504 with a ResourceVersionTooLarge cause. */
export function tooLargeResourceVersion(
  minimum: number,
  current: number,
  retryAfterSeconds: number,
): StatusError {
  const err = newTimeoutError(
    `Too large resource version: ${minimum}, current: ${current}`,
    retryAfterSeconds,
  );
  err.status.details = {
    ...err.status.details,
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
  };
  return err;
}

export function invalidResourceVersion(detail: string): StatusError {
  return newBadRequest(`invalid resource version: ${detail}`);
}

export const listTooOldMessage = 'The resourceVersion for the provided list is too old.';
export const watchTooOldMessage = 'The resourceVersion for the provided watch is too old.';
export const continueExpiredMessage =
  'The provided continue parameter is too old to display a consistent list result. ' +
  'You can start a new list without the continue parameter.';
export const inconsistentContinueMessage =
  'The provided continue parameter is too old to display a consistent list result. ' +
  'You can start a new list without the continue parameter, or use the continue token in this response to ' +
  'retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - ' +
  'objects that were created, modified, or deleted between the time the first chunk was returned and now may ' +
  'show up in the list.';

export function listTooOld(): StatusError {
  return newResourceExpired(listTooOldMessage);
}

export function watchTooOld(): StatusError {
  return newResourceExpired(watchTooOldMessage);
}

/** A continue token whose revision was compacted: 410, with a token that resumes at the latest revision. */
export function continueTooOld(newContinue: string | null): StatusError {
  if (newContinue === null) return newResourceExpired(continueExpiredMessage);
  const err = newResourceExpired(inconsistentContinueMessage);
  err.status.metadata.continue = newContinue;
  return err;
}
