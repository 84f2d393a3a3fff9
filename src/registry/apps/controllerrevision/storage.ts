// ControllerRevision storage (pkg/registry/apps/controllerrevision/storage/storage.go): no status,
// no short name, not in the `all` category.
import type { ControllerRevision, ControllerRevisionList } from '../../../api/apps/v1/controller-revision.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import type { Storage } from '../../rest/capabilities.js';
import type { WorkloadStorageOptions } from '../deployment/storage.js';
import { controllerRevisionDeleteStrategy, controllerRevisionStrategy } from './strategy.js';
import { controllerRevisionTableConvertor } from './table.js';

export const controllerRevisionResource = { group: 'apps', resource: 'controllerrevisions' } as const;

export async function controllerRevisionStorageMap(
  opts: WorkloadStorageOptions,
): Promise<Record<string, Storage>> {
  const store = await completeResourceStore<ControllerRevision>(
    {
      qualifiedResource: controllerRevisionResource,
      singularName: 'controllerrevision',
      newFunc: () => ({ apiVersion: 'apps/v1', kind: 'ControllerRevision', revision: 0 }),
      newListFunc: () =>
        ({
          apiVersion: 'apps/v1',
          kind: 'ControllerRevisionList',
          metadata: {},
          items: [],
        }) satisfies ControllerRevisionList,
      createStrategy: controllerRevisionStrategy,
      updateStrategy: controllerRevisionStrategy,
      deleteStrategy: controllerRevisionDeleteStrategy,
      tableConvertor: controllerRevisionTableConvertor,
      trackGeneration: false,
    },
    opts,
  );
  return { controllerrevisions: store };
}
