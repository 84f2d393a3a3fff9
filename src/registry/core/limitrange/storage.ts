// LimitRange storage (pkg/registry/core/limitrange/storage/storage.go): the generic Store under
// `/limitranges`, short name `limits`. kube has no printer for it: `kubectl get` shows the default
// NAME and CREATED AT columns.
import type { LimitRange, LimitRangeList } from '../../../api/core/v1/limit-range.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import type { Store } from '../../generic/store.js';
import { newDefaultTableConvertor } from '../../generic/table-convertor.js';
import type { CoreStorageOptions } from '../configmap/storage.js';
import { limitRangeDeleteStrategy, limitRangeStrategy } from './strategy.js';

export const limitRangeResource = { group: '', resource: 'limitranges' } as const;

export function newLimitRangeREST(opts: CoreStorageOptions): Promise<Store<LimitRange>> {
  return completeResourceStore<LimitRange>(
    {
      qualifiedResource: limitRangeResource,
      singularName: 'limitrange',
      newFunc: () => ({ apiVersion: 'v1', kind: 'LimitRange' }),
      newListFunc: () =>
        ({ apiVersion: 'v1', kind: 'LimitRangeList', metadata: {}, items: [] }) satisfies LimitRangeList,
      createStrategy: limitRangeStrategy,
      updateStrategy: limitRangeStrategy,
      deleteStrategy: limitRangeDeleteStrategy,
      tableConvertor: newDefaultTableConvertor(limitRangeResource),
      shortNames: ['limits'],
      trackGeneration: false,
    },
    opts,
  );
}
