// Store.CompleteWithOptions (k8s.io/apiserver/pkg/registry/generic/registry/store.go): refuses an
// incomplete definition with kube's texts, fills in the defaults, and builds the storage through the
// RESTOptions decorator.
import type { KubeList, KubeObject } from '../../api/meta.js';
import { groupResourceString } from '../../machinery/schema/group-resource.js';
import { goQuote } from '../../machinery/validation/index.js';
import type { RawStorage } from '../../storage/backend-factory/config.js';
import type { Interface } from '../../storage/interfaces.js';
import type { TableConvertor } from '../rest/capabilities.js';
import { internalContext } from '../rest/context.js';
import type { AttrFunc } from '../rest/strategy.js';
import { startObservingCount } from './count-observer.js';
import { DryRunnableStorage } from './dry-run.js';
import {
  namespaceKeyFunc,
  namespaceKeyRootFunc,
  noNamespaceKeyFunc,
  type KeyFunc,
  type KeyRootFunc,
} from './keys.js';
import { simpleNameGenerator } from './name-generator.js';
import {
  defaultClusterScopedAttr,
  defaultFieldLabelConversion,
  defaultNamespaceScopedAttr,
  selectionPredicate,
} from './predicate.js';
import type { RESTOptions, RESTOptionsGetter } from './rest-options.js';
import { Store } from './store.js';
import { brandCore, type StoreCore } from './store-core.js';
import type { StoreDefinition, StoreOptions } from './store-definition.js';
import { systemClock } from '../../machinery/time/clock.js';

/** Stands in for kube's %#v of the store: the definition's identifying fields. */
function describe(def: Pick<StoreDefinition, 'qualifiedResource' | 'singularName'>): string {
  const qr = def.qualifiedResource;
  return `{qualifiedResource: ${goQuote(groupResourceString(qr))}, singularName: ${goQuote(def.singularName)}}`;
}

/** The checks of CompleteWithOptions, in kube's order; returns whether the kind is namespaced. */
function checkDefinition<T extends KubeObject>(def: StoreDefinition<T>, options: StoreOptions<T>): boolean {
  if (def.qualifiedResource.resource === '')
    throw new Error(`store ${describe(def)} must have a non-empty qualified resource`);
  if (def.singularName === '')
    throw new Error(`store ${describe(def)} must have a non-empty singular qualified resource`);
  const qr = groupResourceString(def.qualifiedResource);
  if (def.newFunc === undefined) throw new Error(`store for ${qr} must have NewFunc set`);
  if (def.newListFunc === undefined) throw new Error(`store for ${qr} must have NewListFunc set`);
  if ((def.keyRootFunc === undefined) !== (def.keyFunc === undefined)) {
    throw new Error(`store for ${qr} must set both KeyRootFunc and KeyFunc or neither`);
  }
  if (def.tableConvertor === undefined) {
    throw new Error(
      `store for ${qr} must set TableConvertor; rest.NewDefaultTableConvertor(e.DefaultQualifiedResource) can be used to output just name/creation time`,
    );
  }
  const strategy = def.createStrategy ?? def.updateStrategy;
  if (strategy === undefined)
    throw new Error(`store for ${qr} must have CreateStrategy or UpdateStrategy set`);
  if (def.deleteStrategy === undefined) throw new Error(`store for ${qr} must have DeleteStrategy set`);
  if (options.restOptions === undefined) throw new Error(`options for ${qr} must have RESTOptions set`);
  return strategy.namespaceScoped;
}

function resourcePrefix(def: Pick<StoreDefinition, 'qualifiedResource'>, opts: RESTOptions): string {
  const prefix = opts.resourcePrefix.startsWith('/') ? opts.resourcePrefix : `/${opts.resourcePrefix}`;
  if (prefix === '/') {
    throw new Error(
      `store for ${groupResourceString(def.qualifiedResource)} has an invalid prefix ${goQuote(opts.resourcePrefix)}`,
    );
  }
  return prefix;
}

function defaultKeyFuncs(
  namespaced: boolean,
  prefix: string,
): { keyFunc: KeyFunc; keyRootFunc: KeyRootFunc } {
  if (namespaced) {
    return {
      keyRootFunc: (ctx) => namespaceKeyRootFunc(ctx, prefix),
      keyFunc: (ctx, name) => namespaceKeyFunc(ctx, prefix, name),
    };
  }
  return { keyRootFunc: () => prefix, keyFunc: (ctx, name) => noNamespaceKeyFunc(ctx, prefix, name) };
}

/** Runs `stop` and then `release` once, however often it is called. */
function once(stop: () => void, release: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => {
    done ??= (async () => {
      stop();
      await release();
    })();
    return done;
  };
}

interface Wiring<T extends KubeObject> {
  readonly def: StoreDefinition<T>;
  readonly options: StoreOptions<T>;
  readonly opts: RESTOptions;
  readonly prefix: string;
  readonly namespaced: boolean;
  readonly keys: { keyFunc: KeyFunc; keyRootFunc: KeyRootFunc };
  readonly attrFunc: AttrFunc<T>;
}

/** The storage through the RESTOptions decorator, and the count poller over it. */
async function buildStorage<T extends KubeObject>(
  w: Wiring<T>,
): Promise<{ raw: RawStorage; stopCount: () => void }> {
  const { def, options, opts, keys, namespaced } = w;
  // The decorator (watch cache) computes keys from objects without a request at hand.
  const objectKeyFunc = (obj: KubeObject): string =>
    keys.keyFunc(
      internalContext({ namespace: namespaced ? (obj.metadata?.namespace ?? '') : '' }),
      obj.metadata?.name ?? '',
    );
  const raw = await opts.decorator({
    config: opts.storageConfig,
    resourcePrefix: w.prefix,
    keyFunc: objectKeyFunc,
    newFunc: def.newFunc as () => KubeObject,
    newListFunc: def.newListFunc as () => KubeList,
    attrFunc: w.attrFunc as AttrFunc,
    ...(options.triggerFuncs !== undefined ? { triggerFuncs: options.triggerFuncs } : {}),
  });
  const metric = options.objectCountMetric;
  const stopCount =
    opts.countMetricPollPeriodMs > 0 && metric !== undefined
      ? startObservingCount({
          storage: raw.storage,
          keyRoot: keys.keyRootFunc(internalContext()),
          resource: groupResourceString(def.qualifiedResource),
          periodMs: opts.countMetricPollPeriodMs,
          metric,
        })
      : () => undefined;
  return { raw, stopCount };
}

/** The completed state from the definition, its wiring and its storage. */
function coreOf<T extends KubeObject>(
  w: Wiring<T>,
  built: { raw: RawStorage; stopCount: () => void },
): StoreCore<T> {
  const { def, opts, attrFunc } = w;
  const newFunc = def.newFunc as () => T;
  const workers = def.deleteCollectionWorkers ?? 0;
  return brandCore<T>({
    qualifiedResource: def.qualifiedResource,
    qualifiedKind: { group: def.qualifiedResource.group, kind: newFunc().kind ?? '' },
    singularName: def.singularName,
    namespaced: w.namespaced,
    newFunc,
    newListFunc: def.newListFunc as () => KubeList<T>,
    ...w.keys,
    predicateFunc: def.predicateFunc ?? ((sel) => selectionPredicate({ ...sel, attrFunc })),
    attrFunc,
    fieldLabelConversion: def.fieldLabelConversion ?? defaultFieldLabelConversion,
    createStrategy: def.createStrategy,
    updateStrategy: def.updateStrategy,
    deleteStrategy: def.deleteStrategy ?? {},
    nameGenerator: def.nameGenerator ?? simpleNameGenerator,
    defaultGarbageCollectionPolicy: def.defaultGarbageCollectionPolicy,
    enableGarbageCollection: opts.enableGarbageCollection,
    deleteCollectionWorkers: workers > 0 ? workers : opts.deleteCollectionWorkers,
    returnDeletedObject: def.returnDeletedObject ?? false,
    shouldDeleteDuringUpdate: def.shouldDeleteDuringUpdate,
    tableConvertor: def.tableConvertor as TableConvertor,
    shortNames: def.shortNames ?? [],
    categories: def.categories ?? [],
    ttlFunc: def.ttlFunc,
    trackGeneration: def.trackGeneration ?? true,
    // The decorator serves any kind; this store only ever stores its own.
    storage: new DryRunnableStorage(built.raw.storage as unknown as Interface<T>),
    clock: w.opts.storageConfig.clock ?? systemClock,
    destroy: once(built.stopCount, () => built.raw.destroy()),
  });
}

/** Validates the definition, builds its storage from the RESTOptions, and returns the ready Store. */
export async function completeWithOptions<T extends KubeObject>(
  def: StoreDefinition<T>,
  options: StoreOptions<T>,
): Promise<Store<T>> {
  const namespaced = checkDefinition(def, options);
  const attrFunc: AttrFunc<T> =
    options.attrFunc ?? (namespaced ? defaultNamespaceScopedAttr : defaultClusterScopedAttr);
  const getter = options.restOptions as RESTOptionsGetter;
  const opts = getter.getRESTOptions(def.qualifiedResource);
  const prefix = resourcePrefix(def, opts);
  const keys =
    def.keyFunc !== undefined && def.keyRootFunc !== undefined
      ? { keyFunc: def.keyFunc, keyRootFunc: def.keyRootFunc }
      : defaultKeyFuncs(namespaced, prefix);
  const wiring: Wiring<T> = { def, options, opts, prefix, namespaced, keys, attrFunc };
  return new Store(coreOf(wiring, await buildStorage(wiring)));
}
