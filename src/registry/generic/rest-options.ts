// RESTOptions and how a Store gets them (k8s.io/apiserver/pkg/registry/generic/options.go,
// storage_decorator.go, registry/storage_factory.go), and StorageFactoryRestOptionsFactory
// (k8s.io/apiserver/pkg/server/options/etcd.go) which fills them in from a storage factory.
import type { KubeList, KubeObject } from '../../api/meta.js';
import { groupResourceString, type GroupResource } from '../../machinery/schema/group-resource.js';
import { systemClock, type Clock } from '../../machinery/time/clock.js';
import type {
  CreateRawStorage,
  RawStorage,
  StorageConfigForResource,
} from '../../storage/backend-factory/config.js';
import type { AttrFunc } from '../rest/strategy.js';
import { withCacher } from '../../storage/cacher/with-cacher.js';
import { storagePathPrefix } from '../../storage/kv-store/kv-store.js';
import { parseWatchCacheSizes } from './watch-cache-sizes.js';

/** Values the watch cache may index on, by field (kube's storage.IndexerFuncs), e.g. pods by spec.nodeName. */
export type TriggerFuncs = Readonly<Record<string, (obj: KubeObject) => string>>;

/** What a decorator needs to build the storage of one resource. */
export interface DecoratorArgs {
  readonly config: StorageConfigForResource;
  /** The resource's key root (`/configmaps`), below the config's path prefix. */
  readonly resourcePrefix: string;
  /** The storage key of an object, as the Store's key function would compute it. */
  readonly keyFunc: (obj: KubeObject) => string;
  readonly newFunc: () => KubeObject;
  readonly newListFunc: () => KubeList;
  readonly attrFunc: AttrFunc;
  readonly triggerFuncs?: TriggerFuncs;
}

/** generic.StorageDecorator: builds the storage.Interface a Store uses, raw or wrapped. */
export type StorageDecorator = (args: DecoratorArgs) => Promise<RawStorage>;

/** generic.RESTOptions: everything a Store takes from the server's storage configuration. */
export interface RESTOptions {
  readonly storageConfig: StorageConfigForResource;
  readonly decorator: StorageDecorator;
  readonly enableGarbageCollection: boolean;
  readonly deleteCollectionWorkers: number;
  /** The resource's key root below the path prefix (`configmaps`, `minions`, `services/specs`). */
  readonly resourcePrefix: string;
  /** How often the Store polls its object count for metrics; 0 turns it off. */
  readonly countMetricPollPeriodMs: number;
}

/** generic.RESTOptionsGetter. Throws when the resource has no storage destination. */
export interface RESTOptionsGetter {
  getRESTOptions(resource: GroupResource): RESTOptions;
}

/** The server's clock as a resource's storage config carries it (the system's when none is set). */
export function clockFor(getter: RESTOptionsGetter, resource: GroupResource): Clock {
  return getter.getRESTOptions(resource).storageConfig.clock ?? systemClock;
}

/** generic.UndecoratedStorage: the raw storage from the backend factory, nothing in front of it. */
export function undecoratedStorage(createRawStorage: CreateRawStorage): StorageDecorator {
  return (args) => createRawStorage(args.config);
}

/**
 * registry.StorageWithCacher: the watch cache in front of the raw storage, serving reads and watches
 * from memory; writes go through to the raw storage.
 */
export function storageWithCacher(
  createRawStorage: CreateRawStorage,
  opts: { cacheSize?: number } = {},
): StorageDecorator {
  return async (args) => {
    const raw = await createRawStorage(args.config);
    return withCacher(raw, {
      groupResource: args.config.groupResource,
      resourcePrefix: args.resourcePrefix,
      keyFunc: args.keyFunc,
      newFunc: args.newFunc,
      newListFunc: args.newListFunc,
      getAttrsFunc: args.attrFunc,
      ...(args.triggerFuncs !== undefined ? { indexerFuncs: args.triggerFuncs } : {}),
      ...(opts.cacheSize !== undefined ? { cacheSize: opts.cacheSize } : {}),
      ...(args.config.clock === undefined ? {} : { clock: args.config.clock }),
      ...(args.config.recentWrites === undefined ? {} : { recentWrites: args.config.recentWrites }),
      ...(args.config.codec === undefined ? {} : { decode: args.config.codec.decode }),
      ...(args.config.log === undefined ? {} : { log: args.config.log }),
      ...(args.config.cacheSeeds === undefined
        ? {}
        : {
            seeds: args.config.cacheSeeds,
            backendKeyPrefix: `${storagePathPrefix(args.config.prefix)}${args.resourcePrefix.replace(/^\/+|\/+$/g, '')}/`,
          }),
    });
  };
}

/** serverstorage.StorageFactory as the REST options factory sees it. */
export interface StorageFactory {
  /** Throws when the resource has no storage destination. */
  newConfig(resource: GroupResource): StorageConfigForResource;
  resourcePrefix(resource: GroupResource): string;
}

/** The parts of EtcdOptions (`--delete-collection-workers`, `--watch-cache`, ...) REST options use. */
export interface EtcdRESTOptions {
  /** Default 1. */
  readonly deleteCollectionWorkers?: number;
  /** Default true. */
  readonly enableGarbageCollection?: boolean;
  /** `--watch-cache`, default true. */
  readonly enableWatchCache?: boolean;
  /** `--default-watch-cache-size`: the initial event window of each cache (100). */
  readonly defaultWatchCacheSize?: number;
  /** `--watch-cache-sizes`: `resource[.group]#size` entries; 0 turns a resource's cache off. */
  readonly watchCacheSizes?: readonly string[];
  /** `--etcd-count-metric-poll-period`, default 1 minute. */
  readonly countMetricPollPeriodMs?: number;
}

export interface StorageFactoryRestOptionsFactoryInit {
  readonly options: EtcdRESTOptions;
  readonly storageFactory: StorageFactory;
  readonly createRawStorage: CreateRawStorage;
}

/** StorageFactoryRestOptionsFactory: RESTOptions per resource from a storage factory and the etcd flags. */
export class StorageFactoryRestOptionsFactory implements RESTOptionsGetter {
  readonly #options: Readonly<Required<Omit<EtcdRESTOptions, 'watchCacheSizes' | 'defaultWatchCacheSize'>>>;
  readonly #defaultWatchCacheSize: number | undefined;
  readonly #watchCacheSizes: ReadonlyMap<string, number>;
  readonly #storageFactory: StorageFactory;
  readonly #createRawStorage: CreateRawStorage;

  constructor(init: StorageFactoryRestOptionsFactoryInit) {
    const o = init.options;
    this.#options = Object.freeze({
      deleteCollectionWorkers: o.deleteCollectionWorkers ?? 1,
      enableGarbageCollection: o.enableGarbageCollection ?? true,
      enableWatchCache: o.enableWatchCache ?? true,
      countMetricPollPeriodMs: o.countMetricPollPeriodMs ?? 60_000,
    });
    // Parsed once here so a bad flag fails at startup rather than at the first store.
    this.#watchCacheSizes = parseWatchCacheSizes(o.watchCacheSizes ?? []);
    this.#defaultWatchCacheSize = o.defaultWatchCacheSize;
    this.#storageFactory = init.storageFactory;
    this.#createRawStorage = init.createRawStorage;
  }

  getRESTOptions(resource: GroupResource): RESTOptions {
    let storageConfig: StorageConfigForResource;
    try {
      storageConfig = this.#storageFactory.newConfig(resource);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new Error(
        `unable to find storage destination for ${groupResourceString(resource)}, due to ${why}`,
      );
    }
    const o = this.#options;
    let decorator = undecoratedStorage(this.#createRawStorage);
    if (o.enableWatchCache) {
      // A resource's own size, else --default-watch-cache-size; 0 turns the cache off for it (kube
      // ignores other per-resource sizes: the window grows on demand).
      const size = this.#watchCacheSizes.get(groupResourceString(resource)) ?? this.#defaultWatchCacheSize;
      const initial = this.#defaultWatchCacheSize;
      decorator =
        size !== undefined && size <= 0
          ? undecoratedStorage(this.#createRawStorage)
          : storageWithCacher(
              this.#createRawStorage,
              initial !== undefined && initial > 0 ? { cacheSize: initial } : {},
            );
    }
    return Object.freeze({
      storageConfig,
      decorator,
      deleteCollectionWorkers: o.deleteCollectionWorkers,
      enableGarbageCollection: o.enableGarbageCollection,
      resourcePrefix: this.#storageFactory.resourcePrefix(resource),
      countMetricPollPeriodMs: o.countMetricPollPeriodMs,
    });
  }
}
