// KvStore: storage.Interface over any kv Backend, after k8s.io/apiserver/pkg/storage/etcd3/store.go.
import type { KubeList, KubeObject } from '../../api/meta.js';
import type { GroupResource } from '../../machinery/schema/group-resource.js';
import { jsonCodec, type Codec } from '../codec.js';
import { keyExists, keyNotFound } from '../errors.js';
import type {
  CreateOptions,
  DeleteOptions,
  EncodedList,
  GetOptions,
  Interface,
  ListOptions,
  ObjectHistory,
  Revision,
  UpdateOptions,
  Versioner,
  Watch,
} from '../interfaces.js';
import type { Backend, KeyValue } from '../kv/backend.js';
import { prefixRange } from '../kv/backend.js';
import { keyHistory } from '../kv/key-history.js';
import { identityTransformer, type Transformer } from '../value/transformer.js';
import { apiObjectVersioner } from '../versioner.js';
import { conditionalDelete } from './delete.js';
import { guaranteedUpdate } from './guaranteed-update.js';
import { getList, getListEncoded } from './get-list.js';
import {
  backendFault,
  decodeKv,
  prepareKey,
  prepareWrite,
  servedJSON,
  validateMinimumResourceVersion,
  writtenObject,
  type StoreCore,
} from './store-core.js';
import { watch } from './watch.js';

export interface KvStoreOptions {
  readonly backend: Backend;
  /** Root of every key, `/registry` by default (kube's --etcd-prefix). */
  readonly pathPrefix?: string;
  readonly groupResource: GroupResource;
  readonly codec?: Codec;
  readonly transformer?: Transformer;
  readonly versioner?: Versioner;
  /** A new empty object of the stored kind, used for bookmark events. */
  readonly newFunc?: () => KubeObject;
}

/** The path prefix as every stored key starts with it: `/registry/` for `registry` or `/registry`. */
export function storagePathPrefix(prefix = '/registry'): string {
  const joined = `/${prefix}`.replace(/\/+/g, '/');
  return joined.endsWith('/') ? joined : `${joined}/`;
}

export class KvStore<T extends KubeObject = KubeObject> implements Interface<T> {
  readonly #core: StoreCore;

  constructor(opts: KvStoreOptions) {
    this.#core = Object.freeze({
      backend: opts.backend,
      pathPrefix: storagePathPrefix(opts.pathPrefix),
      groupResource: opts.groupResource,
      codec: opts.codec ?? jsonCodec,
      transformer: opts.transformer ?? identityTransformer,
      versioner: opts.versioner ?? apiObjectVersioner,
      newFunc: opts.newFunc ?? ((): KubeObject => ({ metadata: {} })),
      writtenKey: Symbol('written object'),
    });
  }

  get versioner(): Versioner {
    return this.#core.versioner;
  }

  get pathPrefix(): string {
    return this.#core.pathPrefix;
  }

  get local(): boolean {
    return this.#core.backend.local === true;
  }

  async create(key: string, obj: T, opts: CreateOptions = {}): Promise<T> {
    const core = this.#core;
    const full = prepareKey(core, key);
    if ((obj.metadata?.resourceVersion ?? '') !== '') {
      throw new Error('resourceVersion should not be set on objects to be created');
    }
    const write = prepareWrite(core, obj, { key: full });
    const res = await core.backend
      .create(full, write.value, opts.ttl !== undefined ? { ttl: opts.ttl } : {})
      .catch((err: unknown) => {
        throw backendFault(err, full);
      });
    if (!res.ok) throw keyExists(full, 0);
    return writtenObject(core, write, res.revision);
  }

  /** The stored value at `key` for get(); null only when missing and ignoreNotFound is set. */
  async #read(key: string, opts: GetOptions): Promise<KeyValue | null> {
    const core = this.#core;
    const full = prepareKey(core, key);
    const res = await core.backend.get(full).catch((err: unknown) => {
      throw backendFault(err, full);
    });
    validateMinimumResourceVersion(core, opts.resourceVersion, res.revision);
    if (res.kv === null && opts.ignoreNotFound !== true) throw keyNotFound(full, 0);
    return res.kv;
  }

  async get(key: string, opts: GetOptions = {}): Promise<T | null> {
    const kv = await this.#read(key, opts);
    return kv === null ? null : decodeKv<T>(this.#core, kv, kv.modRevision).obj;
  }

  /** get() as served JSON: the stored bytes with resourceVersion spliced in, never decoded. */
  async getEncoded(key: string, opts: GetOptions = {}): Promise<Buffer | null> {
    if (opts.cachedOnly === true) return null;
    const kv = await this.#read(key, opts);
    return kv === null ? null : servedJSON(this.#core, kv).json;
  }

  getList(key: string, opts: ListOptions<T> = {}): Promise<KubeList<T>> {
    return getList(this.#core, key, opts);
  }

  /** getList() as served JSON: the stored bytes with resourceVersion spliced in, never decoded. */
  getListEncoded(key: string, opts: ListOptions<T> = {}): Promise<EncodedList> {
    return getListEncoded(this.#core, key, opts);
  }

  delete(key: string, opts: DeleteOptions<T> = {}): Promise<T> {
    return conditionalDelete(this.#core, key, opts);
  }

  guaranteedUpdate(key: string, opts: UpdateOptions<T>): Promise<T> {
    return guaranteedUpdate(this.#core, key, opts);
  }

  watch(key: string, opts: ListOptions<T> = {}): Promise<Watch<T>> {
    return watch(this.#core, key, opts);
  }

  async count(key: string): Promise<number> {
    const core = this.#core;
    const full = prepareKey(core, key.endsWith('/') ? key : `${key}/`);
    const res = await core.backend.count(prefixRange(full)).catch((err: unknown) => {
      throw backendFault(err, full);
    });
    return res.count;
  }

  /** The backend's revisions of the key, decoded (and decrypted) as get() does. */
  async history(key: string): Promise<ObjectHistory<T>> {
    const core = this.#core;
    const full = prepareKey(core, key);
    const h = await keyHistory(core.backend, full).catch((err: unknown) => {
      throw backendFault(err, full);
    });
    const revisions = h.revisions.map((r) => ({
      revision: r.modRevision,
      object: r.deleted
        ? null
        : decodeKv<T>(
            core,
            { key: full, value: r.value, createRevision: r.createRevision, modRevision: r.modRevision },
            r.modRevision,
          ).obj,
    }));
    return { revision: h.revision, compactRevision: h.compactRevision, revisions };
  }

  currentResourceVersion(): Promise<Revision> {
    return this.#core.backend.currentRevision().catch((err: unknown) => {
      throw backendFault(err, this.#core.pathPrefix);
    });
  }

  currentResourceVersionNow(): Revision | undefined {
    const backend = this.#core.backend;
    if (backend.revisionNow === undefined) return undefined;
    try {
      return backend.revisionNow();
    } catch (err) {
      throw backendFault(err, this.#core.pathPrefix);
    }
  }

  async requestWatchProgress(): Promise<void> {
    await this.#core.backend.requestProgress().catch((err: unknown) => {
      throw backendFault(err, this.#core.pathPrefix);
    });
  }

  supportsWatchProgress(): Promise<boolean> {
    return this.#core.backend.supportsRequestProgress?.() ?? Promise.resolve(true);
  }

  async readinessCheck(): Promise<void> {
    await this.currentResourceVersion();
  }
}
