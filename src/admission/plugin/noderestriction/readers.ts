// What NodeRestriction reads, as kube's plugin reads it through informer listers: the watch cache's
// copy, else storage (listerGet). Only requests by nodes read anything.
import type { KubeObject } from '../../../api/meta.js';
import { isStatusError } from '../../../machinery/errors/index.js';
import type { Authorizer } from '../../../registry/rest/authorizer.js';
import type { Getter } from '../../../registry/rest/capabilities.js';
import { internalContext, type RequestContext } from '../../../registry/rest/context.js';
import { listerGet } from '../../../registry/rest/lister-read.js';
import type { Attributes } from '../../attributes.js';
import { newAdmissionForbidden } from '../../errors.js';

export interface NodeRestrictionReaders {
  readonly pods: Getter;
  readonly nodes: Getter;
  /** The readers of ServiceAccountNodeAudienceRestriction (on in 1.33); absent ones are not found. */
  readonly persistentVolumeClaims?: Getter | undefined;
  readonly persistentVolumes?: Getter | undefined;
  readonly csiDrivers?: Getter | undefined;
  readonly authorizer?: Authorizer | undefined;
}

/** One object by namespace ('' for cluster-scoped) and name; a storage's NotFound as thrown. */
export function readObject<T extends KubeObject>(
  getter: Getter,
  ctx: RequestContext,
  ref: { readonly namespace: string; readonly name: string },
): Promise<T> {
  return listerGet<T>(getter, internalContext({ namespace: ref.namespace, parent: ctx }), ref.name);
}

export const isNotFound = (err: unknown): boolean => isStatusError(err) && err.reason === 'NotFound';

/**
 * A lister read as kube's plugin makes it: NotFound passes as it is, any other failure becomes the
 * request's Forbidden.
 */
export async function readForAdmission<T extends KubeObject>(
  a: Attributes,
  read: () => Promise<T>,
): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (isNotFound(err)) throw err;
    throw newAdmissionForbidden(a, err);
  }
}
