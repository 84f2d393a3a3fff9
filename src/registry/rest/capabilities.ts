// One-verb REST capabilities (k8s.io/apiserver/pkg/registry/rest/rest.go). The endpoints layer
// derives a resource's verbs from the capabilities its storage has, and sees storage only here.
import type { KubeList, KubeObject, ListMeta, Preconditions } from '../../api/meta.js';
import type { Table } from '../../api/table.js';
import type { ObjectHistory, Watch } from '../../storage/interfaces.js';
import type { RequestContext } from './context.js';
import type { CreateOptions, DeleteOptions, GetOptions, ListOptions, UpdateOptions } from './options.js';

/** Every REST storage: a new empty object of its kind (apiVersion and kind set) and cleanup. */
export interface Storage {
  newObject(): KubeObject;
  destroy(): void | Promise<void>;
}

export interface Scoper {
  namespaceScoped(): boolean;
}

export interface ShortNamesProvider {
  shortNames(): readonly string[];
}

export interface CategoriesProvider {
  categories(): readonly string[];
}

export interface SingularNameProvider {
  singularName(): string;
}

export interface Getter {
  get(ctx: RequestContext, name: string, options: GetOptions): Promise<KubeObject>;
  /**
   * The named object from the watch cache at once (shared, frozen: read only), when the cache
   * holds it; undefined when get() must answer (see storage's getCachedNow).
   */
  getCachedNow?(ctx: RequestContext, name: string): KubeObject | undefined;
}

export interface TableConvertor {
  /** `opts.now`: the server's time (ms) that ages are measured against; the Store fills it in. */
  convertToTable(
    ctx: RequestContext,
    obj: KubeObject | KubeList,
    opts: { includeObject?: 'None' | 'Object' | 'Metadata'; now?: number },
  ): Table;
}

/**
 * get answered as JSON bytes (resourceVersion included), for a caller that only writes the object
 * out: a storage that keeps encodings (the watch cache) answers without decoding. Only a storage
 * whose get returns the stored object unchanged offers it.
 */
export interface EncodedGetter {
  getEncoded(ctx: RequestContext, name: string, options: GetOptions): Promise<Buffer>;
}

/** A list as JSON pieces: the list's kind and metadata, and each item's JSON. */
export interface EncodedListResult {
  readonly kind: string;
  readonly apiVersion: string;
  readonly metadata: ListMeta;
  readonly items: readonly Buffer[];
}

/** list answered item by item as JSON bytes, as EncodedGetter. */
export interface EncodedLister {
  listEncoded(ctx: RequestContext, options: ListOptions): Promise<EncodedListResult>;
}

export interface Lister extends TableConvertor {
  newList(): KubeList;
  list(ctx: RequestContext, options: ListOptions): Promise<KubeList>;
}

export interface Watcher {
  watch(ctx: RequestContext, options: ListOptions): Promise<Watch>;
}

/** The validation hooks a handler hands the Store: validating admission (rest.ValidateObjectFunc). */
export type ValidateObjectFunc = (ctx: RequestContext, obj: KubeObject) => void | Promise<void>;
export type ValidateObjectUpdateFunc = (
  ctx: RequestContext,
  obj: KubeObject,
  old: KubeObject,
) => void | Promise<void>;

export interface Creater {
  create(
    ctx: RequestContext,
    obj: KubeObject,
    opts: { options: CreateOptions; validate?: ValidateObjectFunc },
  ): Promise<KubeObject>;
}

/**
 * A create whose object is named by the URL (rest.NamedCreater): `POST …/<name>/<subresource>` such
 * as pods/binding and serviceaccounts/token.
 */
export interface NamedCreater {
  createNamed(
    ctx: RequestContext,
    name: string,
    req: { obj: KubeObject; options: CreateOptions; validate?: ValidateObjectFunc },
  ): Promise<KubeObject>;
}

/**
 * A subresource whose body may also come in other versions of its kind's group
 * (rest.GroupVersionAcceptor): pods/eviction takes policy/v1 and policy/v1beta1 Evictions.
 */
export interface GroupVersionAcceptor {
  acceptsGroupVersion(gv: { group: string; version: string }): boolean;
}

/** Defaults a decoded body as kube's decoder does before anything else sees it (DecodeDefaulting). */
export interface DecodeDefaulter {
  defaultDecoded(obj: KubeObject): void;
}

/** How an update computes the new object from the current one (a PUT body, or a patch applied to it). */
export interface UpdatedObjectInfo {
  preconditions(): Preconditions | undefined;
  /** `old` is null when the object does not exist (create on update). */
  updatedObject(ctx: RequestContext, old: KubeObject | null): Promise<KubeObject>;
  /**
   * True when updatedObject only reads `old` and returns an object that shares nothing with it: the
   * Store then hands over the object it read rather than a deep copy of it.
   */
  readonly readsOldOnly?: boolean;
  /**
   * True when updatedObject brings managedFields up to date itself (a server-side apply): a view
   * that records its writer's updates in managedFields leaves them as they are.
   */
  readonly managesFields?: boolean;
}

export interface UpdateRequest {
  readonly objInfo: UpdatedObjectInfo;
  readonly options: UpdateOptions;
  readonly createValidation?: ValidateObjectFunc;
  readonly updateValidation?: ValidateObjectUpdateFunc;
  /** Create when missing even if the strategy does not allow it (server-side apply). */
  readonly forceAllowCreate?: boolean;
  /**
   * The caller only reads the returned object, and drops it after (an HTTP handler writing its
   * response): storage may keep it for the next update of the object (UpdateOptions.handOver).
   */
  readonly handsOverResult?: boolean;
}

export interface Updater {
  update(
    ctx: RequestContext,
    name: string,
    req: UpdateRequest,
  ): Promise<{ object: KubeObject; created: boolean }>;
}

export type Patcher = Getter & Updater;

export interface GracefulDeleter {
  /** `deleted` is false when the object is only marked for deletion (grace period, finalizers). */
  delete(
    ctx: RequestContext,
    name: string,
    opts: { options: DeleteOptions; validate?: ValidateObjectFunc },
  ): Promise<{ object: KubeObject; deleted: boolean }>;
}

export interface CollectionDeleter {
  deleteCollection(
    ctx: RequestContext,
    opts: { options: DeleteOptions; listOptions: ListOptions; validate?: ValidateObjectFunc },
  ): Promise<KubeList>;
}

/**
 * What a connect request answers with: a whole body, sent with its length, or a stream whose chunks
 * go out as they come, flushed, until it ends or the client leaves (pods/log), both 200; or no
 * stream at all, which kube's StreamObject answers 204 (the log of a pod not on a node).
 */
export type ConnectAnswer =
  | { readonly contentType: string; readonly body: Uint8Array }
  | { readonly contentType: string; readonly stream: AsyncIterable<Uint8Array> }
  | { readonly noContent: true };

/** Capstan's history: every revision of one object the storage's log still holds, oldest first. */
export interface HistoryReader {
  history(ctx: RequestContext, name: string): Promise<ObjectHistory>;
}

/** A connect request as the connecter gets it. */
export interface ConnectRequest {
  /** The path after `…/<name>/<subresource>/` (proxy paths), '' when none. */
  readonly subpath: string;
  readonly query: URLSearchParams;
  /**
   * The query decoded into the connecter's options kind (a PodExecOptions…), as admission saw and
   * may have changed them; null for a subresource kube serves as a getter (pods/log).
   */
  readonly options: KubeObject | null;
}

/** Subresources served by something other than the object store (pods/log, pods/exec…). */
export interface Connecter {
  connectMethods(): readonly string[];
  /** Whether `…/<subresource>/<path>` is served too (proxies), the path decoded as the options' `path`. */
  connectSubpath(): boolean;
  /**
   * Whether kube serves it as a rest.Connecter, whose requests admission sees as CONNECT with
   * their options; false for pods/log, a getter with options in kube, which admission never sees.
   */
  admitsConnect(): boolean;
  /** Answers with a body, or throws the Status the request gets (no kubelet, bad container…). */
  connect(ctx: RequestContext, name: string, req: ConnectRequest): Promise<ConnectAnswer>;
}

const has = (s: object, method: string): boolean =>
  typeof (s as Record<string, unknown>)[method] === 'function';

export const isGetter = (s: Storage): s is Storage & Getter => has(s, 'get');
export const isLister = (s: Storage): s is Storage & Lister => has(s, 'list') && has(s, 'newList');
export const isEncodedGetter = (s: Storage): s is Storage & EncodedGetter => has(s, 'getEncoded');
export const isEncodedLister = (s: Storage): s is Storage & EncodedLister => has(s, 'listEncoded');
export const isWatcher = (s: Storage): s is Storage & Watcher => has(s, 'watch');
export const isCreater = (s: Storage): s is Storage & Creater => has(s, 'create');
export const isNamedCreater = (s: Storage): s is Storage & NamedCreater => has(s, 'createNamed');
export const isGroupVersionAcceptor = (s: Storage): s is Storage & GroupVersionAcceptor =>
  has(s, 'acceptsGroupVersion');
export const isDecodeDefaulter = (s: Storage): s is Storage & DecodeDefaulter => has(s, 'defaultDecoded');
export const isUpdater = (s: Storage): s is Storage & Updater => has(s, 'update');
export const isPatcher = (s: Storage): s is Storage & Patcher => isGetter(s) && isUpdater(s);
export const isGracefulDeleter = (s: Storage): s is Storage & GracefulDeleter => has(s, 'delete');
export const isCollectionDeleter = (s: Storage): s is Storage & CollectionDeleter =>
  has(s, 'deleteCollection');
export const isHistoryReader = (s: Storage): s is Storage & HistoryReader => has(s, 'history');
export const isConnecter = (s: Storage): s is Storage & Connecter => has(s, 'connect');
export const isScoper = (s: Storage): s is Storage & Scoper => has(s, 'namespaceScoped');
export const isTableConvertor = (s: Storage): s is Storage & TableConvertor => has(s, 'convertToTable');
export const shortNamesOf = (s: Storage): readonly string[] =>
  has(s, 'shortNames') ? (s as Storage & ShortNamesProvider).shortNames() : [];
export const categoriesOf = (s: Storage): readonly string[] =>
  has(s, 'categories') ? (s as Storage & CategoriesProvider).categories() : [];
