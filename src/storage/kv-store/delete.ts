// Delete as the etcd3 store's conditionalDelete: preconditions and validateDeletion run against the
// state being deleted, and the delete is a compare-and-swap on that state's revision.
import type { KubeObject } from '../../api/meta.js';
import { keyNotFound } from '../errors.js';
import type { DeleteOptions } from '../interfaces.js';
import {
  backendFault,
  decodeKv,
  prepareKey,
  type ObjState,
  type StoreCore,
  stateOfCached,
} from './store-core.js';
import { checkPreconditions } from '../preconditions.js';

export async function conditionalDelete<T extends KubeObject>(
  core: StoreCore,
  key: string,
  opts: DeleteOptions<T>,
): Promise<T> {
  const full = prepareKey(core, key);
  const current = async (): Promise<ObjState<T>> => {
    const res = await core.backend.get(full).catch((err: unknown) => {
      throw backendFault(err, full);
    });
    if (res.kv === null) throw keyNotFound(full, 0);
    return decodeKv<T>(core, res.kv, res.kv.modRevision);
  };

  let orig: ObjState<T>;
  let origIsCurrent = false;
  if (opts.cachedExisting !== undefined) {
    orig = stateOfCached(core, opts.cachedExisting);
    origIsCurrent = opts.cachedExisting.current === true;
  } else {
    orig = await current();
    origIsCurrent = true;
  }

  for (;;) {
    opts.signal?.throwIfAborted();
    try {
      checkPreconditions(full, opts.preconditions, orig.obj);
      if (opts.validateDeletion !== undefined && orig.obj !== null) await opts.validateDeletion(orig.obj);
    } catch (err) {
      if (origIsCurrent) throw err;
      const cachedRev = orig.rev;
      orig = await current();
      origIsCurrent = true;
      if (orig.rev === cachedRev) throw err;
      continue;
    }
    const res = await core.backend.delete(full, { modRevision: orig.rev }).catch((err: unknown) => {
      throw backendFault(err, full);
    });
    if (!res.ok) {
      if (res.current === null) throw keyNotFound(full, 0);
      orig = decodeKv<T>(core, res.current, res.current.modRevision);
      origIsCurrent = true;
      continue;
    }
    // The deleted object is the state we checked (a private decode), carrying the deletion's revision.
    if (orig.obj === null) throw keyNotFound(full, 0);
    core.versioner.updateObject(orig.obj, res.revision);
    return orig.obj;
  }
}
