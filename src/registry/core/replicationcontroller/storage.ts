// ReplicationController storage (pkg/registry/core/replicationcontroller/storage/storage.go): the
// generic Store under `/controllers` (the storage factory's prefix), short name `rc`, category
// `all`, with `status` and `scale` (autoscaling/v1 Scale) subresources.
import { templateStrategies } from '../pod/disabled-fields.js';
import type {
  ReplicationController,
  ReplicationControllerList,
} from '../../../api/core/v1/replication-controller.js';
import { selectorFromSet } from '../../../machinery/labels/index.js';
import { newStoreWithStatus } from '../../generic/resource-storage.js';
import { ScaleREST, specReplicasPaths } from '../../generic/scale.js';
import type { StatusREST } from '../../generic/status-rest.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../configmap/storage.js';
import { replicationControllerAttrs, replicationControllerFieldLabelConversion } from './fields.js';
import {
  replicationControllerDeleteStrategy,
  replicationControllerStatusStrategy,
  replicationControllerStrategy,
} from './strategy.js';
import { replicationControllerTableConvertor } from './table.js';

export const replicationControllerResource = { group: '', resource: 'replicationcontrollers' } as const;

export interface ReplicationControllerStorage {
  readonly replicationControllers: Store<ReplicationController>;
  readonly status: StatusREST<ReplicationController>;
  readonly scale: ScaleREST<ReplicationController>;
}

/** scaleFromRC: spec.replicas, status.replicas and the selector's string form. */
function newScaleREST(store: Store<ReplicationController>): ScaleREST<ReplicationController> {
  return new ScaleREST<ReplicationController>({
    store,
    toScale: (rc) => ({
      spec: { replicas: rc.spec?.replicas ?? 0 },
      status: { replicas: rc.status?.replicas ?? 0, selector: selectorFromSet(rc.spec?.selector).toString() },
    }),
    applyScale: (rc, replicas) => {
      rc.spec = { ...rc.spec, replicas };
      return rc;
    },
    notFoundResource: { group: 'autoscaling', resource: 'replicationcontrollers/scale' },
    replicasOwners: { apiVersion: 'v1', paths: specReplicasPaths('v1') },
  });
}

export async function newReplicationControllerREST(
  opts: CoreStorageOptions,
): Promise<ReplicationControllerStorage> {
  const { store, status } = await newStoreWithStatus<ReplicationController>(
    {
      qualifiedResource: replicationControllerResource,
      singularName: 'replicationcontroller',
      newFunc: () => ({ apiVersion: 'v1', kind: 'ReplicationController' }),
      newListFunc: () =>
        ({
          apiVersion: 'v1',
          kind: 'ReplicationControllerList',
          metadata: {},
          items: [],
        }) satisfies ReplicationControllerList,
      ...templateStrategies(replicationControllerStrategy, opts.featureGates, (o) => o.spec?.template),
      deleteStrategy: replicationControllerDeleteStrategy,
      tableConvertor: replicationControllerTableConvertor,
      fieldLabelConversion: replicationControllerFieldLabelConversion,
      shortNames: ['rc'],
      categories: ['all'],
      trackGeneration: true,
    },
    opts,
    { attrFunc: replicationControllerAttrs, statusStrategy: replicationControllerStatusStrategy },
  );
  return {
    replicationControllers: store,
    status,
    scale: newScaleREST(store),
  };
}
