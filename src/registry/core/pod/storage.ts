// Pod storage (pkg/registry/core/pod/storage/storage.go): pods (short name po, category all),
// pods/status, pods/binding. Stored under /registry/pods/<namespace>/<name>.
import type { Pod, PodList } from '../../../api/core/v1/pod.js';
import type { KubeList, KubeObject } from '../../../api/meta.js';
import type { Table } from '../../../api/table.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import type { Store } from '../../generic/store.js';
import type { Getter, Storage, UpdateRequest, Updater } from '../../rest/capabilities.js';
import type { RequestContext } from '../../rest/context.js';
import type { GetOptions } from '../../rest/options.js';
import type { CoreStorageOptions } from '../configmap/storage.js';
import { BindingREST } from './binding.js';
import { podAttrs, podFieldLabelConversion, podTriggerFuncs } from './fields.js';
import { podDeleteStrategy, podStatusStrategy, podStrategy } from './strategy.js';
import { podTableConvertor } from './table.js';

export const podResource = { group: '', resource: 'pods' } as const;

type IncludeObject = { includeObject?: 'None' | 'Object' | 'Metadata' };

/** pods/status: get and update the status; the storage belongs to the pods store. */
export class PodStatusREST implements Storage, Getter, Updater {
  readonly #store: Store<Pod>;

  constructor(store: Store<Pod>) {
    this.#store = store;
  }
  newObject(): Pod {
    return this.#store.newObject();
  }
  destroy(): void {
    // Shared with the main resource, which releases it.
  }
  get(ctx: RequestContext, name: string, options: GetOptions): Promise<Pod> {
    return this.#store.get(ctx, name, options);
  }
  update(ctx: RequestContext, name: string, req: UpdateRequest): Promise<{ object: Pod; created: boolean }> {
    return this.#store.update(ctx, name, { ...req, forceAllowCreate: false });
  }
  convertToTable(ctx: RequestContext, obj: KubeObject | KubeList, opts: IncludeObject): Table {
    return this.#store.convertToTable(ctx, obj, opts);
  }
}

export interface PodStorage {
  readonly pods: Store<Pod>;
  readonly status: PodStatusREST;
  readonly binding: BindingREST;
}

export async function newPodREST(opts: CoreStorageOptions): Promise<PodStorage> {
  const store = await completeResourceStore<Pod>(
    {
      qualifiedResource: podResource,
      singularName: 'pod',
      newFunc: () => ({ apiVersion: 'v1', kind: 'Pod' }),
      newListFunc: () => ({ apiVersion: 'v1', kind: 'PodList', metadata: {}, items: [] }) satisfies PodList,
      createStrategy: podStrategy,
      updateStrategy: podStrategy,
      deleteStrategy: podDeleteStrategy,
      returnDeletedObject: true,
      tableConvertor: podTableConvertor,
      fieldLabelConversion: podFieldLabelConversion,
      shortNames: ['po'],
      categories: ['all'],
      trackGeneration: true,
    },
    opts,
    { attrFunc: podAttrs, triggerFuncs: podTriggerFuncs },
  );
  return {
    pods: store,
    status: new PodStatusREST(store.withStrategies({ updateStrategy: podStatusStrategy })),
    binding: new BindingREST(store),
  };
}
