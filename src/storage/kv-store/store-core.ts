// What the KvStore verbs share: the backend, key preparation, and decoding stored values.
import type { KubeObject } from '../../api/meta.js';
import type { GroupResource } from '../../machinery/schema/group-resource.js';
import type { Codec } from '../codec.js';
import type { LiveEncoding } from '../managed-fields-span.js';
import { corruptObj, internalError, StorageError, unreachable } from '../errors.js';
import type { CachedExisting, Versioner } from '../interfaces.js';
import { BackendUnavailableError, type Backend, type KeyValue } from '../kv/backend.js';
import {
  attachServedJSON,
  isStoredBytes,
  placeResourceVersion,
  servedOfWrite,
  spliceResourceVersion,
  storedBytes,
  type ServedJSON,
} from '../served-json.js';
import type { Transformer } from '../value/transformer.js';
import {
  invalidResourceVersion,
  maxStoredValueBytes,
  storedValueTooLarge,
  tooLargeResourceVersion,
} from '../api-errors.js';

export interface StoreCore {
  readonly backend: Backend;
  /** Ends with '/'. */
  readonly pathPrefix: string;
  readonly groupResource: GroupResource;
  readonly codec: Codec;
  readonly transformer: Transformer;
  readonly versioner: Versioner;
  /** A new empty object of the stored kind, for bookmark events. */
  readonly newFunc: () => KubeObject;
  /**
   * The property under which a write leaves its object on the value it wrote: a watch of this store
   * that shares objects (the watch cache's feed) takes it from there instead of decoding what was
   * just encoded (takeWrittenObject).
   */
  readonly writtenKey: symbol;
}

/** A written value carrying its object, under its store's key. */
type Carrier = Buffer & Record<symbol, KubeObject | undefined>;

/**
 * The object written as `value` by this store, taken off it (a second taker decodes). A property of
 * the value, not a WeakMap entry (docs/architecture.md: what a request makes dies young).
 */
export function takeWrittenObject(core: StoreCore, value: Buffer): KubeObject | undefined {
  const carrier = value as Carrier;
  const object = carrier[core.writtenKey];
  // Cleared, not deleted: a delete would turn the Buffer into a slow dictionary object.
  if (object !== undefined) carrier[core.writtenKey] = undefined;
  return object;
}

/** A decoded stored value: the object (with its resourceVersion), its plain bytes and revision. */
export interface ObjState<T extends KubeObject> {
  readonly obj: T | null;
  readonly data: Buffer | null;
  readonly rev: number;
  /** Decrypted with a key other than the writing one: rewrite even when unchanged. */
  readonly stale: boolean;
  /** Whether `bytes` are the plain bytes (`data`), where that is known without making them. */
  readonly holds?: (bytes: Buffer) => boolean;
  /** JSON this process encoded for `obj` (the watch cache's served JSON), for a write to copy from. */
  readonly json?: Buffer;
}

/**
 * The state of the watch cache's copy: its object is already a private decode, and its plain bytes
 * are cut from the served JSON only when read (a write compares its bytes with them instead). A
 * class, its getter on the prototype: an object literal with a getter gets a map of its own that
 * holds what the getter reaches (docs/architecture.md).
 */
class CachedState<T extends KubeObject> implements ObjState<T> {
  readonly obj: T;
  readonly rev: number;
  readonly stale = false;
  readonly #served: ServedJSON;
  #data: Buffer | undefined;

  constructor(core: StoreCore, cached: CachedExisting<T>) {
    this.obj = cached.object;
    this.rev = core.versioner.objectResourceVersion(cached.object);
    this.#served = cached.served;
  }

  get data(): Buffer {
    return (this.#data ??= storedBytes(this.#served));
  }

  holds(bytes: Buffer): boolean {
    return isStoredBytes(this.#served, bytes);
  }

  get json(): Buffer {
    return this.#served.json;
  }
}

/** The state of the watch cache's copy (CachedState). */
export function stateOfCached<T extends KubeObject>(core: StoreCore, cached: CachedExisting<T>): ObjState<T> {
  return new CachedState(core, cached);
}

/** Whether the state's plain bytes are `bytes`: a write of them changes nothing. */
export function stateHolds(st: ObjState<KubeObject>, bytes: Buffer): boolean {
  if (st.stale) return false;
  if (st.holds !== undefined) return st.holds(bytes);
  return st.data !== null && bytes.equals(st.data);
}

/** Joins the path prefix and a key, refusing keys that could escape it (etcd3 store's prepareKey). */
export function prepareKey(core: StoreCore, key: string): string {
  const parts = key.split('/');
  if (parts.includes('..') || parts.includes('.')) {
    throw new StorageError({ code: 'InvalidError', key, message: `invalid key: ${JSON.stringify(key)}` });
  }
  if (key === '' || key === '/') {
    throw new StorageError({ code: 'InvalidError', key, message: `empty key: ${JSON.stringify(key)}` });
  }
  return core.pathPrefix + (key.startsWith('/') ? key.slice(1) : key);
}

/** Decrypts and decodes a stored value, setting its resourceVersion to `rev`. */
export function decodeKv<T extends KubeObject>(core: StoreCore, kv: KeyValue, rev: number): ObjState<T> {
  let plain: { data: Buffer; stale: boolean };
  try {
    plain = core.transformer.transformFromStorage(kv.value, { key: kv.key });
  } catch (err) {
    throw internalError(kv.key, (err as Error).message);
  }
  const obj = decodeData<T>(core, plain.data, { key: kv.key, rev });
  return { obj, data: plain.data, rev: kv.modRevision, stale: plain.stale };
}

export function decodeData<T extends KubeObject>(
  core: StoreCore,
  data: Buffer,
  at: { key: string; rev: number },
): T {
  let obj: KubeObject;
  try {
    obj = core.codec.decode(data);
  } catch (err) {
    throw corruptObj(at.key, `unable to decode the stored object: ${(err as Error).message}`);
  }
  // resourceVersion goes where the stored member order has it (after uid in Go's ObjectMeta, in
  // sorted place in a custom resource's metadata), as on a write's returned object: placed in the
  // decoded metadata, not spliced into a copy of the bytes before parsing them.
  if (at.rev > 0) placeResourceVersion(obj, at.rev);
  core.versioner.updateObject(obj, at.rev);
  return obj as T;
}

export function encodeObj(core: StoreCore, obj: KubeObject): Buffer {
  return core.codec.encode(obj);
}

/**
 * Encodes `obj` for storage (without resourceVersion and selfLink) and transforms it; a value larger
 * than etcd takes is refused (413) whatever the backend. Returns the
 * object as it will be stored (a copy down to its metadata and wherever members were put in order;
 * the rest shared with `obj`), its plain
 * bytes and the value to write, which carries the object for watches that share objects. `live`: the
 * object the write replaces and its JSON, when this process encoded it (Codec.encodeInOrder).
 */
export function prepareWrite<T extends KubeObject>(
  core: StoreCore,
  obj: T,
  at: { key: string; live?: LiveEncoding | undefined },
): { object: T; data: Buffer; value: Buffer } {
  const { key } = at;
  // Copied without the fields storage must not keep, rather than deleting them from the copy: a
  // delete turns the object V8 holds into a slow dictionary for every later read and the encode.
  const { resourceVersion: _rv, selfLink: _link, ...metadata } = obj.metadata ?? {};
  const copy = { ...obj, metadata };
  core.versioner.prepareObjectForStorage(copy);
  // The object in the member order it is stored in, so that what a write returns and what watchers
  // get keep that order too, and as reading the bytes back gives it (without the zero members
  // encoding adds). The live object's own members stay as they are: their bytes are copied.
  const ordered = core.codec.inOrder(copy, at.live);
  const data = core.codec.encodeInOrder(ordered, at.live);
  const object = core.codec.decoded(ordered, at.live) as T;
  const value = core.transformer.transformToStorage(data, { key });
  if (value.length + key.length > maxStoredValueBytes) throw storedValueTooLarge();
  (value as Carrier)[core.writtenKey] = object;
  return { object, data, value };
}

/**
 * The object a successful write returns: what was stored (not a decode of it: the encoding dropped
 * only what JSON drops), at the write's revision, with its served JSON attached for the response.
 */
export function writtenObject<T extends KubeObject>(
  core: StoreCore,
  write: { object: T; data: Buffer },
  rev: number,
): T {
  if (rev > 0) placeResourceVersion(write.object, rev);
  core.versioner.updateObject(write.object, rev);
  const served = servedOfWrite(write.object, write.data, rev);
  if (served !== null) attachServedJSON(write.object, served.json);
  return write.object;
}

/**
 * A stored value as a read serves it: its plain bytes with resourceVersion spliced in, or, for bytes
 * without a metadata object to splice into (written by another program), decoded and encoded again,
 * which then stand for the stored bytes.
 */
export function servedJSON(core: StoreCore, kv: KeyValue): ServedJSON {
  let plain: Buffer;
  try {
    plain = core.transformer.transformFromStorage(kv.value, { key: kv.key }).data;
  } catch (err) {
    throw internalError(kv.key, (err as Error).message);
  }
  const served = spliceResourceVersion(plain, kv.modRevision);
  if (served !== null) return served;
  const obj = decodeData(core, plain, { key: kv.key, rev: kv.modRevision });
  core.versioner.prepareObjectForStorage(obj);
  const again = spliceResourceVersion(core.codec.encode(obj), kv.modRevision);
  if (again === null) throw corruptObj(kv.key, 'the stored object has no metadata');
  return again;
}

/** Turns backend faults into StorageError Unreachable; everything else passes through. */
export function backendFault(err: unknown, key: string): unknown {
  if (err instanceof BackendUnavailableError) return unreachable(key, err.message);
  return err;
}

/** Enforces that a read is at least `minimum` (storage.Interface's guarantee for resourceVersion). */
export function validateMinimumResourceVersion(
  core: StoreCore,
  minimum: string | undefined,
  actual: number,
): void {
  if (minimum === undefined || minimum === '') return;
  let min: number;
  try {
    min = core.versioner.parseResourceVersion(minimum);
  } catch (err) {
    throw invalidResourceVersion((err as Error).message);
  }
  if (min > actual) throw tooLargeResourceVersion(min, actual, 0);
}
