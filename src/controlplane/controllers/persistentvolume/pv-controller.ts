// kube-controller-manager's PersistentVolume controller, the binder (pkg/controller/volume/
// persistentvolume/pv_controller.go): a Pending claim is bound to a volume pre-bound to it or to the
// best Available one (findMatchingVolume); else, when its class names an external provisioner this
// cluster runs (capstan.dev/simulated), it is annotated for that provisioner (provisionClaim). A claim
// of a WaitForFirstConsumer class waits (an event says so) for the scheduler, which binds a volume to
// it or gives it the node to provision one on. A volume with no claimRef goes Available; one whose claim is gone goes Released (reclaiming it is the
// provisioner's work, as for any external provisioner). A bound claim whose volume is gone, or bound
// to another claim, is Lost. Claim and volume specs are written with Update, their phases through
// /status, in kube's order: volume, volume status, claim, claim status.
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import type { StorageClass } from '../../../api/storage/v1/storage-class.js';
import type { Logger } from '../../../server/logging/logger.js';
import type { EventRecorder } from '../event-recorder.js';
import { copyOf, type APIClient } from '../simulation/api-client.js';
import { keyOf, type Informer } from '../simulation/informer.js';
import { objectRef } from '../simulation/pod-control.js';
import { WorkLoop } from '../simulation/work-loop.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';
import {
  annBetaStorageProvisioner,
  annBindCompleted,
  annBoundByController,
  annSelectedNode,
  annStorageProvisioner,
  claimClass,
  findMatchingVolume,
  isVolumeBoundToClaim,
  rethrowUnless,
  volumeBoundToClaim,
} from './volume-util.js';

/** The provisioner of the simulated cluster's volumes. */
export const simulatedProvisioner = 'capstan.dev/simulated';

const claimsPath = '/v1/persistentvolumeclaims';
const volumesPath = '/v1/persistentvolumes';
const claimKind = { apiVersion: 'v1', kind: 'PersistentVolumeClaim' };

export interface PersistentVolumeControllerOptions {
  readonly client: APIClient;
  readonly claims: Informer<PersistentVolumeClaim>;
  readonly volumes: Informer<PersistentVolume>;
  readonly classes: Informer<StorageClass>;
  readonly logger: Logger;
  readonly recorder?: EventRecorder;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

export class PersistentVolumeController {
  readonly #opts: PersistentVolumeControllerOptions;
  readonly #client: APIClient;
  readonly #claimLoop: WorkLoop;
  readonly #volumeLoop: WorkLoop;

  constructor(opts: PersistentVolumeControllerOptions) {
    this.#opts = opts;
    this.#client = opts.client.as('persistent-volume-binder');
    const { logger } = opts;
    this.#claimLoop = new WorkLoop({
      queueName: 'claims',
      workqueueMetrics: opts.workqueueMetrics,

      name: 'persistentvolume-claims',
      logger,
      sync: (k) => this.#syncClaim(k),
    });
    this.#volumeLoop = new WorkLoop({
      queueName: 'volumes',
      workqueueMetrics: opts.workqueueMetrics,

      name: 'persistentvolume-volumes',
      logger,
      sync: (k) => this.#syncVolume(k),
    });
    opts.claims.addHandler((type, claim) => {
      if (type !== 'DELETED') this.#claimLoop.queue.add(keyOf(claim));
      // deleteClaim: the volume it held is released.
      const volume = claim.spec?.volumeName ?? '';
      if (type === 'DELETED' && volume !== '') this.#volumeLoop.queue.add(volume);
    });
    opts.volumes.addHandler((type, pv) => {
      if (type === 'DELETED') this.#requeueClaimOf(pv);
      else this.#volumeLoop.queue.add(keyOf(pv));
      // A volume free to bind: the waiting claims try it now rather than at kube's 15 s resync.
      if (type !== 'DELETED' && pv.status?.phase === 'Available' && pv.spec?.claimRef === undefined)
        for (const claim of opts.claims.list())
          if ((claim.spec?.volumeName ?? '') === '') this.#claimLoop.queue.add(keyOf(claim));
    });
    // A class created after its claims: they may be provisioned now.
    opts.classes.addHandler((type, sc) => {
      if (type === 'DELETED') return;
      for (const claim of opts.claims.list())
        if (claimClass(claim) === sc.metadata?.name && claim.status?.phase !== 'Bound')
          this.#claimLoop.queue.add(keyOf(claim));
    });
  }

  run(): void {
    this.#claimLoop.run();
    this.#volumeLoop.run();
    for (const claim of this.#opts.claims.list()) this.#claimLoop.queue.add(keyOf(claim));
    for (const pv of this.#opts.volumes.list()) this.#volumeLoop.queue.add(keyOf(pv));
  }

  async close(): Promise<void> {
    await Promise.all([this.#claimLoop.close(), this.#volumeLoop.close()]);
  }

  #requeueClaimOf(pv: PersistentVolume): void {
    const ref = pv.spec?.claimRef;
    if (ref?.name !== undefined) this.#claimLoop.queue.add(`${ref.namespace ?? ''}/${ref.name}`);
  }

  /** syncClaim: a claim the binder has not bound yet is bound; a bound one is checked. */
  async #syncClaim(key: string): Promise<void> {
    const claim = this.#opts.claims.get(key);
    if (claim === undefined || claim.metadata?.deletionTimestamp !== undefined) return;
    if (claim.metadata?.annotations?.[annBindCompleted] !== undefined) {
      await this.#syncBoundClaim(claim);
      return;
    }
    const volumeName = claim.spec?.volumeName ?? '';
    if (volumeName === '') {
      await this.#syncUnboundClaim(claim);
      return;
    }
    // A claim naming a volume (static pre-binding) binds to it when the volume is free or its own.
    const pv = this.#opts.volumes.get(volumeName);
    if (pv !== undefined && (pv.spec?.claimRef === undefined || isVolumeBoundToClaim(pv, claim)))
      await this.#bind(pv, claim);
  }

  /**
   * syncBoundClaim: a claim whose volume is gone, or names another claim, is Lost for good (kube's
   * terminal phase, with a warning); one whose volume lost its claimRef, or that the informers
   * show half bound, is bound again.
   */
  async #syncBoundClaim(claim: PersistentVolumeClaim): Promise<void> {
    const volumeName = claim.spec?.volumeName ?? '';
    if (volumeName === '') {
      await this.#lose(claim, {
        reason: 'ClaimLost',
        message: 'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!',
      });
      return;
    }
    const pv = this.#opts.volumes.get(volumeName);
    if (pv === undefined) {
      await this.#lose(claim, {
        reason: 'ClaimLost',
        message: 'Bound claim has lost its PersistentVolume. Data on the volume is lost!',
      });
      return;
    }
    // kube compares the claimRef's uid; one without a uid names this claim too while the volume
    // this informer holds is older than the binding this claim records (kube's own cache is not).
    if (pv.spec?.claimRef === undefined || isVolumeBoundToClaim(pv, claim)) {
      await this.#bind(pv, claim);
      return;
    }
    await this.#lose(claim, {
      reason: 'ClaimMisbound',
      message: 'Two claims are bound to the same volume, this one is bound incorrectly',
    });
  }

  /**
   * updateClaimStatusWithEvent for the Lost phase: no volume, so no access modes or capacity; the
   * warning only when the phase changes.
   */
  async #lose(claim: PersistentVolumeClaim, event: { reason: string; message: string }): Promise<void> {
    if (claim.status?.phase === 'Lost') return;
    const updated = copyOf(claim);
    const { accessModes: _modes, capacity: _capacity, ...status } = updated.status ?? {};
    updated.status = { ...status, phase: 'Lost' };
    try {
      await this.#client.update(`${claimsPath}/status`, updated);
    } catch (err) {
      rethrowUnless(err, 'NotFound');
      return;
    }
    this.#opts.recorder?.event(objectRef(claim, claimKind), { type: 'Warning', ...event });
  }

  async #syncUnboundClaim(claim: PersistentVolumeClaim): Promise<void> {
    const sc = this.#opts.classes.get(claimClass(claim));
    // IsDelayBindingMode, and whether the scheduler has chosen the claim's node (a pod uses it).
    const delayed = sc?.volumeBindingMode === 'WaitForFirstConsumer';
    const selected = (claim.metadata?.annotations?.[annSelectedNode] ?? '') !== '';
    // Such a claim takes only a volume pre-bound to it: the scheduler chooses the volume with the
    // pod's node and binds it (BindPodVolumes), or gives the claim the node to provision one.
    const pv = findMatchingVolume(claim, this.#opts.volumes.list(), { preBoundOnly: delayed });
    if (pv !== undefined) {
      await this.#bind(pv, claim);
      return;
    }
    if (delayed && !selected) {
      // emitEventForUnboundDelayBindingClaim, for a claim no pod uses yet.
      this.#opts.recorder?.event(objectRef(claim, claimKind), {
        type: 'Normal',
        reason: 'WaitForFirstConsumer',
        message: 'waiting for first consumer to be created before binding',
      });
      return;
    }
    // provisionClaim, for the one provisioner this cluster runs.
    if (sc?.provisioner !== simulatedProvisioner) return;
    const annotations = claim.metadata?.annotations ?? {};
    if (
      annotations[annStorageProvisioner] === sc.provisioner &&
      annotations[annBetaStorageProvisioner] === sc.provisioner
    )
      return;
    const updated = copyOf(claim);
    const meta = (updated.metadata ??= {});
    meta.annotations = {
      ...meta.annotations,
      [annStorageProvisioner]: sc.provisioner,
      [annBetaStorageProvisioner]: sc.provisioner,
    };
    try {
      await this.#client.update(claimsPath, updated);
    } catch (err) {
      rethrowUnless(err, 'NotFound');
      return;
    }
    this.#opts.recorder?.event(objectRef(claim, claimKind), {
      type: 'Normal',
      reason: 'ExternalProvisioning',
      message: `Waiting for a volume to be created either by the external provisioner '${sc.provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
    });
  }

  /** bind: the volume to the claim, its phase, the claim to the volume, the claim's status. */
  async #bind(volume: PersistentVolume, claim: PersistentVolumeClaim): Promise<void> {
    try {
      const pv = await this.#bindVolumeToClaim(volume, claim);
      await this.#updateVolumePhase(pv, 'Bound');
      const bound = await this.#bindClaimToVolume(claim, pv);
      await this.#updateClaimStatus(bound, pv);
    } catch (err) {
      rethrowUnless(err, 'NotFound');
    }
  }

  async #bindVolumeToClaim(
    volume: PersistentVolume,
    claim: PersistentVolumeClaim,
  ): Promise<PersistentVolume> {
    const pv = volumeBoundToClaim(volume, claim);
    return pv === undefined ? volume : this.#client.update(volumesPath, pv);
  }

  async #updateVolumePhase(volume: PersistentVolume, phase: string): Promise<PersistentVolume> {
    if (volume.status?.phase === phase) return volume;
    const pv = copyOf(volume);
    pv.status = { ...pv.status, phase };
    return this.#client.update(`${volumesPath}/status`, pv);
  }

  async #bindClaimToVolume(
    claim: PersistentVolumeClaim,
    pv: PersistentVolume,
  ): Promise<PersistentVolumeClaim> {
    const name = pv.metadata?.name ?? '';
    const annotations = claim.metadata?.annotations ?? {};
    if (claim.spec?.volumeName === name && annotations[annBindCompleted] === 'yes') return claim;
    const updated = copyOf(claim);
    const meta = (updated.metadata ??= {});
    meta.annotations = {
      ...meta.annotations,
      [annBindCompleted]: 'yes',
      ...(claim.spec?.volumeName === name ? {} : { [annBoundByController]: 'yes' }),
    };
    (updated.spec ??= {}).volumeName = name;
    return this.#client.update(claimsPath, updated);
  }

  async #updateClaimStatus(claim: PersistentVolumeClaim, pv: PersistentVolume): Promise<void> {
    const status = claim.status ?? {};
    const accessModes = pv.spec?.accessModes ?? [];
    const capacity = pv.spec?.capacity ?? {};
    if (
      status.phase === 'Bound' &&
      JSON.stringify(status.accessModes ?? []) === JSON.stringify(accessModes) &&
      JSON.stringify(status.capacity ?? {}) === JSON.stringify(capacity)
    )
      return;
    const updated = copyOf(claim);
    updated.status = { ...updated.status, phase: 'Bound', accessModes, capacity };
    await this.#client.update(`${claimsPath}/status`, updated);
  }

  async #syncVolume(name: string): Promise<void> {
    const pv = this.#opts.volumes.get(name);
    if (pv === undefined) return;
    const ref = pv.spec?.claimRef;
    try {
      if (ref === undefined || (ref.uid ?? '') === '') {
        // Unused, or pre-bound by a user to a claim it waits for: Available to the binder.
        await this.#updateVolumePhase(pv, 'Available');
        if (ref !== undefined) this.#requeueClaimOf(pv);
        return;
      }
      const claim = await this.#claimOf(pv);
      if (claim === undefined) {
        // The claim is gone: Released, then reclaimed by its provisioner (or kept, Retain).
        if (pv.status?.phase !== 'Released' && pv.status?.phase !== 'Failed')
          await this.#updateVolumePhase(pv, 'Released');
        return;
      }
      const claimVolume = claim.spec?.volumeName ?? '';
      if (claimVolume === '' || claimVolume === name) {
        if (claimVolume === name) await this.#updateVolumePhase(pv, 'Bound');
        this.#claimLoop.queue.add(keyOf(claim));
      }
    } catch (err) {
      rethrowUnless(err, 'NotFound');
    }
  }

  /** The claimRef's claim, read from the API when the informer lacks it (syncVolume does too). */
  async #claimOf(pv: PersistentVolume): Promise<PersistentVolumeClaim | undefined> {
    const ref = pv.spec?.claimRef;
    const target = { namespace: ref?.namespace ?? '', name: ref?.name ?? '' };
    let claim = this.#opts.claims.get(`${target.namespace}/${target.name}`);
    if (claim === undefined) {
      try {
        claim = await this.#client.get<PersistentVolumeClaim>(claimsPath, target);
      } catch (err) {
        rethrowUnless(err, 'NotFound');
        return undefined;
      }
    }
    return claim.metadata?.uid === ref?.uid ? claim : undefined;
  }
}
