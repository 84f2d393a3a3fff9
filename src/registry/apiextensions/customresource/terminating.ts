// While its CRD is terminating, a custom resource is still read, updated and deleted (its objects
// are being deleted), but not created (apiextensions-apiserver's crdHandler refuses the verb).
import { statusError, type StatusError } from '../../../machinery/errors/index.js';
import type { GroupResource } from '../../../machinery/schema/group-resource.js';
import type { Storage } from '../../rest/capabilities.js';

export function terminatingCreateError(resource: GroupResource): StatusError {
  return statusError({
    reason: 'MethodNotAllowed',
    message: 'create not allowed while custom resource definition is terminating',
    details: { group: resource.group, kind: resource.resource },
  });
}

/** `storage` with create refused; every other capability as it was. */
export function refusingCreates(storage: Storage, resource: GroupResource): Storage {
  return new Proxy(storage, {
    get(target, prop) {
      if (prop === 'create') return () => Promise.reject(terminatingCreateError(resource));
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
