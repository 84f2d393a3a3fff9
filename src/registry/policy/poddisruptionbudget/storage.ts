// PodDisruptionBudget storage (pkg/registry/policy/poddisruptionbudget/storage/storage.go):
// `/poddisruptionbudgets` (short name pdb) and its status subresource.
import type {
  PodDisruptionBudget,
  PodDisruptionBudgetList,
} from '../../../api/policy/v1/pod-disruption-budget.js';
import { newStoreWithStatus } from '../../generic/resource-storage.js';
import type { StatusREST } from '../../generic/status-rest.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../../core/configmap/storage.js';
import {
  podDisruptionBudgetDeleteStrategy,
  podDisruptionBudgetStatusStrategy,
  podDisruptionBudgetStrategy,
} from './strategy.js';
import { podDisruptionBudgetTableConvertor } from './table.js';

export const podDisruptionBudgetResource = { group: 'policy', resource: 'poddisruptionbudgets' } as const;

export interface PodDisruptionBudgetStorage {
  readonly podDisruptionBudgets: Store<PodDisruptionBudget>;
  readonly status: StatusREST<PodDisruptionBudget>;
}

export async function newPodDisruptionBudgetREST(
  opts: CoreStorageOptions,
): Promise<PodDisruptionBudgetStorage> {
  const { store, status } = await newStoreWithStatus<PodDisruptionBudget>(
    {
      qualifiedResource: podDisruptionBudgetResource,
      singularName: 'poddisruptionbudget',
      newFunc: () => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget' }),
      newListFunc: () =>
        ({
          apiVersion: 'policy/v1',
          kind: 'PodDisruptionBudgetList',
          metadata: {},
          items: [],
        }) satisfies PodDisruptionBudgetList,
      createStrategy: podDisruptionBudgetStrategy,
      updateStrategy: podDisruptionBudgetStrategy,
      deleteStrategy: podDisruptionBudgetDeleteStrategy,
      tableConvertor: podDisruptionBudgetTableConvertor,
      shortNames: ['pdb'],
      trackGeneration: true,
    },
    opts,
    { statusStrategy: podDisruptionBudgetStatusStrategy },
  );
  return { podDisruptionBudgets: store, status };
}
