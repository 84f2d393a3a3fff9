// HorizontalPodAutoscaler storage (pkg/registry/autoscaling/horizontalpodautoscaler/storage/storage.go):
// one store in the autoscaling/v2 form (short name hpa, category all) and its status subresource,
// served at autoscaling/v2 directly and at autoscaling/v1 through a converting view.
import type { HorizontalPodAutoscalerV1 } from '../../../api/autoscaling/v1/horizontal-pod-autoscaler.js';
import type {
  HorizontalPodAutoscaler,
  HorizontalPodAutoscalerList,
} from '../../../api/autoscaling/v2/types.js';
import type { KubeList, KubeObject } from '../../../api/meta.js';
import type { Table } from '../../../api/table.js';
import type { CoreStorageOptions } from '../../core/configmap/storage.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import { ConvertingView } from '../../generic/converting-view.js';
import { StatusREST } from '../../generic/status-rest.js';
import type { Store } from '../../generic/store.js';
import type { Getter, Storage, UpdateRequest, Updater } from '../../rest/capabilities.js';
import type { RequestContext } from '../../rest/context.js';
import type { GetOptions } from '../../rest/options.js';
import { horizontalPodAutoscalerV1Conversion } from './conversion.js';
import {
  horizontalPodAutoscalerDeleteStrategy,
  horizontalPodAutoscalerStatusStrategy,
  horizontalPodAutoscalerStrategy,
} from './strategy.js';
import { horizontalPodAutoscalerTableConvertor } from './table.js';

export const horizontalPodAutoscalerResource = {
  group: 'autoscaling',
  resource: 'horizontalpodautoscalers',
} as const;

/** `/status` at a converted version: get and update only, through the view of the status store. */
export class ConvertedStatusREST<T extends KubeObject> implements Storage, Getter, Updater {
  readonly #view: ConvertingView<T, HorizontalPodAutoscaler>;

  constructor(view: ConvertingView<T, HorizontalPodAutoscaler>) {
    this.#view = view;
  }
  newObject(): T {
    return this.#view.newObject();
  }
  destroy(): void {
    // Shared with the main resource, which releases it.
  }
  get(ctx: RequestContext, name: string, options: GetOptions): Promise<T> {
    return this.#view.get(ctx, name, options);
  }
  update(ctx: RequestContext, name: string, req: UpdateRequest): Promise<{ object: T; created: boolean }> {
    return this.#view.update(ctx, name, { ...req, forceAllowCreate: false });
  }
  convertToTable(
    ctx: RequestContext,
    obj: KubeObject | KubeList,
    opts: { includeObject?: 'None' | 'Object' | 'Metadata' },
  ): Table {
    return this.#view.convertToTable(ctx, obj, opts);
  }
}

export interface HorizontalPodAutoscalerStorage {
  /** autoscaling/v2, the storage version. */
  readonly horizontalPodAutoscalers: Store<HorizontalPodAutoscaler>;
  readonly status: StatusREST<HorizontalPodAutoscaler>;
  /** autoscaling/v1 over the same store. */
  readonly v1: ConvertingView<HorizontalPodAutoscalerV1, HorizontalPodAutoscaler>;
  readonly v1Status: ConvertedStatusREST<HorizontalPodAutoscalerV1>;
}

export async function newHorizontalPodAutoscalerREST(
  opts: CoreStorageOptions,
): Promise<HorizontalPodAutoscalerStorage> {
  const store = await completeResourceStore<HorizontalPodAutoscaler>(
    {
      qualifiedResource: horizontalPodAutoscalerResource,
      singularName: 'horizontalpodautoscaler',
      newFunc: () => ({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler' }),
      newListFunc: () =>
        ({
          apiVersion: 'autoscaling/v2',
          kind: 'HorizontalPodAutoscalerList',
          metadata: {},
          items: [],
        }) satisfies HorizontalPodAutoscalerList,
      createStrategy: horizontalPodAutoscalerStrategy,
      updateStrategy: horizontalPodAutoscalerStrategy,
      deleteStrategy: horizontalPodAutoscalerDeleteStrategy,
      tableConvertor: horizontalPodAutoscalerTableConvertor,
      shortNames: ['hpa'],
      categories: ['all'],
      // kube's autoscaler strategy keeps no metadata.generation.
      trackGeneration: false,
    },
    opts,
  );
  const statusStore = store.withStrategies({ updateStrategy: horizontalPodAutoscalerStatusStrategy });
  return {
    horizontalPodAutoscalers: store,
    status: new StatusREST(store, horizontalPodAutoscalerStatusStrategy),
    v1: new ConvertingView(store, horizontalPodAutoscalerV1Conversion),
    v1Status: new ConvertedStatusREST(new ConvertingView(statusStore, horizontalPodAutoscalerV1Conversion)),
  };
}
