// Capstan's history read (no kube counterpart): the object's revisions from the storage's log.
import type { KubeObject } from '../../api/meta.js';
import { newMethodNotSupported, newNotFound } from '../../machinery/errors/index.js';
import type { ObjectHistory } from '../../storage/interfaces.js';
import type { RequestContext } from '../rest/context.js';
import type { StoreCore } from './store-core.js';
import { interpretStorageError } from './storage-errors.js';

export async function readHistory<T extends KubeObject>(
  core: StoreCore<T>,
  ctx: RequestContext,
  name: string,
): Promise<ObjectHistory<T>> {
  const storage = core.storage.storage;
  if (storage.history === undefined) throw newMethodNotSupported(core.qualifiedResource, 'history');
  const key = core.keyFunc(ctx, name);
  let history: ObjectHistory<T>;
  try {
    history = await storage.history(key);
  } catch (err) {
    throw interpretStorageError(err, { verb: 'get', qualifiedResource: core.qualifiedResource, name });
  }
  if (history.revisions.length === 0) throw newNotFound(core.qualifiedResource, name);
  return history;
}
