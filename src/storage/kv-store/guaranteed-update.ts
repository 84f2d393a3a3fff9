// GuaranteedUpdate as the etcd3 store does it: read (or trust cachedExisting), check preconditions,
// call tryUpdate, skip no-op writes, and compare-and-swap on the read revision, retrying on conflict.
import type { KubeObject } from '../../api/meta.js';
import { keyNotFound } from '../errors.js';
import { identityTransformer } from '../value/transformer.js';
import type { UpdateOptions } from '../interfaces.js';
import type { KeyValue } from '../kv/backend.js';
import {
  backendFault,
  decodeData,
  decodeKv,
  prepareKey,
  prepareWrite,
  stateHolds,
  stateOfCached,
  writtenObject,
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
 * Hands out a state's object for tryUpdate to change: the decoded object itself the first time (no
 * one else holds it), a fresh decode of its bytes after that.
 */
class Handout<T extends KubeObject> {
  readonly #core: StoreCore;
  #state: ObjState<T> = missing;
  #taken = false;

  constructor(core: StoreCore) {
    this.#core = core;
  }

  set state(st: ObjState<T>) {
    this.#state = st;
    this.#taken = false;
  }

  get state(): ObjState<T> {
    return this.#state;
  }

  take(): T | null {
    const st = this.#state;
    if (st.obj === null) return null;
    if (!this.#taken) {
      this.#taken = true;
      return st.obj;
    }
    if (st.data === null) throw new Error('no object in state');
    return decodeData<T>(this.#core, st.data, { key: '', rev: st.rev });
  }

  /** The unchanged object to answer a no-op update with. */
  unchanged(): T {
    const obj = this.#taken ? this.take() : this.#state.obj;
    if (obj === null) throw new Error('no object in state');
    return obj;
  }
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

  const orig = new Handout<T>(core);
  let origIsCurrent = false;
  if (opts.cachedExisting !== undefined) {
    orig.state = stateOfCached(core, opts.cachedExisting);
    // A cache's copy cannot tell whether its stored value was written with a key other than the
    // writing one (stale), which even an unchanged update must rewrite; without a transformer no
    // value is stale.
    origIsCurrent = opts.cachedExisting.current === true && core.transformer === identityTransformer;
  } else {
    orig.state = await current();
    origIsCurrent = true;
  }

  for (;;) {
    opts.signal?.throwIfAborted();
    let next: T;
    const st = orig.state;
    let old: T | null = null;
    try {
      checkPreconditions(full, opts.preconditions, st.obj);
      old = orig.take();
      next = await opts.tryUpdate(old, { resourceVersion: st.rev });
    } catch (err) {
      // Working from possibly stale data: retry once with the current state before failing.
      if (origIsCurrent) throw err;
      orig.state = await current();
      origIsCurrent = true;
      if (orig.state.rev === st.rev) throw err;
      continue;
    }

    // The members the update left as the live object's are copied from its JSON.
    const live =
      old !== null && old === st.obj && st.json !== undefined ? { object: old, json: st.json } : undefined;
    const write = prepareWrite(core, next, { key: full, live });
    if (stateHolds(st, write.data)) {
      // A no-op; but if we skipped the read, make sure the state we compared with is current.
      if (!origIsCurrent) {
        orig.state = await current();
        origIsCurrent = true;
        continue;
      }
      return orig.unchanged();
    }

    const ttl = opts.ttl !== undefined ? { ttl: opts.ttl } : {};
    const res = await (
      st.rev === 0
        ? core.backend.create(full, write.value, ttl)
        : core.backend.update(full, write.value, { modRevision: st.rev, ...ttl })
    ).catch((err: unknown) => {
      throw backendFault(err, full);
    });
    if (!res.ok) {
      orig.state = stateOf<T>(core, res.current, { key: full, ignoreNotFound });
      origIsCurrent = true;
      continue;
    }
    return writtenObject(core, write, res.revision);
  }
}
