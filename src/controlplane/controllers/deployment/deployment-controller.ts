// The Deployment controller (pkg/controller/deployment): a ReplicaSet per pod template, named and
// labelled with its pod-template-hash and annotated with its revision; RollingUpdate grows the new
// one within maxSurge and shrinks the old ones within maxUnavailable, Recreate empties the old ones
// first; old ReplicaSets beyond revisionHistoryLimit are deleted once a rollout is complete; status
// counts and the Available and Progressing conditions are what `kubectl rollout status` reads.
import type { Deployment } from '../../../api/apps/v1/deployment.js';
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
import { objectRef } from '../simulation/pod-control.js';
import { deploymentStatus, type StatusInput } from './deployment-status.js';
import { newReplicaSetAnnotations, maxRevision, revisionAnnotation, revisionOf } from './revisions.js';
import { scaleDownOld, type Scaler } from './rolling-update.js';
import { isRollingUpdate, newRSNewReplicas, resolveFenceposts } from './rolling-math.js';
import { newReplicaSetFor } from './new-replica-set.js';
import { computeHash, equalIgnoreHash } from './template-hash.js';

const deploymentKind = { apiVersion: 'apps/v1', kind: 'Deployment' } as const;

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
}

export class DeploymentController {
  readonly #opts: DeploymentControllerOptions;
  readonly #loop: WorkLoop;

  constructor(opts: DeploymentControllerOptions) {
    this.#opts = opts;
    this.#loop = new WorkLoop({
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
    return this.#loop.close();
  }

  async #sync(key: string): Promise<void> {
    const d = this.#opts.deployments.get(key);
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
    if (d.metadata?.deletionTimestamp !== undefined || d.spec?.paused === true) {
      const newRS = all.find((rs) => equalIgnoreHash(rs.spec?.template, d.spec?.template));
      await this.#writeStatus(d, { d, all, newRS, now });
      return;
    }
    const old = all.filter((rs) => !equalIgnoreHash(rs.spec?.template, d.spec?.template));
    const found = await this.#newReplicaSet(d, all, old);
    if (found === undefined) return;
    const { newRS, progress } = found;
    const current = [newRS, ...old];
    const scaler = this.#scaler(d);
    const scaled = isRollingUpdate(d)
      ? await this.#rollingUpdate(d, { newRS, old, scale: scaler })
      : await this.#recreate(d, { newRS, old, scale: scaler });
    if (!scaled) await this.#cleanup(d, newRS, old);
    await this.#writeStatus(d, {
      d,
      all: current,
      newRS,
      now,
      ...(progress === undefined ? {} : { progress }),
    });
  }

  #scaler(d: Deployment): Scaler {
    const { maxSurge } = resolveFenceposts(d);
    const maxReplicas = (d.spec?.replicas ?? 1) + (isRollingUpdate(d) ? maxSurge : 0);
    return async (rs, replicas) => {
      if ((rs.spec?.replicas ?? 0) === replicas) return false;
      const updated = copyOf(rs);
      (updated.spec ??= {}).replicas = replicas;
      const annotations = ((updated.metadata ??= {}).annotations ??= {});
      annotations['deployment.kubernetes.io/desired-replicas'] = String(d.spec?.replicas ?? 1);
      annotations['deployment.kubernetes.io/max-replicas'] = String(maxReplicas);
      await this.#opts.client.update('apps/v1/replicasets', updated);
      const verb = replicas > (rs.spec?.replicas ?? 0) ? 'up' : 'down';
      this.#opts.recorder?.event(objectRef(d, deploymentKind), {
        type: 'Normal',
        reason: 'ScalingReplicaSet',
        message: `Scaled ${verb} replica set ${rs.metadata?.name ?? ''} from ${String(rs.spec?.replicas ?? 0)} to ${String(replicas)}`,
      });
      return true;
    };
  }

  /** getNewReplicaSet: found (its revision raised past the old ones when it is not the newest) or made. */
  async #newReplicaSet(
    d: Deployment,
    all: readonly ReplicaSet[],
    old: readonly ReplicaSet[],
  ): Promise<{ newRS: ReplicaSet; progress?: StatusInput['progress'] } | undefined> {
    const existing = all.find((rs) => equalIgnoreHash(rs.spec?.template, d.spec?.template));
    const revision = maxRevision(old) + 1;
    const { maxSurge } = resolveFenceposts(d);
    const maxReplicas = (d.spec?.replicas ?? 1) + (isRollingUpdate(d) ? maxSurge : 0);
    if (existing !== undefined) {
      let newRS = existing;
      const annotations = newReplicaSetAnnotations(d, existing, { revision, maxReplicas });
      if (JSON.stringify(annotations) !== JSON.stringify(existing.metadata?.annotations ?? {})) {
        const updated = copyOf(existing);
        (updated.metadata ??= {}).annotations = annotations;
        newRS = await this.#opts.client.update('apps/v1/replicasets', updated);
      }
      await this.#setDeploymentRevision(d, revisionOf(newRS));
      return { newRS, progress: 'FoundNewReplicaSet' };
    }
    const hash = computeHash(d.spec?.template, d.status?.collisionCount);
    const rs = newReplicaSetFor(d, {
      hash,
      replicas: newRSNewReplicas(d, all, undefined),
      annotations: newReplicaSetAnnotations(d, {}, { revision, maxReplicas }),
    });
    try {
      const created = await this.#opts.client.create('apps/v1/replicasets', d.metadata?.namespace ?? '', rs);
      this.#opts.recorder?.event(objectRef(d, deploymentKind), {
        type: 'Normal',
        reason: 'ScalingReplicaSet',
        message: `Scaled up replica set ${created.metadata?.name ?? ''} from 0 to ${String(created.spec?.replicas ?? 0)}`,
      });
      await this.#setDeploymentRevision(d, revision);
      return { newRS: created, progress: 'NewReplicaSetCreated' };
    } catch (err) {
      if (reasonForError(err) !== 'AlreadyExists') throw err;
      // A ReplicaSet of another template holds the name: hash again with one more collision.
      const updated = copyOf(d);
      const status = (updated.status ??= {});
      status.collisionCount = (status.collisionCount ?? 0) + 1;
      await this.#opts.client.update('apps/v1/deployments/status', updated);
      return undefined;
    }
  }

  async #setDeploymentRevision(d: Deployment, revision: number): Promise<void> {
    const text = String(revision);
    if (d.metadata?.annotations?.[revisionAnnotation] === text) return;
    const updated = copyOf(d);
    ((updated.metadata ??= {}).annotations ??= {})[revisionAnnotation] = text;
    await this.#opts.client.update('apps/v1/deployments', updated);
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
  async #cleanup(d: Deployment, newRS: ReplicaSet, old: readonly ReplicaSet[]): Promise<void> {
    const limit = d.spec?.revisionHistoryLimit ?? 10;
    const cleanable = old
      .filter((rs) => rs !== newRS && (rs.spec?.replicas ?? 0) === 0 && (rs.status?.replicas ?? 0) === 0)
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

  async #writeStatus(d: Deployment, input: StatusInput): Promise<void> {
    const status = deploymentStatus(input);
    const { conditions: a, ...countsA } = status;
    const { conditions: b, ...countsB } = d.status ?? {};
    const same =
      JSON.stringify(countsA) === JSON.stringify(countsB) &&
      JSON.stringify((a ?? []).map((c) => [c.type, c.status, c.reason, c.message])) ===
        JSON.stringify((b ?? []).map((c) => [c.type, c.status, c.reason, c.message]));
    if (same) return;
    const updated = copyOf(d);
    updated.status = status;
    try {
      await this.#opts.client.update('apps/v1/deployments/status', updated);
    } catch (err) {
      if (reasonForError(err) !== 'NotFound') throw err;
    }
  }
}
