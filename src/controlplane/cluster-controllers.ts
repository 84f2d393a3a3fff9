// The controllers of kube-controller-manager that Capstan runs built in and once per cluster: on the
// replica holding their Lease (src/controlplane/replicas), each under the post-start hook of its name.
import { admittedGroups } from '../admission/admitted-storage.js';
import { managedFieldsGroups } from '../endpoints/fieldmanager/managed-storage.js';
import type { AdmissionChain } from '../admission/chain.js';
import type { APIGroupInfo } from '../registry/rest/api-group-info.js';
import type { CompletedServerRunOptions } from '../server/options/complete.js';
import type { WorkqueueMetricsProvider } from '../server/metrics/workqueue-metrics.js';
import {
  namespaceControllerHookName,
  rootCACertPublisherHookName,
  serviceAccountsControllerHookName,
  serviceAccountTokensControllerHookName,
  type RunnableController,
} from './controllers/controller-hook.js';
import {
  clusterRoleAggregationControllerHookName,
  newClusterRoleAggregationController,
} from './controllers/clusterroleaggregation/clusterrole-aggregation-controller.js';
import {
  csrApprovingControllerHookName,
  newCSRApprovingController,
} from './controllers/certificates/csr-approving-controller.js';
import {
  csrCleanerControllerHookName,
  newCSRCleanerController,
} from './controllers/certificates/csr-cleaner-controller.js';
import {
  csrSigningControllerHookName,
  newCSRSigningController,
} from './controllers/certificates/csr-signing-controller.js';
import {
  GarbageCollector,
  garbageCollectorHookName,
} from './controllers/garbagecollector/garbage-collector.js';
import { loadPodStages } from './controllers/kubelet/load-pod-stages.js';
import { newNamespaceController } from './controllers/namespace/namespace-controller.js';
import {
  newResourceQuotaController,
  resourceQuotaControllerHookName,
} from './controllers/resourcequota/resource-quota-controller.js';
import { newRootCACertPublisher } from './controllers/rootcacertpublisher/publisher.js';
import { newServiceAccountsController } from './controllers/serviceaccount/serviceaccounts-controller.js';
import { newTokensController } from './controllers/serviceaccount/tokens-controller.js';
import {
  newServiceCIDRController,
  serviceCIDRControllerHookName,
} from './controllers/servicecidrs/servicecidrs-controller.js';
import { SimulatedCluster, simulatedClusterHookName } from './controllers/simulation/simulated-cluster.js';
import {
  newStorageProtectionController,
  storageProtectionControllersHookName,
} from './controllers/volumeprotection/storage-protection-controller.js';
import type { CustomResourceRoutes } from './customresources/crd-routes.js';
import type { LeaderControllers } from './replicas/leader-controllers.js';

export interface ClusterControllersInit {
  readonly once: LeaderControllers;
  /** The built-in groups, admitted: controllers write through the admission chain as clients do. */
  readonly groups: APIGroupInfo[];
  readonly customResources: CustomResourceRoutes;
  readonly admission: AdmissionChain;
  readonly options: CompletedServerRunOptions;
  /** Where the controllers' work queue metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

export interface ClusterControllers {
  /** Each controller that exists, by its post-start hook's name. */
  readonly byHook: Readonly<Record<string, RunnableController | undefined>>;
  close(): Promise<void>;
}

export function clusterControllers(init: ClusterControllersInit): ClusterControllers {
  const { once, groups, options } = init;
  const { logger, clock } = options;
  const { workqueueMetrics } = init;
  const dynamicGroups = controllerDynamicGroups(init.customResources, init.admission);
  // kube-controller-manager's root-ca-cert-publisher: kube-root-ca.crt in every namespace, when
  // there is a CA to publish (not on plain HTTP).
  const rootCA = options.caPem;
  // --simulate: nodes, kubelets, a scheduler and workload controllers (controllers/simulation).
  const stages = options.simulate ? loadPodStages(options.simulateStages) : undefined;
  const byHook: Record<string, RunnableController | undefined> = {
    [namespaceControllerHookName]: once.controller(() =>
      newNamespaceController(groups, { logger, clock, dynamicGroups, workqueueMetrics }),
    ),
    [serviceAccountsControllerHookName]: once.controller(() =>
      newServiceAccountsController(groups, { ...options, workqueueMetrics }),
    ),
    // Legacy tokens in Secrets of type kubernetes.io/service-account-token.
    [serviceAccountTokensControllerHookName]: once.controller(() =>
      newTokensController(groups, {
        signer: options.serviceAccountKeys.signer,
        rootCA,
        logger,
        workqueueMetrics,
      }),
    ),
    // pvc-protection and pv-protection: release StorageObjectInUseProtection.
    [storageProtectionControllersHookName]: once.controller(() =>
      newStorageProtectionController(groups, { logger, workqueueMetrics }),
    ),
    [rootCACertPublisherHookName]:
      rootCA === undefined
        ? undefined
        : once.controller(() => newRootCACertPublisher(groups, { rootCA, logger, workqueueMetrics })),
    // The ServiceCIDRs' finalizer and Ready condition; a deleted one waits for its IPs to go.
    [serviceCIDRControllerHookName]: once.controller(() =>
      newServiceCIDRController(groups, { logger, clock, workqueueMetrics }),
    ),
    // Aggregated ClusterRoles (admin, edit, view, …) hold the rules their selectors match.
    [clusterRoleAggregationControllerHookName]: once.controller(() =>
      newClusterRoleAggregationController(groups, { logger, workqueueMetrics }),
    ),
    // CertificateSigningRequests: issued by the cluster signing CA when there is one (else the reason
    // is logged), kubelet client requests auto-approved, old ones deleted.
    [csrSigningControllerHookName]: signingController(init),
    [csrApprovingControllerHookName]: once.controller(() =>
      newCSRApprovingController(groups, { logger, clock, workqueueMetrics }),
    ),
    [csrCleanerControllerHookName]: once.controller(() => newCSRCleanerController(groups, { logger, clock })),
    // status.hard and a recount of status.used.
    [resourceQuotaControllerHookName]: once.controller(() =>
      newResourceQuotaController(groups, { logger, workqueueMetrics }),
    ),
    // Off with --enable-garbage-collector=false.
    [garbageCollectorHookName]: options.storage.enableGarbageCollection
      ? once.controller(
          () =>
            new GarbageCollector({
              groups,
              dynamic: {
                get groups() {
                  return dynamicGroups();
                },
                onChange: (listener) => init.customResources.onChange(listener),
              },
              logger,
              workqueueMetrics,
            }),
        )
      : undefined,
    [simulatedClusterHookName]: options.simulate
      ? once.controller(
          () =>
            new SimulatedCluster({
              groups,
              nodes: options.simulateNodes,
              stages,
              podStopSeconds: options.simulatePodStopSeconds,
              terminatedPodGCThreshold: options.terminatedPodGCThreshold,
              logger,
              clock,
              dynamicGroups,
              proxyClientCert: options.proxyClientCert,
              workqueueMetrics,
            }),
        )
      : undefined,
  };
  return {
    byHook,
    close: async () => {
      // The simulation and the collector first: they write through the others' resources.
      const order = [simulatedClusterHookName, garbageCollectorHookName, resourceQuotaControllerHookName];
      for (const name of order) await byHook[name]?.close();
      for (const [name, c] of Object.entries(byHook)) if (!order.includes(name)) await c?.close();
    },
  };
}

/** csrsigning, when a CA to sign with was found (--cluster-signing-* or this server's own). */
function signingController(init: ClusterControllersInit): RunnableController | undefined {
  const { logger, clock, signingCA } = init.options;
  if ('off' in signingCA) {
    logger.v(2, signingCA.off);
    return undefined;
  }
  const { certTTLMs } = signingCA;
  for (const signer of signingCA.skipped)
    logger.v(
      2,
      'Skipping CSR signer controller because specific files were specified for other signers and not this one',
      { controller: signer },
    );
  const signers = new Map([...signingCA.signers].map(([name, loaded]) => [name, loaded.ca]));
  return init.once.controller(() =>
    newCSRSigningController(init.groups, {
      signers,
      certTTLMs,
      logger,
      clock,
      workqueueMetrics: init.workqueueMetrics,
    }),
  );
}

/**
 * The custom resources' groups as the controllers write them (as kube-controller-manager, through a
 * client): admitted, and recorded in managedFields under kube-controller-manager; made again only
 * when they change.
 */
function controllerDynamicGroups(
  routes: CustomResourceRoutes,
  chain: AdmissionChain,
): () => readonly APIGroupInfo[] {
  let from: readonly APIGroupInfo[] | undefined;
  let written: readonly APIGroupInfo[] = [];
  return () => {
    const groups = routes.groups;
    if (groups !== from) {
      const admitted = admittedGroups(groups, chain);
      const fieldManagers = routes.fieldManagers;
      written =
        fieldManagers === undefined
          ? admitted
          : managedFieldsGroups(admitted, { fieldManagers, manager: 'kube-controller-manager' });
      from = groups;
    }
    return written;
  };
}
