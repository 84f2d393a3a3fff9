// The generic registry Store (k8s.io/apiserver/pkg/registry/generic/registry/store.go): every REST
// verb for any resource, given its strategies. The order of steps lives in the verb files beside
// this one; the strategies only decide. Build one with completeWithOptions().
import type { KubeList, KubeObject } from '../../api/meta.js';
import type { Table } from '../../api/table.js';
import type { ObjectHistory, Watch } from '../../storage/interfaces.js';
import type {
  CategoriesProvider,
  CollectionDeleter,
  Creater,
  EncodedGetter,
  EncodedLister,
  EncodedListResult,
  Getter,
  GracefulDeleter,
  HistoryReader,
  Lister,
  Scoper,
  ShortNamesProvider,
  SingularNameProvider,
  Storage,
  TableConvertor,
  UpdateRequest,
  Updater,
  ValidateObjectFunc,
  Watcher,
} from '../rest/capabilities.js';
import type { RequestContext } from '../rest/context.js';
import type { CreateOptions, DeleteOptions, GetOptions, ListOptions } from '../rest/options.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../rest/strategy.js';
import { createObject } from './create.js';
import { deleteCollection, type DeleteCollectionRequest } from './delete-collection.js';
import { deleteObject } from './delete.js';
import { getEncodedObject, getObject, listEncodedObjects, listObjects, watchObjects } from './list-watch.js';
import { brandCore, type StoreCore } from './store-core.js';
import { readHistory } from './history.js';
import { updateObject } from './update.js';

export class Store<T extends KubeObject = KubeObject>
  implements
    Storage,
    Scoper,
    Getter,
    EncodedGetter,
    HistoryReader,
    Lister,
    EncodedLister,
    TableConvertor,
    Watcher,
    Creater,
    Updater,
    GracefulDeleter,
    CollectionDeleter,
    ShortNamesProvider,
    CategoriesProvider,
    SingularNameProvider
{
  readonly #core: StoreCore<T>;

  constructor(core: StoreCore<T>) {
    this.#core = core;
  }

  /** The completed state, for resource storages in the registry that build on the Store. */
  get core(): StoreCore<T> {
    return this.#core;
  }

  /**
   * The same storage with other strategies: a status subresource is the store with a status update
   * strategy (kube's `statusStore := *store`). Destroying either releases the shared storage once.
   */
  withStrategies(strategies: {
    createStrategy?: CreateStrategy<T>;
    updateStrategy?: UpdateStrategy<T>;
    deleteStrategy?: DeleteStrategy<T>;
    /** Other columns (a custom resource version's printer columns). */
    tableConvertor?: TableConvertor;
  }): Store<T> {
    return new Store(brandCore<T>({ ...this.#core, ...strategies }));
  }

  /** The stored objects' identity: the same for every copy made by withStrategies and every view. */
  get storedIdentity(): object {
    return this.#core.storage;
  }

  /** The Store serves the stored version: nothing to convert (StoredVersionConverter). */
  toStoredVersion(_ctx: RequestContext, obj: KubeObject): Promise<KubeObject> {
    return Promise.resolve(obj);
  }

  fromStoredVersion(_ctx: RequestContext, obj: KubeObject): Promise<KubeObject> {
    return Promise.resolve(obj);
  }

  newObject(): T {
    return this.#core.newFunc();
  }

  /** The strategy's DecodeDefaulting, for the handlers to run on a body as they decode it. */
  defaultDecoded(obj: KubeObject): void {
    const strategy = this.#core.createStrategy ?? this.#core.updateStrategy;
    strategy?.defaultDecoded?.(obj as T);
  }

  newList(): KubeList<T> {
    return this.#core.newListFunc();
  }

  destroy(): Promise<void> {
    return this.#core.destroy();
  }

  namespaceScoped(): boolean {
    return this.#core.namespaced;
  }

  shortNames(): readonly string[] {
    return this.#core.shortNames;
  }

  categories(): readonly string[] {
    return this.#core.categories;
  }

  singularName(): string {
    return this.#core.singularName;
  }

  /** Whether delete answers with the object (kube's DeleteReturnsDeletedObject). */
  deleteReturnsDeletedObject(): boolean {
    return this.#core.returnDeletedObject;
  }

  get(ctx: RequestContext, name: string, options: GetOptions): Promise<T> {
    return getObject(this.#core, ctx, { name, options });
  }

  getCachedNow(ctx: RequestContext, name: string): T | undefined {
    const storage = this.#core.storage.storage;
    if (storage.getCachedNow === undefined) return undefined;
    let key: string;
    try {
      key = this.#core.keyFunc(ctx, name);
    } catch {
      return undefined; // get() says what is wrong with the name
    }
    return storage.getCachedNow(key);
  }

  /** get as JSON: the stored object is what get returns, so its encoding is served as it is. */
  getEncoded(ctx: RequestContext, name: string, options: GetOptions): Promise<Buffer> {
    return getEncodedObject(this.#core, ctx, { name, options });
  }

  /** The object's revisions from the storage's log; NotFound when none is left. */
  history(ctx: RequestContext, name: string): Promise<ObjectHistory<T>> {
    return readHistory(this.#core, ctx, name);
  }

  list(ctx: RequestContext, options: ListOptions): Promise<KubeList<T>> {
    return listObjects(this.#core, ctx, options);
  }

  listEncoded(ctx: RequestContext, options: ListOptions): Promise<EncodedListResult> {
    return listEncodedObjects(this.#core, ctx, options);
  }

  watch(ctx: RequestContext, options: ListOptions): Promise<Watch<T>> {
    return watchObjects(this.#core, ctx, options);
  }

  create(
    ctx: RequestContext,
    obj: KubeObject,
    opts: { options: CreateOptions; validate?: ValidateObjectFunc },
  ): Promise<T> {
    return createObject(this.#core, ctx, { ...opts, obj: obj as T });
  }

  update(ctx: RequestContext, name: string, req: UpdateRequest): Promise<{ object: T; created: boolean }> {
    return updateObject(this.#core, ctx, { name, req });
  }

  delete(
    ctx: RequestContext,
    name: string,
    opts: { options: DeleteOptions; validate?: ValidateObjectFunc },
  ): Promise<{ object: KubeObject; deleted: boolean }> {
    return deleteObject(this.#core, ctx, { name, req: opts });
  }

  deleteCollection(ctx: RequestContext, opts: DeleteCollectionRequest): Promise<KubeList<T>> {
    return deleteCollection(this.#core, ctx, opts);
  }

  convertToTable(
    ctx: RequestContext,
    obj: KubeObject | KubeList,
    opts: { includeObject?: 'None' | 'Object' | 'Metadata'; now?: number },
  ): Table {
    return this.#core.tableConvertor.convertToTable(ctx, obj, {
      ...opts,
      now: opts.now ?? this.#core.clock.now(),
    });
  }
}
