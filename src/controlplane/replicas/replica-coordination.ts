// What makes replicas on one shared store one cluster, assembled for the control plane: the
// cluster identity check (before anything is served), the leader election the once-per-cluster
// controllers run under, and the lease endpoint reconciler of the `kubernetes` Service. On a local
// store (SQLite, memory: one process) it checks nothing, leads at once and leaves the endpoints to
// the bootstrap hook, as before.
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import { isCreater, isGetter, isUpdater, type Storage } from '../../registry/rest/capabilities.js';
import type { PostStartHook, PreShutdownHook } from '../../server/lifecycle/hooks.js';
import type { CompletedServerRunOptions } from '../../server/options/complete.js';
import { BackendUnavailableError, type Backend } from '../../storage/kv/backend.js';
import type { Writable } from '../bootstrap/kubernetes-service.js';
import { ensureClusterIdentity } from './cluster-identity.js';
import { LeaderControllers } from './leader-controllers.js';
import { LeaderElector } from './leader-elector.js';
import { LeaseEndpointReconciler } from './lease-endpoint-reconciler.js';

export const endpointReconcilerHookName = 'start-endpoint-reconciler';

const writable = (s: Storage | undefined): Writable | undefined =>
  s !== undefined && isCreater(s) && isGetter(s) && isUpdater(s) ? s : undefined;

export interface ReplicaCoordination {
  readonly controllers: LeaderControllers;
  /** Whether the bootstrap hook writes the `kubernetes` endpoints itself (a local store, `lease`). */
  readonly bootstrapManagesEndpoints: boolean;
  endpointHooks(
    groups: readonly APIGroupInfo[],
    at: { readonly endpointIP: string; readonly servingPort: () => number },
  ): { postStart: Record<string, PostStartHook>; preShutdown: Record<string, PreShutdownHook> };
  close(): Promise<void>;
}

/**
 * Checks the cluster identity (throws ClusterIdentityMismatchError), then builds the elector and the
 * controllers' gate. A store that does not answer is not checked: the server starts with a red
 * /readyz, as it would without replicas.
 */
export async function replicaCoordination(
  options: CompletedServerRunOptions,
  shared: { readonly backend: Backend; readonly prefix: string },
): Promise<ReplicaCoordination> {
  const { backend, prefix } = shared;
  try {
    await ensureClusterIdentity(backend, prefix, options);
  } catch (err) {
    if (!(err instanceof BackendUnavailableError)) throw err;
    options.logger.warn('storage unreachable: the cluster identity was not checked', { err: err.message });
  }
  const controllers = new LeaderControllers();
  controllers.attach(
    new LeaderElector({
      backend,
      prefix,
      timings: options.replicas.leaderElection,
      clock: options.clock,
      logger: options.logger,
      callbacks: controllers.callbacks,
    }),
  );
  const useLeases = options.replicas.endpointReconcilerType === 'lease' && backend.sessions !== undefined;
  let reconciler: LeaseEndpointReconciler | undefined;
  return {
    controllers,
    bootstrapManagesEndpoints: options.replicas.endpointReconcilerType === 'lease' && !useLeases,
    endpointHooks: (groups, at) => {
      const core = groups.find((g) => g.group === '')?.versionedResourcesStorageMap['v1'];
      if (!useLeases || writable(core?.services) === undefined) return { postStart: {}, preShutdown: {} };
      const slices = groups.find((g) => g.group === 'discovery.k8s.io')?.versionedResourcesStorageMap['v1'];
      const r = new LeaseEndpointReconciler({
        backend,
        prefix,
        ip: at.endpointIP,
        port: at.servingPort,
        ttlMs: options.replicas.masterLeaseTTLMs,
        clock: options.clock,
        logger: options.logger,
        endpoints: writable(core?.endpoints),
        endpointSlices: writable(slices?.endpointslices),
      });
      reconciler = r;
      return {
        postStart: {
          [endpointReconcilerHookName]: () => {
            r.start();
            return Promise.resolve();
          },
        },
        preShutdown: { [endpointReconcilerHookName]: () => r.stop() },
      };
    },
    close: async () => {
      await reconciler?.stop();
      await controllers.close();
    },
  };
}
