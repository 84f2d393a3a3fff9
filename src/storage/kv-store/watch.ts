// Watch as the etcd3 watcher does it: optional initial state as ADDED events, then backend events
// turned into watch events through the predicate (an update leaving the selection is DELETED, one
// entering it is ADDED), deletes carrying the last state at the deletion's revision.
import type { KubeObject } from '../../api/meta.js';
import { newInternalError } from '../../machinery/errors/index.js';
import { watchTooOld } from '../api-errors.js';
import type { ListOptions, SelectionPredicate, Watch, WatchEvent } from '../interfaces.js';
import { internalError } from '../errors.js';
import { CompactedError, prefixEnd, type KeyRange, type KeyValue, type KvEvent } from '../kv/backend.js';
import { WatchChan, type StoredState } from '../watch-chan.js';
import { placeResourceVersion } from '../served-json.js';
import {
  backendFault,
  decodeData,
  decodeKv,
  prepareKey,
  takeWrittenObject,
  type StoreCore,
} from './store-core.js';

export const initialEventsEndAnnotation = 'k8s.io/initial-events-end';

export async function watch<T extends KubeObject>(
  core: StoreCore,
  key: string,
  opts: ListOptions<T>,
): Promise<Watch<T>> {
  const rev = core.versioner.parseResourceVersion(opts.resourceVersion ?? '');
  let full = prepareKey(core, key);
  const recursive = opts.recursive === true;
  if (recursive && !full.endsWith('/')) full += '/';
  const range: KeyRange = recursive
    ? { start: full, end: prefixEnd(full) }
    : { start: full, end: `${full}\0` };
  const pred = opts.predicate !== undefined && !opts.predicate.empty() ? opts.predicate : undefined;
  if (opts.shareObjects === true && pred !== undefined)
    throw new Error('a watch that shares objects takes no predicate');
  const share = opts.shareObjects === true;

  let cancel: (() => void) | null = null;
  const chan = new WatchChan<T>({
    onStop: () => {
      cancel?.();
    },
  });
  if (opts.signal?.aborted === true) {
    chan.stop();
    return chan;
  }
  opts.signal?.addEventListener(
    'abort',
    () => {
      chan.stop();
    },
    { once: true },
  );

  let fromRevision = rev + 1;
  const sendInitial = opts.sendInitialEvents ?? rev === 0;
  if (sendInitial) {
    const res = await core.backend.list(range, {}).catch((err: unknown) => {
      throw backendFault(err, full);
    });
    for (const kv of res.kvs) {
      const st = decodeKv<T>(core, kv, kv.modRevision);
      const obj = st.obj as T;
      if (share && st.data !== null)
        chan.push({
          type: 'ADDED',
          object: obj,
          stored: { key: callerKey(core, kv.key), data: st.data, revision: st.rev },
        });
      else if (pred === undefined || pred.matches(obj)) chan.push({ type: 'ADDED', object: obj });
    }
    fromRevision = res.revision + 1;
    if (opts.sendInitialEvents === true && opts.progressNotify === true) {
      chan.push({ type: 'BOOKMARK', object: bookmark<T>(core, res.revision, true) });
    }
  }

  const handle = core.backend.watch(
    range,
    { fromRevision, progressNotify: opts.progressNotify === true },
    {
      onEvents: (events) => {
        for (const ev of events) {
          let out: WatchEvent<T> | null;
          try {
            out = share ? sharedEvent<T>(core, ev) : transform(core, ev, pred);
          } catch (err) {
            chan.close({ type: 'ERROR', object: newInternalError(err).status });
            cancel?.();
            return;
          }
          if (out !== null) chan.push(out);
        }
      },
      onProgress: (revision) => {
        if (opts.progressNotify === true)
          chan.push({ type: 'BOOKMARK', object: bookmark<T>(core, revision, false) });
      },
      onError: (err) => {
        const status = err instanceof CompactedError ? watchTooOld().status : newInternalError(err).status;
        chan.close({ type: 'ERROR', object: status });
      },
    },
  );
  cancel = () => {
    handle.cancel();
  };
  if (chan.closed) handle.cancel();
  return chan;
}

function bookmark<T extends KubeObject>(core: StoreCore, revision: number, initialEventsEnd: boolean): T {
  const obj = core.newFunc();
  obj.metadata = { resourceVersion: String(revision) };
  if (initialEventsEnd) obj.metadata.annotations = { [initialEventsEndAnnotation]: 'true' };
  return obj as T;
}

function transform<T extends KubeObject>(
  core: StoreCore,
  ev: KvEvent,
  pred: SelectionPredicate<T> | undefined,
): WatchEvent<T> | null {
  const rev = ev.kv.modRevision;
  // The previous state is sent with the event's revision, as kube does for deletes. Without a
  // predicate only deletes need it, so updates skip decoding it.
  const needOld = ev.prevKv !== null && (ev.type === 'delete' || pred !== undefined);
  const old = needOld ? prevObject<T>(core, ev, rev) : null;
  if (ev.type === 'delete') {
    if (old === null) return null;
    return pred === undefined || pred.matches(old) ? { type: 'DELETED', object: old } : null;
  }
  const cur = decodeKv<T>(core, ev.kv, rev).obj as T;
  const curPasses = pred === undefined || pred.matches(cur);
  const oldPasses = pred === undefined ? ev.prevKv !== null : old !== null && pred.matches(old);
  const created = ev.prevKv === null || ev.kv.createRevision === rev;
  if (created) return curPasses ? { type: 'ADDED', object: cur } : null;
  if (curPasses && oldPasses) return { type: 'MODIFIED', object: cur };
  if (curPasses) return { type: 'ADDED', object: cur };
  if (oldPasses && old !== null) return { type: 'DELETED', object: old };
  return null;
}

function prevObject<T extends KubeObject>(core: StoreCore, ev: KvEvent, rev: number): T {
  if (ev.prevKv === null) throw new Error('no previous value');
  return decodeKv<T>(core, ev.prevKv, rev).obj as T;
}

/** A stored value's plain bytes (decrypted), or an internal error. */
function plainBytes(core: StoreCore, kv: KeyValue): Buffer {
  try {
    return core.transformer.transformFromStorage(kv.value, { key: kv.key }).data;
  } catch (err) {
    throw internalError(kv.key, (err as Error).message);
  }
}

/**
 * A shared watch's event, its object decoded from the stored bytes on first use. A class, not an
 * object literal with a getter (docs/architecture.md: what a request makes dies young).
 */
class SharedEvent<T extends KubeObject> {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly stored: StoredState;
  #object: T | undefined;
  readonly #core: StoreCore;
  /** The full storage key, which a decode error names. */
  readonly #key: string;

  constructor(
    core: StoreCore,
    init: { type: SharedEvent<T>['type']; key: string; stored: StoredState; object: T | undefined },
  ) {
    this.type = init.type;
    this.stored = init.stored;
    this.#object = init.object;
    this.#core = core;
    this.#key = init.key;
  }

  get object(): T {
    const { data, revision } = this.stored;
    return (this.#object ??= decodeData<T>(this.#core, data, { key: this.#key, rev: revision }));
  }
}

/**
 * An event for a watch that shares objects (no predicate): the object this store wrote when it
 * wrote the value, else decoded on first use; and the plain bytes stored. A deletion carries the
 * last state at the deletion's revision.
 */
function sharedEvent<T extends KubeObject>(core: StoreCore, ev: KvEvent): WatchEvent<T> | null {
  const rev = ev.kv.modRevision;
  const kv = ev.type === 'delete' ? ev.prevKv : ev.kv;
  if (kv === null) return null;
  const data = plainBytes(core, kv);
  const written = ev.type === 'delete' ? undefined : (takeWrittenObject(core, kv.value) as T | undefined);
  if (written !== undefined) {
    if (rev > 0) placeResourceVersion(written, rev);
    core.versioner.updateObject(written, rev);
  }
  const type =
    ev.type === 'delete'
      ? 'DELETED'
      : ev.prevKv === null || ev.kv.createRevision === rev
        ? 'ADDED'
        : 'MODIFIED';
  const stored = { key: callerKey(core, kv.key), data, revision: rev };
  return new SharedEvent<T>(core, { type, key: kv.key, stored, object: written });
}

/** A full storage key as the store's callers name it (without the path prefix, from '/'). */
function callerKey(core: StoreCore, full: string): string {
  return `/${full.slice(core.pathPrefix.length)}`;
}
