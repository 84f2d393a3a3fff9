// The Deployment controller (pkg/controller/deployment): a ReplicaSet per pod template, named and
// labelled with its pod-template-hash and annotated with its revision; RollingUpdate grows the new
// one within maxSurge and shrinks the old ones within maxUnavailable, Recreate empties the old ones
// first; old ReplicaSets beyond revisionHistoryLimit are deleted once a rollout is complete; status
// counts and the Available and Progressing conditions are what `kubectl rollout status` reads. The
// revision annotation is written through /status, as kube's is, so it makes no new generation. A
// paused Deployment is not rolled out but is scaled, proportionally, as one whose size changes in
// the middle of a rollout is (scale.ts): Progressing is Unknown while paused.
import type { Deployment, DeploymentStatus } from '../../../api/apps/v1/deployment.js';
import type { ReplicaSet } from '../../../api/apps/v1/replica-set.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import { labelSelectorAsSelector } from '../../../machinery/labels/meta-label-selector.js';
import type { Logger } from '../../../server/logging/logger.js';
import type { EventRecorder } from '../event-recorder.js';
import { copyOf, type APIClient } from '../simulation/api-client.js';
import { rfc3339, type SimClock } from '../simulation/clock.js';
import { claimObjects } from '../simulation/claim-objects.js';
import { controllerRefOf } from '../simulation/controller-ref.js';
import { keyOf, splitKey, type Informer } from '../simulation/informer.js';
import { WorkLoop } from '../simulation/work-loop.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';
import { objectRef } from '../simulation/pod-control.js';
import { conditionReasons, getCondition, hasProgressDeadline } from './conditions.js';
import { calculateStatus, sameStatus } from './deployment-status.js';
import { pausedStatus, progressRecheckMs, progressingStatus, rolloutStatus } from './progress.js';
import {
  desiredReplicasAnnotation,
  maxReplicasAnnotation,
  maxRevision,
  newReplicaSetAnnotations,
  revisionAnnotation,
  revisionOf,
} from './revisions.js';
import { isScalingEvent, maxSurgeOf, scaleSteps } from './scale.js';
import { scaleDownOld, type Scaler } from './rolling-update.js';
import { isRollingUpdate, newRSNewReplicas, resolveFenceposts } from './rolling-math.js';
import { newReplicaSetFor } from './new-replica-set.js';
import { computeHash, equalIgnoreHash } from './template-hash.js';

const deploymentKind = { apiVersion: 'apps/v1', kind: 'Deployment' } as const;

/** The Deployment as getNewReplicaSet left it, and its new ReplicaSet. */
interface NewReplicaSet {
  readonly d: Deployment;
  readonly newRS: ReplicaSet;
}

/** The new ReplicaSet, the old ones, and how to scale either. */
interface ReplicaSets {
  readonly newRS: ReplicaSet;
  readonly old: readonly ReplicaSet[];
  readonly scale: Scaler;
}

export interface DeploymentControllerOptions {
  readonly client: APIClient;
  readonly deployments: Informer<Deployment>;
  readonly replicaSets: Informer<ReplicaSet>;
  readonly clock: SimClock;
  readonly logger: Logger;
  readonly recorder?: EventRecorder;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

export class DeploymentController {
  readonly #opts: DeploymentControllerOptions;
  readonly #loop: WorkLoop;
  /** The progress deadline checks waiting, by key (kube's enqueueAfter of a stuck rollout). */
  readonly #rechecks = new Map<string, () => void>();

  constructor(opts: DeploymentControllerOptions) {
    this.#opts = opts;
    this.#loop = new WorkLoop({
      queueName: 'deployment',
      workqueueMetrics: opts.workqueueMetrics,

      name: 'deployment',
      logger: opts.logger,
      workers: 2,
      sync: (k) => this.#sync(k),
    });
    opts.deployments.addHandler((_t, d) => {
      this.#loop.queue.add(keyOf(d));
    });
    opts.replicaSets.addHandler((_t, rs) => {
      const ref = controllerRefOf(rs);
      if (ref?.kind === 'Deployment') this.#loop.queue.add(`${rs.metadata?.namespace ?? ''}/${ref.name}`);
      if (ref !== undefined) return;
      // An orphan: the Deployments that would adopt it.
      for (const d of opts.deployments.list(rs.metadata?.namespace ?? '')) {
        const sel = labelSelectorAsSelector(d.spec?.selector);
        if (sel.ok && !sel.selector.empty() && sel.selector.matches(rs.metadata?.labels ?? {}))
          this.#loop.queue.add(keyOf(d));
      }
    });
  }

  run(): void {
    this.#loop.run();
    for (const d of this.#opts.deployments.list()) this.#loop.queue.add(keyOf(d));
  }

  close(): Promise<void> {
    for (const cancel of this.#rechecks.values()) cancel();
    this.#rechecks.clear();
    return this.#loop.close();
  }

  /** Looks at the rollout again once its progress deadline may have passed. */
  #recheckLater(key: string, ms: number | undefined): void {
    this.#rechecks.get(key)?.();
    this.#rechecks.delete(key);
    if (ms === undefined) return;
    this.#rechecks.set(
      key,
      this.#opts.clock.after(ms, () => {
        this.#rechecks.delete(key);
        this.#loop.queue.add(key);
      }),
    );
  }

  async #sync(key: string): Promise<void> {
    let d = this.#opts.deployments.get(key);
    if (d === undefined) return;
    const sel = labelSelectorAsSelector(d.spec?.selector);
    if (!sel.ok || sel.selector.empty()) return; // kube: selects all pods, refused with an event
    const { namespace } = splitKey(key);
    const all = await claimObjects({
      client: this.#opts.client,
      path: 'apps/v1/replicasets',
      owner: d,
      gvk: deploymentKind,
      selector: sel.selector,
      candidates: this.#opts.replicaSets.list(namespace),
    });
    const now = rfc3339(this.#opts.clock.now());
    const template = d.spec?.template;
    const existing = all.find((rs) => equalIgnoreHash(rs.spec?.template, template));
    const old = all.filter((rs) => rs !== existing);
    if (d.metadata?.deletionTimestamp !== undefined) {
      await this.#writeStatus(d, calculateStatus({ d, all, newRS: existing, now }));
      return;
    }
    const paused = pausedStatus(d, now);
    if (paused !== undefined) d = await this.#updateStatus(d, paused);
    if (d.spec?.paused === true || isScalingEvent(d, all)) {
      await this.#syncOnly(d, { existing, old, now });
      return;
    }
    const found =
      existing === undefined
        ? await this.#createNew(d, all, old)
        : await this.#syncExisting(d, existing, old);
    if (found === undefined) return;
    d = found.d;
    const { newRS } = found;
    const scaler = this.#scaler(d);
    const scaled = isRollingUpdate(d)
      ? await this.#rollingUpdate(d, { newRS, old, scale: scaler })
      : await this.#recreate(d, { newRS, old, scale: scaler });
    if (!scaled) await this.#cleanup(d, old);
    const status = rolloutStatus({ d, all: [newRS, ...old], newRS, now });
    await this.#writeStatus(d, status);
    this.#recheckLater(key, progressRecheckMs(d, status, this.#opts.clock.now()));
  }

  /**
   * sync: a paused Deployment, or one whose size changed, is scaled proportionally without rolling
   * out; revisions kept, old ReplicaSets cleaned up once paused, the status without rollout
   * conditions.
   */
  async #syncOnly(
    d: Deployment,
    rss: { existing: ReplicaSet | undefined; old: readonly ReplicaSet[]; now: string },
  ): Promise<void> {
    const { existing, old, now } = rss;
    const synced = existing === undefined ? undefined : await this.#syncExisting(d, existing, old);
    if (synced !== undefined) d = synced.d;
    const newRS = synced?.newRS;
    const scale = this.#scaler(d);
    for (const step of scaleSteps(d, newRS, old)) await scale(step.rs, step.replicas, step.annotate);
    if (d.spec?.paused === true) await this.#cleanup(d, old);
    const current = newRS === undefined ? old : [newRS, ...old];
    await this.#writeStatus(d, calculateStatus({ d, all: current, newRS, now }));
  }

  /**
   * scaleReplicaSet: the size and the replica annotations written when the size changes (or, with
   * `annotate`, when only the annotations are stale); true when the size changed.
   */
  #scaler(d: Deployment): Scaler {
    const maxReplicas = (d.spec?.replicas ?? 1) + maxSurgeOf(d);
    return async (rs, replicas, annotate = false) => {
      const resized = (rs.spec?.replicas ?? 0) !== replicas;
      const current = rs.metadata?.annotations ?? {};
      const stale =
        current[desiredReplicasAnnotation] !== String(d.spec?.replicas ?? 1) ||
        current[maxReplicasAnnotation] !== String(maxReplicas);
      if (!resized && !(annotate && stale)) return false;
      const updated = copyOf(rs);
      (updated.spec ??= {}).replicas = replicas;
      const annotations = ((updated.metadata ??= {}).annotations ??= {});
      annotations[desiredReplicasAnnotation] = String(d.spec?.replicas ?? 1);
      annotations[maxReplicasAnnotation] = String(maxReplicas);
      await this.#opts.client.update('apps/v1/replicasets', updated);
      if (!resized) return false;
      const verb = replicas > (rs.spec?.replicas ?? 0) ? 'up' : 'down';
      this.#opts.recorder?.event(objectRef(d, deploymentKind), {
        type: 'Normal',
        reason: 'ScalingReplicaSet',
        message: `Scaled ${verb} replica set ${rs.metadata?.name ?? ''} from ${String(rs.spec?.replicas ?? 0)} to ${String(replicas)}`,
      });
      return true;
    };
  }

  /**
   * getNewReplicaSet for the ReplicaSet of the current template: its annotations (a revision past
   * the old ones) and minReadySeconds brought up to date, else the Deployment given its revision
   * (and FoundNewReplicaSet when it has no Progressing condition) through /status.
   */
  async #syncExisting(
    d: Deployment,
    existing: ReplicaSet,
    old: readonly ReplicaSet[],
  ): Promise<NewReplicaSet> {
    const annotations = newReplicaSetAnnotations(d, existing, { revision: maxRevision(old) + 1 });
    const minReadySeconds = d.spec?.minReadySeconds ?? 0;
    if (
      JSON.stringify(annotations) !== JSON.stringify(existing.metadata?.annotations ?? {}) ||
      (existing.spec?.minReadySeconds ?? 0) !== minReadySeconds
    ) {
      const updated = copyOf(existing);
      (updated.metadata ??= {}).annotations = annotations;
      (updated.spec ??= {}).minReadySeconds = minReadySeconds;
      // The Deployment's revision follows on the next sync, as kube's does.
      return { d, newRS: await this.#opts.client.update('apps/v1/replicasets', updated) };
    }
    const name = existing.metadata?.name ?? '';
    const found =
      hasProgressDeadline(d.spec?.progressDeadlineSeconds) &&
      getCondition(d.status, 'Progressing') === undefined;
    const status = found
      ? progressingStatus(d, {
          status: 'True',
          reason: conditionReasons.foundNewRS,
          message: `Found new replica set "${name}"`,
          now: rfc3339(this.#opts.clock.now()),
        })
      : undefined;
    return { d: await this.#syncRevision(d, revisionOf(existing), status), newRS: existing };
  }

  /** getNewReplicaSet without one: the new ReplicaSet made, NewReplicaSetCreated on the Deployment. */
  async #createNew(
    d: Deployment,
    all: readonly ReplicaSet[],
    old: readonly ReplicaSet[],
  ): Promise<NewReplicaSet | undefined> {
    const { maxSurge } = resolveFenceposts(d);
    const maxReplicas = (d.spec?.replicas ?? 1) + (isRollingUpdate(d) ? maxSurge : 0);
    const revision = maxRevision(old) + 1;
    const hash = computeHash(d.spec?.template, d.status?.collisionCount);
    const rs = newReplicaSetFor(d, {
      hash,
      replicas: newRSNewReplicas(d, all, undefined),
      annotations: newReplicaSetAnnotations(d, {}, { revision, maxReplicas }),
    });
    let created: ReplicaSet;
    try {
      created = await this.#opts.client.create('apps/v1/replicasets', d.metadata?.namespace ?? '', rs);
    } catch (err) {
      if (reasonForError(err) !== 'AlreadyExists') throw err;
      // A ReplicaSet of another template holds the name: hash again with one more collision.
      const updated = copyOf(d);
      const status = (updated.status ??= {});
      status.collisionCount = (status.collisionCount ?? 0) + 1;
      await this.#opts.client.update('apps/v1/deployments/status', updated);
      return undefined;
    }
    const name = created.metadata?.name ?? '';
    const replicas = created.spec?.replicas ?? 0;
    if (replicas > 0)
      this.#opts.recorder?.event(objectRef(d, deploymentKind), {
        type: 'Normal',
        reason: 'ScalingReplicaSet',
        message: `Scaled up replica set ${name} from 0 to ${String(replicas)}`,
      });
    const status = hasProgressDeadline(d.spec?.progressDeadlineSeconds)
      ? progressingStatus(d, {
          status: 'True',
          reason: conditionReasons.newRSCreated,
          message: `Created new replica set "${name}"`,
          now: rfc3339(this.#opts.clock.now()),
        })
      : undefined;
    return { d: await this.#syncRevision(d, revision, status), newRS: created };
  }

  /**
   * SetDeploymentRevision and the condition getNewReplicaSet set, written through /status as kube
   * does: the annotation changes there without a new generation.
   */
  async #syncRevision(
    d: Deployment,
    revision: number,
    status: DeploymentStatus | undefined,
  ): Promise<Deployment> {
    const text = String(revision);
    if (d.metadata?.annotations?.[revisionAnnotation] === text && status === undefined) return d;
    const updated = copyOf(d);
    ((updated.metadata ??= {}).annotations ??= {})[revisionAnnotation] = text;
    if (status !== undefined) updated.status = status;
    return this.#opts.client.update('apps/v1/deployments/status', updated);
  }

  /** An UpdateStatus whose result the rest of the sync goes on from. */
  #updateStatus(d: Deployment, status: DeploymentStatus): Promise<Deployment> {
    const updated = copyOf(d);
    updated.status = status;
    return this.#opts.client.update('apps/v1/deployments/status', updated);
  }

  /** rolloutRolling: grow the new ReplicaSet, else shrink the old ones; true when it scaled. */
  async #rollingUpdate(d: Deployment, rss: ReplicaSets): Promise<boolean> {
    const { newRS, old, scale } = rss;
    const replicas = d.spec?.replicas ?? 1;
    const all = [newRS, ...old];
    const target = (newRS.spec?.replicas ?? 0) > replicas ? replicas : newRSNewReplicas(d, all, newRS);
    if (await scale(newRS, target)) return true;
    return scaleDownOld({ d, newRS, old, scale });
  }

  /** rolloutRecreate: old ReplicaSets to zero, and the new one up only once their pods are gone. */
  async #recreate(d: Deployment, rss: ReplicaSets): Promise<boolean> {
    const { newRS, old, scale } = rss;
    let scaled = false;
    for (const rs of old) if (await scale(rs, 0)) scaled = true;
    if (scaled || old.some((rs) => (rs.status?.replicas ?? 0) > 0)) return true;
    return scale(newRS, d.spec?.replicas ?? 1);
  }

  /** cleanupDeployment: old, empty ReplicaSets beyond revisionHistoryLimit go, oldest first. */
  async #cleanup(d: Deployment, old: readonly ReplicaSet[]): Promise<void> {
    const limit = d.spec?.revisionHistoryLimit ?? 10;
    const cleanable = old
      .filter((rs) => (rs.spec?.replicas ?? 0) === 0 && (rs.status?.replicas ?? 0) === 0)
      .filter((rs) => rs.metadata?.deletionTimestamp === undefined)
      .sort((a, b) => revisionOf(a) - revisionOf(b));
    for (const rs of cleanable.slice(0, Math.max(0, cleanable.length - limit))) {
      try {
        await this.#opts.client.delete(
          'apps/v1/replicasets',
          { namespace: rs.metadata?.namespace ?? '', name: rs.metadata?.name ?? '' },
          { ...(rs.metadata?.uid === undefined ? {} : { preconditions: { uid: rs.metadata.uid } }) },
        );
      } catch (err) {
        if (reasonForError(err) !== 'NotFound') throw err;
      }
    }
  }

  /** syncDeploymentStatus / the end of syncRolloutStatus: written only when it changed. */
  async #writeStatus(d: Deployment, status: DeploymentStatus): Promise<void> {
    if (sameStatus(d.status, status)) return;
    try {
      await this.#updateStatus(d, status);
    } catch (err) {
      if (reasonForError(err) !== 'NotFound') throw err;
    }
  }
}
