// Store.Get, List/ListPredicate and Watch/WatchPredicate (k8s.io/apiserver/pkg/registry/generic/
// registry/store.go), with selectors parsed as the list and watch endpoints receive them.
import type { KubeList, KubeObject } from '../../api/meta.js';
import { validateNamespaceName } from '../../machinery/validation/index.js';
import { encodedGet, encodedList } from '../../storage/encoded-reads.js';
import { keyNotFound } from '../../storage/errors.js';
import type {
  GetOptions as StorageGetOptions,
  ListOptions as StorageListOptions,
  Watch,
} from '../../storage/interfaces.js';
import type { EncodedListResult } from '../rest/capabilities.js';
import type { RequestContext, UserInfo } from '../rest/context.js';
import type { GetOptions, ListOptions } from '../rest/options.js';
import { parseFields, parseLabels, type StorePredicate } from './predicate.js';
import type { StoreCore } from './store-core.js';
import { interpretStorageError } from './storage-errors.js';

/**
 * Storage options carrying a request's signal, read only when storage waits (for the watch cache to
 * reach a revision): a request makes its signal on first read, at a cost of microseconds.
 */
class RequestSignal {
  readonly #ctx: RequestContext;

  constructor(ctx: RequestContext) {
    this.#ctx = ctx;
  }

  get signal(): AbortSignal {
    return this.#ctx.signal;
  }
}

class StorageGetOptionsOf extends RequestSignal implements StorageGetOptions {
  resourceVersion?: string;
  readOnly?: boolean;
  cachedOnly?: boolean;
}

class StorageListOptionsOf<T extends KubeObject> extends RequestSignal implements StorageListOptions<T> {}

/** Store.Get through `read` (decoded or encoded), with storage errors as the verb's Status errors. */
async function readObject<T extends KubeObject, R>(
  core: StoreCore<T>,
  ctx: RequestContext,
  args: {
    name: string;
    options: GetOptions;
    read: (key: string, opts: StorageGetOptions) => Promise<R | null>;
  },
): Promise<R> {
  const key = core.keyFunc(ctx, args.name);
  try {
    const opts = new StorageGetOptionsOf(ctx);
    if (args.options.resourceVersion !== undefined) opts.resourceVersion = args.options.resourceVersion;
    if (args.options.readOnly === true) opts.readOnly = true;
    if (args.options.cachedOnly === true) opts.cachedOnly = true;
    const read = await args.read(key, opts);
    // Storage answers null only to a read that asked for a cache's answer the cache did not have.
    if (read === null) throw keyNotFound(key);
    return read;
  } catch (err) {
    throw interpretStorageError(err, {
      verb: 'get',
      qualifiedResource: core.qualifiedResource,
      name: args.name,
    });
  }
}

export function getObject<T extends KubeObject>(
  core: StoreCore<T>,
  ctx: RequestContext,
  args: { name: string; options: GetOptions },
): Promise<T> {
  const storage = core.storage.storage;
  return readObject(core, ctx, { ...args, read: (key, opts) => storage.get(key, opts) });
}

/** getObject as JSON bytes, not decoded where the storage keeps them. */
export function getEncodedObject<T extends KubeObject>(
  core: StoreCore<T>,
  ctx: RequestContext,
  args: { name: string; options: GetOptions },
): Promise<Buffer> {
  const storage = core.storage.storage;
  return readObject(core, ctx, { ...args, read: (key, opts) => encodedGet(storage, key, opts) });
}

/** The predicate for a request's label and field selectors. */
export function predicateFor<T extends KubeObject>(
  core: StoreCore<T>,
  options: ListOptions,
): StorePredicate<T> {
  const label = parseLabels(options.labelSelector);
  const field = parseFields(options.fieldSelector, core.fieldLabelConversion);
  const continueToken = options.continue;
  return core.predicateFunc({ label, field, ...(continueToken !== undefined ? { continueToken } : {}) });
}

// A class, not an object literal with a getter (docs/architecture.md: what a request makes dies
// young).
class NamespacedContext implements RequestContext {
  readonly namespace: string;
  readonly user: UserInfo;
  readonly #ctx: RequestContext;

  constructor(ctx: RequestContext, namespace: string) {
    this.namespace = namespace;
    this.user = ctx.user;
    this.#ctx = ctx;
  }

  get signal(): AbortSignal {
    return this.#ctx.signal;
  }

  addWarning(message: string): void {
    this.#ctx.addWarning(message);
  }
}

function withNamespace(ctx: RequestContext, namespace: string): RequestContext {
  return new NamespacedContext(ctx, namespace);
}

/** A cluster-wide request whose field selector pins one valid namespace reads only that namespace. */
function narrowNamespace<T extends KubeObject>(ctx: RequestContext, p: StorePredicate<T>): RequestContext {
  if (ctx.namespace !== '') return ctx;
  const ns = p.matchesSingleNamespace();
  if (ns === undefined || validateNamespaceName(ns, false).length > 0) return ctx;
  return withNamespace(ctx, ns);
}

/** The key to read and whether it is a prefix: one object when the selector pins a name. */
function keyFor<T extends KubeObject>(
  core: StoreCore<T>,
  ctx: RequestContext,
  p: StorePredicate<T>,
): { key: string; recursive: boolean } {
  const name = p.matchesSingle();
  if (name !== undefined) {
    try {
      return { key: core.keyFunc(ctx, name), recursive: false };
    } catch {
      // No key from this context (say, no namespace): read the collection instead.
    }
  }
  return { key: core.keyRootFunc(ctx), recursive: true };
}

function storageListOptions<T extends KubeObject>(
  ctx: RequestContext,
  p: StorePredicate<T>,
  options: ListOptions,
): StorageListOptions<T> {
  const out: StorageListOptions<T> = new StorageListOptionsOf<T>(ctx);
  out.predicate = p;
  out.recursive = true;
  if (options.resourceVersion !== undefined) out.resourceVersion = options.resourceVersion;
  if (options.resourceVersionMatch !== undefined) out.resourceVersionMatch = options.resourceVersionMatch;
  if (options.limit !== undefined) out.limit = options.limit;
  if (options.continue !== undefined) out.continue = options.continue;
  if (options.readOnly === true) out.readOnly = true;
  return out;
}

/** The storage read of a list with `args`' selectors, through `read` (decoded or encoded). */
async function readList<T extends KubeObject, R>(
  core: StoreCore<T>,
  ctx: RequestContext,
  args: {
    predicate: StorePredicate<T>;
    options: ListOptions;
    read: (key: string, opts: StorageListOptions<T>) => Promise<R>;
  },
): Promise<R> {
  const p = args.predicate;
  const scoped = narrowNamespace(ctx, p);
  const { key, recursive } = keyFor(core, scoped, p);
  try {
    const opts = storageListOptions(ctx, p, args.options);
    opts.recursive = recursive;
    return await args.read(key, opts);
  } catch (err) {
    throw interpretStorageError(err, { verb: 'list', qualifiedResource: core.qualifiedResource, name: '' });
  }
}

/** ListPredicate: the matching objects, in a list of the store's kind. */
export async function listPredicate<T extends KubeObject>(
  core: StoreCore<T>,
  ctx: RequestContext,
  args: { predicate: StorePredicate<T>; options: ListOptions },
): Promise<KubeList<T>> {
  const storage = core.storage.storage;
  const got = await readList(core, ctx, { ...args, read: (key, opts) => storage.getList(key, opts) });
  const list = core.newListFunc();
  list.metadata = got.metadata;
  list.items = got.items;
  return list;
}

/** List as JSON pieces: the list's kind and metadata, and each matching item's JSON. */
export async function listEncodedObjects<T extends KubeObject>(
  core: StoreCore<T>,
  ctx: RequestContext,
  options: ListOptions,
): Promise<EncodedListResult> {
  const storage = core.storage.storage;
  const predicate = predicateFor(core, options);
  const got = await readList(core, ctx, {
    predicate,
    options,
    read: (key, opts) => encodedList(storage, key, opts),
  });
  const { kind = '', apiVersion = '' } = core.newListFunc();
  return { kind, apiVersion, metadata: got.metadata, items: got.items };
}

export async function listObjects<T extends KubeObject>(
  core: StoreCore<T>,
  ctx: RequestContext,
  options: ListOptions,
): Promise<KubeList<T>> {
  return await listPredicate(core, ctx, { predicate: predicateFor(core, options), options });
}

/** Watch: changes to the matching objects from the requested resourceVersion on. */
export async function watchObjects<T extends KubeObject>(
  core: StoreCore<T>,
  ctx: RequestContext,
  options: ListOptions,
): Promise<Watch<T>> {
  const p = predicateFor(core, options);
  const scoped = narrowNamespace(ctx, p);
  const { key, recursive } = keyFor(core, scoped, p);
  const opts: StorageListOptions<T> = { predicate: p, recursive, signal: ctx.signal };
  if (options.resourceVersion !== undefined) opts.resourceVersion = options.resourceVersion;
  if (options.allowWatchBookmarks !== undefined) opts.progressNotify = options.allowWatchBookmarks;
  if (options.sendInitialEvents !== undefined) opts.sendInitialEvents = options.sendInitialEvents;
  if (ctx.deadline !== undefined) opts.deadline = ctx.deadline;
  try {
    return await core.storage.storage.watch(key, opts);
  } catch (err) {
    throw interpretStorageError(err, { verb: 'list', qualifiedResource: core.qualifiedResource, name: '' });
  }
}
