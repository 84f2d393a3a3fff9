// The metadata checks handlers make on request bodies (rest.WipeObjectMetaSystemFields, handlers'
// checkName); the namespace check is the registry's (src/registry/rest/meta.ts).
import type { KubeObject, ObjectMeta } from '../../api/meta.js';
import { newBadRequest } from '../../machinery/errors/index.js';

/** The object's metadata, created when absent. */
export function metaOf(obj: KubeObject): ObjectMeta {
  const meta = obj.metadata as unknown;
  if (typeof meta !== 'object' || meta === null) obj.metadata = {};
  return obj.metadata as ObjectMeta;
}

/** Clears what a client may not set on create. */
export function wipeObjectMetaSystemFields(meta: ObjectMeta): void {
  delete meta.creationTimestamp;
  delete meta.uid;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
}

/** The body's name must be the URL's, and its namespace, when set, the request's. */
export function checkName(obj: KubeObject, name: string, namespace: string): void {
  const objName = obj.metadata?.name ?? '';
  const objNamespace = obj.metadata?.namespace ?? '';
  if (objName !== name) {
    throw newBadRequest(`the name of the object (${objName}) does not match the name on the URL (${name})`);
  }
  if (namespace !== '' && objNamespace !== '' && objNamespace !== namespace) {
    throw newBadRequest(
      `the namespace of the object (${objNamespace}) does not match the namespace on the request (${namespace})`,
    );
  }
}
