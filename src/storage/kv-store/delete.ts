// Delete as the etcd3 store's conditionalDelete: preconditions and validateDeletion run against the
// state being deleted, and the delete is a compare-and-swap on that state's revision.
import type { KubeObject } from '../../api/meta.js';
import { keyNotFound } from '../errors.js';
import type { DeleteOptions } from '../interfaces.js';
import {
  backendFault,
  decodeData,
  decodeKv,
  prepareKey,
  type ObjState,
  type StoreCore,
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
    const rev = core.versioner.objectResourceVersion(opts.cachedExisting);
    orig = { obj: structuredClone(opts.cachedExisting), data: null, rev, stale: false };
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
    // The deleted object is the state we checked, carrying the deletion's revision.
    if (orig.data !== null) return decodeData<T>(core, orig.data, { key: full, rev: res.revision });
    const out = structuredClone(orig.obj) as T;
    core.versioner.updateObject(out, res.revision);
    return out;
  }
}
