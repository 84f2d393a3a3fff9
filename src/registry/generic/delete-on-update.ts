// deleteWithoutFinalizers (k8s.io/apiserver/pkg/registry/generic/registry/store.go): an update that
// removed the last finalizer of an object whose deletion was requested deletes it.
import type { KubeObject, Preconditions } from '../../api/meta.js';
import { isStorageError } from '../../storage/errors.js';
import type { RequestContext } from '../rest/context.js';
import type { StoreCore } from './store-core.js';
import { interpretStorageError } from './storage-errors.js';

export interface DeleteOnUpdate<T extends KubeObject> {
  readonly name: string;
  readonly key: string;
  /** The object the update produced; the client gets it back, as for any successful PUT. */
  readonly obj: T;
  readonly preconditions: Preconditions | undefined;
  readonly dryRun: boolean;
}

export async function deleteWithoutFinalizers<T extends KubeObject>(
  core: StoreCore<T>,
  _ctx: RequestContext,
  args: DeleteOnUpdate<T>,
): Promise<T> {
  try {
    // The request already passed admission as an UPDATE, so the delete validates nothing more.
    await core.storage.delete(args.key, {
      dryRun: args.dryRun,
      ...(args.preconditions !== undefined ? { preconditions: args.preconditions } : {}),
    });
  } catch (err) {
    // Several updates may race to remove the last finalizers; whichever deletes first wins.
    if (isStorageError(err, 'KeyNotFound')) return args.obj;
    throw interpretStorageError(err, {
      verb: 'delete',
      qualifiedResource: core.qualifiedResource,
      name: args.name,
    });
  }
  return args.obj;
}
