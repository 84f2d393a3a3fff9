// GuaranteedUpdate as the etcd3 store does it: read (or trust cachedExisting), check preconditions,
// call tryUpdate, skip no-op writes, and compare-and-swap on the read revision, retrying on conflict.
import type { KubeObject } from '../../api/meta.js';
import { keyNotFound } from '../errors.js';
import type { UpdateOptions } from '../interfaces.js';
import type { KeyValue } from '../kv/backend.js';
import {
  backendFault,
  decodeData,
  decodeKv,
  encodeObj,
  prepareKey,
  type ObjState,
  type StoreCore,
} from './store-core.js';
import { checkPreconditions } from '../preconditions.js';

const missing: ObjState<never> = { obj: null, data: null, rev: 0, stale: false };

function stateOf<T extends KubeObject>(
  core: StoreCore,
  kv: KeyValue | null,
  at: { key: string; ignoreNotFound: boolean },
): ObjState<T> {
  if (kv === null) {
    if (at.ignoreNotFound) return missing;
    throw keyNotFound(at.key, 0);
  }
  return decodeKv<T>(core, kv, kv.modRevision);
}

/**
 * The state of a cached copy (possibly frozen by the watch cache): only its bytes are needed, since
 * tryUpdate always receives a fresh decode and preconditions only read the object.
 */
function stateFromObject<T extends KubeObject>(core: StoreCore, obj: T): ObjState<T> {
  const rev = core.versioner.objectResourceVersion(obj);
  const copy = { ...obj, metadata: { ...obj.metadata } };
  core.versioner.prepareObjectForStorage(copy);
  return { obj, data: encodeObj(core, copy), rev, stale: false };
}

export async function guaranteedUpdate<T extends KubeObject>(
  core: StoreCore,
  key: string,
  opts: UpdateOptions<T>,
): Promise<T> {
  const full = prepareKey(core, key);
  const ignoreNotFound = opts.ignoreNotFound === true;
  const current = async (): Promise<ObjState<T>> => {
    const res = await core.backend.get(full).catch((err: unknown) => {
      throw backendFault(err, full);
    });
    return stateOf<T>(core, res.kv, { key: full, ignoreNotFound });
  };

  let orig: ObjState<T>;
  let origIsCurrent = false;
  if (opts.cachedExisting !== undefined) {
    orig = stateFromObject(core, opts.cachedExisting);
  } else {
    orig = await current();
    origIsCurrent = true;
  }

  for (;;) {
    opts.signal?.throwIfAborted();
    let next: T;
    try {
      checkPreconditions(full, opts.preconditions, orig.obj);
      next = await opts.tryUpdate(orig.obj === null ? null : freshCopy(core, orig), {
        resourceVersion: orig.rev,
      });
    } catch (err) {
      // Working from possibly stale data: retry once with the current state before failing.
      if (origIsCurrent) throw err;
      const cachedRev = orig.rev;
      orig = await current();
      origIsCurrent = true;
      if (orig.rev === cachedRev) throw err;
      continue;
    }

    const copy = { ...next, metadata: { ...next.metadata } };
    core.versioner.prepareObjectForStorage(copy);
    const data = encodeObj(core, copy);
    if (!orig.stale && orig.data !== null && data.equals(orig.data)) {
      // A no-op; but if we skipped the read, make sure the state we compared with is current.
      if (!origIsCurrent) {
        orig = await current();
        origIsCurrent = true;
        continue;
      }
      return freshCopy(core, orig);
    }

    const value = core.transformer.transformToStorage(data, { key: full });
    const ttl = opts.ttl !== undefined ? { ttl: opts.ttl } : {};
    const res = await (
      orig.rev === 0
        ? core.backend.create(full, value, ttl)
        : core.backend.update(full, value, { modRevision: orig.rev, ...ttl })
    ).catch((err: unknown) => {
      throw backendFault(err, full);
    });
    if (!res.ok) {
      orig = stateOf<T>(core, res.current, { key: full, ignoreNotFound });
      origIsCurrent = true;
      continue;
    }
    return decodeData<T>(core, data, { key: full, rev: res.revision });
  }
}

/** A private copy of the state's object for callers that may mutate it. */
function freshCopy<T extends KubeObject>(core: StoreCore, st: ObjState<T>): T {
  if (st.data === null) throw new Error('no object in state');
  return decodeData<T>(core, st.data, { key: '', rev: st.rev });
}
