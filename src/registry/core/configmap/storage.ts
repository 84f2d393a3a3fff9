// ConfigMap storage (pkg/registry/core/configmap/storage/storage.go): the generic Store with the
// ConfigMap strategies, short name `cm`.
import type { FeatureGates } from '../../../machinery/featuregate/feature-gates.js';
import type { ConfigMap, ConfigMapList } from '../../../api/core/v1/config-map.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import type { RESTOptionsGetter } from '../../generic/rest-options.js';
import type { Store } from '../../generic/store.js';
import type { ObjectCountMetric } from '../../generic/store-definition.js';
import { configMapDeleteStrategy, configMapStrategy } from './strategy.js';
import { configMapTableConvertor } from './table.js';

/** What every core resource storage is built from. */
export interface CoreStorageOptions {
  readonly restOptionsGetter: RESTOptionsGetter;
  readonly objectCountMetric?: ObjectCountMetric;
  /** The server's feature gates (kube 1.33's defaults when unset). */
  readonly featureGates?: FeatureGates;
}

export const configMapResource = { group: '', resource: 'configmaps' } as const;

export function newConfigMapREST(opts: CoreStorageOptions): Promise<Store<ConfigMap>> {
  return completeResourceStore<ConfigMap>(
    {
      qualifiedResource: configMapResource,
      singularName: 'configmap',
      newFunc: () => ({ apiVersion: 'v1', kind: 'ConfigMap' }),
      newListFunc: () =>
        ({
          apiVersion: 'v1',
          kind: 'ConfigMapList',
          metadata: {},
          items: [],
        }) satisfies ConfigMapList,
      createStrategy: configMapStrategy,
      updateStrategy: configMapStrategy,
      deleteStrategy: configMapDeleteStrategy,
      tableConvertor: configMapTableConvertor,
      shortNames: ['cm'],
      // kube gives ConfigMaps no metadata.generation.
      trackGeneration: false,
    },
    opts,
  );
}
