// Status errors the storage layer returns directly, as kube's storage and etcd3 packages do.
import {
  newBadRequest,
  newRequestEntityTooLarge,
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

/**
 * etcd's default --max-request-bytes (1.5 MiB): the largest write an etcd-backed kube-apiserver gets
 * through. Capstan stores objects as JSON (kube's --storage-media-type=application/json, which custom
 * resources always use) and every backend refuses a larger value, so what one backend stores another
 * could store too, and every stored object fits in a request body (3 MiB) to be written back.
 */
export const maxStoredValueBytes = 1536 * 1024;

/** A write larger than maxStoredValueBytes: 413 with etcd's words (kube answers etcd's refusal as 500). */
export function storedValueTooLarge(): StatusError {
  return newRequestEntityTooLarge('etcdserver: request is too large');
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
