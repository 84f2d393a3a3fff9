// The storage most built-in resources are made of: the generic Store completed from its definition
// with the RESTOptions getter and object-count metric every storage provider hands over, and, for a
// resource with a `/status` subresource, the StatusREST over that same store (the NewREST functions
// of kube's pkg/registry/<group>/<resource>/storage/storage.go).
import type { KubeObject } from '../../api/meta.js';
import type { UpdateStrategy } from '../rest/strategy.js';
import { completeWithOptions } from './complete.js';
import type { RESTOptionsGetter } from './rest-options.js';
import { StatusREST } from './status-rest.js';
import type { Store } from './store.js';
import type { ObjectCountMetric, StoreDefinition, StoreOptions } from './store-definition.js';

/** What a storage provider passes to every resource's storage. */
export interface ResourceStorageOptions {
  readonly restOptionsGetter: RESTOptionsGetter;
  readonly objectCountMetric?: ObjectCountMetric;
}

/** The store options besides those taken from ResourceStorageOptions (attrFunc, triggerFuncs). */
export type ExtraStoreOptions<T extends KubeObject> = Omit<
  StoreOptions<T>,
  'restOptions' | 'objectCountMetric'
>;

/** A resource's store and its `/status` subresource. */
export interface StoreWithStatus<T extends KubeObject> {
  readonly store: Store<T>;
  readonly status: StatusREST<T>;
}

/** completeWithOptions with the provider's RESTOptions getter and object-count metric. */
export function completeResourceStore<T extends KubeObject>(
  definition: StoreDefinition<T>,
  opts: ResourceStorageOptions,
  storeOptions: ExtraStoreOptions<T> = {},
): Promise<Store<T>> {
  return completeWithOptions<T>(definition, {
    ...storeOptions,
    restOptions: opts.restOptionsGetter,
    ...(opts.objectCountMetric !== undefined ? { objectCountMetric: opts.objectCountMetric } : {}),
  });
}

/** The completed store and a StatusREST updating through it with `statusStrategy`. */
export async function newStoreWithStatus<T extends KubeObject>(
  definition: StoreDefinition<T>,
  opts: ResourceStorageOptions,
  extra: ExtraStoreOptions<T> & { readonly statusStrategy: UpdateStrategy<T> },
): Promise<StoreWithStatus<T>> {
  const { statusStrategy, ...storeOptions } = extra;
  const store = await completeResourceStore(definition, opts, storeOptions);
  return { store, status: new StatusREST(store, statusStrategy) };
}
