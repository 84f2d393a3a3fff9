// The simulated cluster's external provisioner, in the manner of sig-storage-lib-external-provisioner
// (the library of csi-provisioner and kind's local-path-provisioner): it creates StorageClass
// `standard`, the default, when no class is; provisions a volume `pvc-<claim uid>` for each Pending
// claim the PV controller annotated with its name (volume.kubernetes.io/storage-provisioner),
// pre-bound to the claim through claimRef (the PV controller then binds both); and deletes a volume
// it provisioned once it is Released with reclaim policy Delete. Nothing is stored anywhere.
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import {
  isDefaultStorageClass,
  isDefaultStorageClassAnnotation,
  type StorageClass,
} from '../../../api/storage/v1/storage-class.js';
import type { APIClient } from '../simulation/api-client.js';
import { keyOf } from '../simulation/informer.js';
import { objectRef } from '../simulation/pod-control.js';
import { WorkLoop } from '../simulation/work-loop.js';
import { simulatedProvisioner, type PersistentVolumeControllerOptions } from './pv-controller.js';
import {
  annBetaStorageProvisioner,
  annDynamicallyProvisioned,
  annStorageProvisioner,
  claimClass,
  rethrowUnless,
} from './volume-util.js';

/** kind's default class, by name and policy. */
export const defaultStorageClassName = 'standard';
/** The key that creates the default class, beside claim keys (namespace/name) and volume keys. */
const defaultClassKey = '#default-class';
const volumeKeyPrefix = 'pv:';

/** What the PV controller works from: the same informers, client and recorder. */
export type SimulatedProvisionerOptions = PersistentVolumeControllerOptions;

/** The claim waits for this provisioner (either annotation names it). */
const waitsForUs = (claim: PersistentVolumeClaim): boolean => {
  const annotations = claim.metadata?.annotations ?? {};
  return (
    annotations[annStorageProvisioner] === simulatedProvisioner ||
    annotations[annBetaStorageProvisioner] === simulatedProvisioner
  );
};

/** shouldDelete: provisioned here, Released, reclaim policy Delete, not already going. */
const deletable = (pv: PersistentVolume): boolean =>
  pv.metadata?.annotations?.[annDynamicallyProvisioned] === simulatedProvisioner &&
  pv.status?.phase === 'Released' &&
  pv.spec?.persistentVolumeReclaimPolicy === 'Delete' &&
  pv.metadata.deletionTimestamp === undefined;

export class SimulatedProvisioner {
  readonly #opts: SimulatedProvisionerOptions;
  readonly #client: APIClient;
  readonly #loop: WorkLoop;

  constructor(opts: SimulatedProvisionerOptions) {
    this.#opts = opts;
    this.#client = opts.client.as('capstan-simulated-provisioner');
    this.#loop = new WorkLoop({
      queueName: 'simulated_provisioner',
      workqueueMetrics: opts.workqueueMetrics,

      name: 'simulated-provisioner',
      logger: opts.logger,
      sync: (k) => this.#sync(k),
    });
    opts.claims.addHandler((type, claim) => {
      if (type !== 'DELETED' && waitsForUs(claim)) this.#loop.queue.add(keyOf(claim));
    });
    opts.volumes.addHandler((type, pv) => {
      if (type !== 'DELETED' && deletable(pv)) this.#loop.queue.add(volumeKeyPrefix + keyOf(pv));
    });
  }

  run(): void {
    this.#loop.run();
    this.#loop.queue.add(defaultClassKey);
    for (const claim of this.#opts.claims.list()) if (waitsForUs(claim)) this.#loop.queue.add(keyOf(claim));
    for (const pv of this.#opts.volumes.list())
      if (deletable(pv)) this.#loop.queue.add(volumeKeyPrefix + keyOf(pv));
  }

  close(): Promise<void> {
    return this.#loop.close();
  }

  async #sync(key: string): Promise<void> {
    if (key === defaultClassKey) await this.#ensureDefaultClass();
    else if (key.startsWith(volumeKeyPrefix)) await this.#deleteVolume(key.slice(volumeKeyPrefix.length));
    else await this.#provision(key);
  }

  async #ensureDefaultClass(): Promise<void> {
    if (this.#opts.classes.list().some(isDefaultStorageClass)) return;
    const sc: StorageClass = {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: {
        name: defaultStorageClassName,
        annotations: { [isDefaultStorageClassAnnotation]: 'true' },
      },
      provisioner: simulatedProvisioner,
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'Immediate',
    };
    try {
      await this.#client.create('storage.k8s.io/v1/storageclasses', '', sc);
    } catch (err) {
      // A class of that name that is not the default is the user's: left as it is.
      rethrowUnless(err, 'AlreadyExists');
    }
  }

  async #provision(key: string): Promise<void> {
    const claim = this.#opts.claims.get(key);
    if (claim === undefined || !waitsForUs(claim) || claim.metadata?.deletionTimestamp !== undefined) return;
    if ((claim.spec?.volumeName ?? '') !== '' || claim.status?.phase === 'Bound') return;
    const sc = this.#opts.classes.get(claimClass(claim));
    if (sc?.provisioner !== simulatedProvisioner) return;
    const name = `pvc-${claim.metadata?.uid ?? ''}`;
    if (this.#opts.volumes.get(name) !== undefined) return;
    this.#event(claim, {
      reason: 'Provisioning',
      message: `External provisioner is provisioning volume for claim "${key}"`,
    });
    try {
      await this.#client.create('/v1/persistentvolumes', '', newVolume(claim, { name, sc }));
    } catch (err) {
      rethrowUnless(err, 'AlreadyExists');
      return;
    }
    this.#event(claim, {
      reason: 'ProvisioningSucceeded',
      message: `Successfully provisioned volume ${name}`,
    });
  }

  #event(claim: PersistentVolumeClaim, e: { reason: string; message: string }): void {
    this.#opts.recorder?.event(objectRef(claim, { apiVersion: 'v1', kind: 'PersistentVolumeClaim' }), {
      type: 'Normal',
      ...e,
    });
  }

  async #deleteVolume(name: string): Promise<void> {
    const pv = this.#opts.volumes.get(name);
    if (pv === undefined || !deletable(pv)) return;
    const uid = pv.metadata?.uid;
    try {
      await this.#client.delete(
        '/v1/persistentvolumes',
        { namespace: '', name },
        uid === undefined ? {} : { preconditions: { uid } },
      );
    } catch (err) {
      rethrowUnless(err, 'NotFound', 'Conflict');
    }
  }
}

/** The volume for a claim, pre-bound to it (the external provisioner's ProvisionOptions → PV). */
function newVolume(claim: PersistentVolumeClaim, at: { name: string; sc: StorageClass }): PersistentVolume {
  const meta = claim.metadata ?? {};
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: at.name, annotations: { [annDynamicallyProvisioned]: simulatedProvisioner } },
    spec: {
      capacity: { storage: claim.spec?.resources?.requests?.['storage'] ?? '0' },
      accessModes: [...(claim.spec?.accessModes ?? [])],
      volumeMode: claim.spec?.volumeMode ?? 'Filesystem',
      claimRef: {
        kind: 'PersistentVolumeClaim',
        namespace: meta.namespace ?? '',
        name: meta.name ?? '',
        uid: meta.uid ?? '',
        apiVersion: 'v1',
        resourceVersion: meta.resourceVersion ?? '',
      },
      storageClassName: at.sc.metadata?.name ?? '',
      persistentVolumeReclaimPolicy: at.sc.reclaimPolicy ?? 'Delete',
      ...(at.sc.mountOptions === undefined ? {} : { mountOptions: [...at.sc.mountOptions] }),
      // hostPath, as kind's local-path-provisioner writes, rather than csi: kube's validation
      // (ValidateCSIDriverName) refuses a driver name with a '/', such as capstan.dev/simulated.
      // The simulated kubelets mount nothing, so no directory is made.
      hostPath: { path: `/var/lib/capstan/simulated-volumes/${at.name}`, type: 'DirectoryOrCreate' },
    },
  };
}
