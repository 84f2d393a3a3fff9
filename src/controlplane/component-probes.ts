// What `kubectl get componentstatuses` reports on (kube's pkg/registry/core/componentstatus). kube
// probes the scheduler's and the controller manager's /healthz and each etcd server. Capstan runs
// kube-controller-manager's controllers inside the server, on the replica holding the controllers'
// Lease, and a scheduler only with --simulate, so their probes ask whether that holder exists.
import type { ComponentProbe } from '../registry/core/componentstatus/probe.js';
import type { BackendFactory } from '../storage/backend-factory/factory.js';
import { forResource, type StorageConfig } from '../storage/backend-factory/config.js';
import type { LeaderControllers } from './replicas/leader-controllers.js';
import { controllersLeaseName, controllersLeaseNamespace } from './replicas/leader-elector.js';

/** `etcd-0` (kube's EtcdServer check): healthy, "ok", when the storage answers. */
function storageProbe(backends: BackendFactory, config: StorageConfig): ComponentProbe {
  const probe = forResource(config, { group: '', resource: 'namespaces' });
  return {
    name: 'etcd-0',
    check: async () => {
      await (await backends.backendFor(probe)).currentRevision();
      return 'ok';
    },
  };
}

/** Resolves when some replica runs the controllers; rejects saying that none does. */
async function controllersHeld(controllers: LeaderControllers): Promise<void> {
  if ((await controllers.holder()) !== undefined) return;
  throw new Error(
    `no replica holds the Lease ${controllersLeaseNamespace}/${controllersLeaseName}, so no controllers run`,
  );
}

export interface ComponentProbesInit {
  readonly backends: BackendFactory;
  readonly storage: StorageConfig;
  readonly controllers: LeaderControllers;
  /** --simulate: the scheduler runs with the controllers. */
  readonly scheduler: boolean;
}

/** scheduler, controller-manager and etcd-0, as kube names them. */
export function componentProbes(init: ComponentProbesInit): ComponentProbe[] {
  return [
    {
      name: 'scheduler',
      check: async () => {
        if (!init.scheduler) throw new Error('no scheduler runs in this server (--simulate runs one)');
        await controllersHeld(init.controllers);
        return 'ok';
      },
    },
    {
      name: 'controller-manager',
      check: async () => {
        await controllersHeld(init.controllers);
        return 'ok';
      },
    },
    storageProbe(init.backends, init.storage),
  ];
}
