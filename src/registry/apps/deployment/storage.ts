// Deployment storage (pkg/registry/apps/deployment/storage/storage.go): deployments (short name
// deploy, category all), deployments/status and deployments/scale (an autoscaling/v1 Scale).
// No controller runs here: kube's deployment controller lives in kube-controller-manager, so a
// Deployment creates no ReplicaSets and its status only changes through /status.
import type { FeatureGates } from '../../../machinery/featuregate/feature-gates.js';
import { templateStrategies } from '../../core/pod/disabled-fields.js';
import type { Deployment, DeploymentList } from '../../../api/apps/v1/deployment.js';
import type { Storage } from '../../rest/capabilities.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import type { RESTOptionsGetter } from '../../generic/rest-options.js';
import type { ScaleREST } from '../../generic/scale.js';
import { StatusREST } from '../../generic/status-rest.js';
import type { ObjectCountMetric } from '../../generic/store-definition.js';
import type { Store } from '../../generic/store.js';
import { workloadScale } from '../workload/scale.js';
import { deploymentDeleteStrategy, deploymentStatusStrategy, deploymentStrategy } from './strategy.js';
import { deploymentTableConvertor } from './table.js';

export const deploymentResource = { group: 'apps', resource: 'deployments' } as const;

/** What every workload storage is built from. */
export interface WorkloadStorageOptions {
  readonly restOptionsGetter: RESTOptionsGetter;
  readonly objectCountMetric?: ObjectCountMetric;
  /** The server's feature gates (kube 1.33's defaults when unset): what they turn off leaves pod templates. */
  readonly featureGates?: FeatureGates;
}

export interface DeploymentStorage {
  readonly deployments: Store<Deployment>;
  readonly status: StatusREST<Deployment>;
  readonly scale: ScaleREST<Deployment>;
}

export async function newDeploymentREST(opts: WorkloadStorageOptions): Promise<DeploymentStorage> {
  const store = await completeResourceStore<Deployment>(
    {
      qualifiedResource: deploymentResource,
      singularName: 'deployment',
      newFunc: () => ({ apiVersion: 'apps/v1', kind: 'Deployment' }),
      newListFunc: () =>
        ({ apiVersion: 'apps/v1', kind: 'DeploymentList', metadata: {}, items: [] }) satisfies DeploymentList,
      ...templateStrategies(deploymentStrategy, opts.featureGates, (o) => o.spec?.template),
      deleteStrategy: deploymentDeleteStrategy,
      defaultGarbageCollectionPolicy: 'DeleteDependents',
      tableConvertor: deploymentTableConvertor,
      shortNames: ['deploy'],
      categories: ['all'],
      trackGeneration: true,
    },
    opts,
  );
  return {
    deployments: store,
    status: new StatusREST(store, deploymentStatusStrategy),
    scale: workloadScale(store),
  };
}

/** The storage map entries of deployments. */
export async function deploymentStorageMap(opts: WorkloadStorageOptions): Promise<Record<string, Storage>> {
  const s = await newDeploymentREST(opts);
  return { deployments: s.deployments, 'deployments/status': s.status, 'deployments/scale': s.scale };
}
