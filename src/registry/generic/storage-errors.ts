// StorageError → Status per verb, as k8s.io/apiserver/pkg/storage/errors/storage.go does.
import {
  isStatusError,
  newAlreadyExists,
  newBadRequest,
  newConflict,
  newInternalError,
  newNotFound,
  newServerTimeout,
  type StatusError,
} from '../../machinery/errors/index.js';
import type { GroupResource } from '../../machinery/schema/group-resource.js';
import { isStorageError, type StorageError } from '../../storage/errors.js';

export const storageVerbs = ['get', 'list', 'create', 'update', 'delete'] as const;
export type StorageVerb = (typeof storageVerbs)[number];

/** Seconds a client should wait after ServerTimeout (kube hardcodes 2). */
const retryAfterSeconds = 2;

function fromStorageError(
  err: StorageError,
  at: { verb: StorageVerb; qr: GroupResource; name: string },
): StatusError {
  const { verb, qr, name } = at;
  switch (err.code) {
    case 'KeyNotFound':
      return newNotFound(qr, verb === 'list' ? '' : name);
    case 'KeyExists':
      if (verb === 'create') return newAlreadyExists(qr, name);
      if (verb === 'update' || verb === 'delete') return newConflict(qr, name, err.message);
      return newInternalError(err);
    case 'ResourceVersionConflicts':
    case 'InvalidObj':
      if (verb === 'update' || verb === 'delete') return newConflict(qr, name, err.message);
      return newInternalError(err);
    case 'Unreachable':
      return newServerTimeout(qr, verb, retryAfterSeconds);
    case 'InvalidError':
      // A resourceVersion that does not parse: kube answers 500 with the parse error; it is the
      // request's mistake, so 400 with the same text (it names the field).
      return newBadRequest(err.message);
    case 'CorruptObj':
    case 'InternalError':
      return newInternalError(err);
  }
}

/**
 * Translates what a storage call threw: StorageErrors by code for the verb; Status errors and any
 * other error pass unchanged, as kube's storeerr returns them (the response writer answers those
 * 500 with their own text).
 */
export function interpretStorageError(
  err: unknown,
  at: { verb: StorageVerb; qualifiedResource: GroupResource; name: string },
): Error {
  if (isStatusError(err)) return err;
  if (isStorageError(err))
    return fromStorageError(err, { verb: at.verb, qr: at.qualifiedResource, name: at.name });
  return err instanceof Error ? err : new Error(String(err));
}
