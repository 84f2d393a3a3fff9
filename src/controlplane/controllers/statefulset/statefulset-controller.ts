// The StatefulSet controller (pkg/controller/statefulset): pods `<set>-<ordinal>` for ordinals
// [start, start+replicas), each with its claims from volumeClaimTemplates made first. OrderedReady
// creates one pod at a time and only once every lower one is Running and Ready, and scales down
// from the highest ordinal one at a time; Parallel creates and deletes all at once. A failed pod is
// deleted to be made again; RollingUpdate replaces pods of an older revision from the highest
// ordinal down to the partition, one at a time. Claims carry the owner references their
// persistentVolumeClaimRetentionPolicy asks for (claim-retention.ts), so the garbage collector
// deletes them with the set or with a scaled-away pod.
import type { ControllerRevision } from '../../../api/apps/v1/controller-revision.js';
import type { StatefulSet } from '../../../api/apps/v1/stateful-set.js';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import { labelSelectorAsSelector } from '../../../machinery/labels/meta-label-selector.js';
import type { Logger } from '../../../server/logging/logger.js';
import type { EventRecorder } from '../event-recorder.js';
import { copyOf, type APIClient } from '../simulation/api-client.js';
import type { SimClock } from '../simulation/clock.js';
import { claimObjects } from '../simulation/claim-objects.js';
import { controllerRefOf, isPodReady } from '../simulation/controller-ref.js';
import { syncRevisions, truncateHistory } from '../history/controller-history.js';
import { keyOf, splitKey, type Informer } from '../simulation/informer.js';
import { objectRef } from '../simulation/pod-control.js';
import { WorkLoop } from '../simulation/work-loop.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';
import {
  claimsFor,
  newStatefulPod,
  ordinalOf,
  revisionLabel,
  statefulSetKind,
  updateRevision,
} from './stateful-pods.js';
import { claimOwnerRefs } from './claim-retention.js';
import { sameStatefulSetStatus, statefulSetStatus } from './statefulset-status.js';

export interface StatefulSetControllerOptions {
  readonly client: APIClient;
  readonly statefulSets: Informer<StatefulSet>;
  readonly pods: Informer<Pod>;
  readonly revisions: Informer<ControllerRevision>;
  readonly claims: Informer<PersistentVolumeClaim>;
  readonly clock: SimClock;
  readonly logger: Logger;
  readonly recorder?: EventRecorder;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

const runningAndReady = (p: Pod): boolean => p.status?.phase === 'Running' && isPodReady(p);
const terminating = (p: Pod): boolean => p.metadata?.deletionTimestamp !== undefined;
const failed = (p: Pod): boolean => p.status?.phase === 'Failed' || p.status?.phase === 'Succeeded';

export class StatefulSetController {
  readonly #opts: StatefulSetControllerOptions;
  readonly #loop: WorkLoop;

  constructor(opts: StatefulSetControllerOptions) {
    this.#opts = opts;
    this.#loop = new WorkLoop({
      queueName: 'statefulset',
      workqueueMetrics: opts.workqueueMetrics,
      name: 'statefulset',
      logger: opts.logger,
      sync: (k) => this.#sync(k),
    });
    opts.statefulSets.addHandler((_t, set) => {
      this.#loop.queue.add(keyOf(set));
    });
    const byOwner = (obj: Pod | ControllerRevision): void => {
      const ref = controllerRefOf(obj);
      if (ref?.kind === 'StatefulSet') this.#loop.queue.add(`${obj.metadata?.namespace ?? ''}/${ref.name}`);
      else if (ref === undefined) this.#orphan(obj);
    };
    opts.pods.addHandler((_t, pod, old) => {
      byOwner(pod);
      // A pod whose labels changed may have to be released.
      if (old !== undefined && controllerRefOf(old)?.kind === 'StatefulSet') byOwner(old);
    });
    opts.revisions.addHandler((_t, revision) => {
      byOwner(revision);
    });
    // A claim carries the set's selector labels; its owner references follow the set's policy.
    opts.claims.addHandler((_t, claim) => {
      this.#orphan(claim);
    });
  }

  run(): void {
    this.#loop.run();
    for (const set of this.#opts.statefulSets.list()) this.#loop.queue.add(keyOf(set));
  }

  close(): Promise<void> {
    return this.#loop.close();
  }

  /** An orphan pod or revision, or a claim: the sets in its namespace whose selector matches it. */
  #orphan(obj: Pod | ControllerRevision | PersistentVolumeClaim): void {
    for (const set of this.#opts.statefulSets.list(obj.metadata?.namespace ?? '')) {
      const sel = labelSelectorAsSelector(set.spec?.selector);
      if (sel.ok && !sel.selector.empty() && sel.selector.matches(obj.metadata?.labels ?? {}))
        this.#loop.queue.add(keyOf(set));
    }
  }

  async #sync(key: string): Promise<void> {
    const set = this.#opts.statefulSets.get(key);
    if (set === undefined) return;
    const sel = labelSelectorAsSelector(set.spec?.selector);
    if (!sel.ok) return;
    const { namespace } = splitKey(key);
    const client = this.#opts.client;
    const common = { client, owner: set, gvk: statefulSetKind, selector: sel.selector };
    const pods = await claimObjects({
      ...common,
      path: '/v1/pods',
      candidates: this.#opts.pods.list(namespace).filter((p) => ordinalOf(set, p) !== undefined),
    });
    const update = updateRevision(set);
    const revisions = await syncRevisions({
      ...common,
      revisions: this.#opts.revisions.list(namespace),
      template: set.spec?.template,
      name: update,
      hash: update.slice((set.metadata?.name ?? '').length + 1),
    });
    if (set.metadata?.deletionTimestamp === undefined) {
      await this.#retainClaims(set, pods);
      await this.#update(set, pods);
    }
    await this.#writeStatus(set, pods);
    if (set.metadata?.deletionTimestamp !== undefined) return;
    const live = new Set([update, set.status?.currentRevision ?? update]);
    for (const p of pods) live.add(p.metadata?.labels?.[revisionLabel] ?? '');
    await truncateHistory(client, revisions.owned, { live, limit: set.spec?.revisionHistoryLimit ?? 10 });
  }

  /** UpdatePodClaimForRetentionPolicy for every pod, before any of them is deleted. */
  async #retainClaims(set: StatefulSet, pods: readonly Pod[]): Promise<void> {
    const start = set.spec?.ordinals?.start ?? 0;
    const end = start + (set.spec?.replicas ?? 1);
    for (const pod of pods) {
      if (terminating(pod)) continue;
      const ordinal = ordinalOf(set, pod) ?? -1;
      for (const wanted of claimsFor(set, ordinal)) {
        const claim = this.#opts.claims.get(keyOf(wanted));
        if (claim === undefined) continue;
        const refs = claimOwnerRefs(claim, { set, pod, inRange: ordinal >= start && ordinal < end });
        if (refs === undefined) continue;
        const updated = copyOf(claim);
        const meta = (updated.metadata ??= {});
        if (refs.length === 0) delete meta.ownerReferences;
        else meta.ownerReferences = refs;
        await this.#opts.client.update('/v1/persistentvolumeclaims', updated);
      }
    }
  }

  /** updateStatefulSet: one pass of creations, deletions and replacements. */
  async #update(set: StatefulSet, pods: readonly Pod[]): Promise<void> {
    const parallel = set.spec?.podManagementPolicy === 'Parallel';
    const start = set.spec?.ordinals?.start ?? 0;
    const replicas = set.spec?.replicas ?? 1;
    const byOrdinal = new Map(pods.map((p) => [ordinalOf(set, p) ?? -1, p]));
    for (let ordinal = start; ordinal < start + replicas; ordinal++) {
      const pod = byOrdinal.get(ordinal);
      if (pod === undefined) {
        await this.#createPod(set, ordinal);
        if (!parallel) return;
        continue;
      }
      if (failed(pod) && !terminating(pod)) {
        await this.#deletePod(set, pod);
        if (!parallel) return;
        continue;
      }
      if (!parallel && (terminating(pod) || !runningAndReady(pod))) return;
    }
    const condemned = pods
      .filter((p) => {
        const o = ordinalOf(set, p) ?? -1;
        return o < start || o >= start + replicas;
      })
      .sort((a, b) => (ordinalOf(set, b) ?? 0) - (ordinalOf(set, a) ?? 0));
    for (const pod of condemned) {
      if (terminating(pod)) {
        if (!parallel) return;
        continue;
      }
      await this.#deletePod(set, pod);
      if (!parallel) return;
    }
    await this.#rollingUpdate(set, pods);
  }

  /** Pods of an older revision, highest ordinal first down to the partition, once all are ready. */
  async #rollingUpdate(set: StatefulSet, pods: readonly Pod[]): Promise<void> {
    if (set.spec?.updateStrategy?.type === 'OnDelete') return;
    if (!pods.every((p) => runningAndReady(p) && !terminating(p))) return;
    const partition = set.spec?.updateStrategy?.rollingUpdate?.partition ?? 0;
    const revision = updateRevision(set);
    const stale = pods
      .filter(
        (p) => (ordinalOf(set, p) ?? 0) >= partition && p.metadata?.labels?.[revisionLabel] !== revision,
      )
      .sort((a, b) => (ordinalOf(set, b) ?? 0) - (ordinalOf(set, a) ?? 0));
    const first = stale[0];
    if (first !== undefined) await this.#deletePod(set, first);
  }

  async #createPod(set: StatefulSet, ordinal: number): Promise<void> {
    const namespace = set.metadata?.namespace ?? '';
    for (const claim of claimsFor(set, ordinal)) {
      try {
        await this.#opts.client.create('/v1/persistentvolumeclaims', namespace, claim);
        this.#event(
          set,
          'SuccessfulCreate',
          `create Claim ${claim.metadata?.name ?? ''} for Pod ${set.metadata?.name ?? ''}-${String(ordinal)} in StatefulSet ${set.metadata?.name ?? ''} success`,
        );
      } catch (err) {
        if (reasonForError(err) !== 'AlreadyExists') throw err;
      }
    }
    const pod = newStatefulPod(set, ordinal);
    try {
      await this.#opts.client.create('/v1/pods', namespace, pod);
    } catch (err) {
      if (reasonForError(err) === 'AlreadyExists') return;
      throw err;
    }
    this.#event(
      set,
      'SuccessfulCreate',
      `create Pod ${pod.metadata?.name ?? ''} in StatefulSet ${set.metadata?.name ?? ''} successful`,
    );
  }

  async #deletePod(set: StatefulSet, pod: Pod): Promise<void> {
    const name = pod.metadata?.name ?? '';
    try {
      await this.#opts.client.delete(
        '/v1/pods',
        { namespace: pod.metadata?.namespace ?? '', name },
        { ...(pod.metadata?.uid === undefined ? {} : { preconditions: { uid: pod.metadata.uid } }) },
      );
    } catch (err) {
      const reason = reasonForError(err);
      if (reason === 'NotFound' || reason === 'Conflict') return;
      throw err;
    }
    this.#event(
      set,
      'SuccessfulDelete',
      `delete Pod ${name} in StatefulSet ${set.metadata?.name ?? ''} successful`,
    );
  }

  #event(set: StatefulSet, reason: string, message: string): void {
    this.#opts.recorder?.event(objectRef(set, statefulSetKind), { type: 'Normal', reason, message });
  }

  async #writeStatus(set: StatefulSet, pods: readonly Pod[]): Promise<void> {
    const status = statefulSetStatus(set, pods, this.#opts.clock.now());
    if (sameStatefulSetStatus(set.status, status)) return;
    const updated = copyOf(set);
    updated.status = status;
    try {
      await this.#opts.client.update('apps/v1/statefulsets/status', updated);
    } catch (err) {
      if (reasonForError(err) !== 'NotFound') throw err;
    }
  }
}
