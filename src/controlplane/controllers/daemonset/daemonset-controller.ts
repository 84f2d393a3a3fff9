// The DaemonSet controller (pkg/controller/daemon): one pod per node that should run it (its
// nodeSelector, node affinity and tolerations), made with a required affinity to the node so the
// scheduler places it; extra, failed and misplaced pods are deleted; RollingUpdate replaces pods of
// an older template one node at a time once the others are ready; OnDelete leaves them.
import type { ControllerRevision } from '../../../api/apps/v1/controller-revision.js';
import type { DaemonSet } from '../../../api/apps/v1/daemon-set.js';
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import { labelSelectorAsSelector } from '../../../machinery/labels/meta-label-selector.js';
import { syncRevisions, truncateHistory } from '../history/controller-history.js';
import { claimObjects } from '../simulation/claim-objects.js';
import type { Logger } from '../../../server/logging/logger.js';
import type { EventRecorder } from '../event-recorder.js';
import { Expectations } from '../replicaset/expectations.js';
import { copyOf, type APIClient } from '../simulation/api-client.js';
import type { SimClock } from '../simulation/clock.js';
import { controllerRefOf, isPodReady } from '../simulation/controller-ref.js';
import { keyOf, splitKey, type Informer } from '../simulation/informer.js';
import { createPodsExpected, objectRef, observePod } from '../simulation/pod-control.js';
import { WorkLoop } from '../simulation/work-loop.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';
import {
  daemonSetKind,
  newDaemonPod,
  revisionLabel,
  daemonPlacement,
  targetNode,
  templateHash,
} from './daemon-pods.js';
import { daemonSetStatus } from './daemonset-status.js';

interface Placement {
  /** Nodes that should run a daemon pod. */
  readonly desired: ReadonlySet<string>;
  readonly podsByNode: ReadonlyMap<string, readonly Pod[]>;
}

export interface DaemonSetControllerOptions {
  readonly client: APIClient;
  readonly daemonSets: Informer<DaemonSet>;
  readonly pods: Informer<Pod>;
  readonly nodes: Informer<Node>;
  readonly revisions: Informer<ControllerRevision>;
  readonly clock: SimClock;
  readonly logger: Logger;
  readonly recorder?: EventRecorder;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

export class DaemonSetController {
  readonly #opts: DaemonSetControllerOptions;
  readonly #loop: WorkLoop;
  readonly #expectations: Expectations;

  constructor(opts: DaemonSetControllerOptions) {
    this.#opts = opts;
    this.#expectations = new Expectations(() => opts.clock.now());
    this.#loop = new WorkLoop({
      queueName: 'daemonset',
      workqueueMetrics: opts.workqueueMetrics,
      name: 'daemonset',
      logger: opts.logger,
      sync: (k) => this.#sync(k),
    });
    opts.daemonSets.addHandler((_t, ds) => {
      this.#loop.queue.add(keyOf(ds));
    });
    opts.pods.addHandler((type, pod, old) => {
      const ref = controllerRefOf(pod);
      if (ref === undefined) {
        this.#orphan(pod);
        return;
      }
      if (ref.kind !== 'DaemonSet') return;
      const dsKey = `${pod.metadata?.namespace ?? ''}/${ref.name}`;
      observePod(this.#expectations, dsKey, { type, pod, old });
      this.#loop.queue.add(dsKey);
    });
    opts.revisions.addHandler((_t, revision) => {
      const ref = controllerRefOf(revision);
      if (ref?.kind === 'DaemonSet')
        this.#loop.queue.add(`${revision.metadata?.namespace ?? ''}/${ref.name}`);
      else if (ref === undefined) this.#orphan(revision);
    });
    opts.nodes.addHandler(() => {
      for (const ds of opts.daemonSets.list()) this.#loop.queue.add(keyOf(ds));
    });
  }

  run(): void {
    this.#loop.run();
    for (const ds of this.#opts.daemonSets.list()) this.#loop.queue.add(keyOf(ds));
  }

  close(): Promise<void> {
    return this.#loop.close();
  }

  /** An orphan pod or revision: the daemon sets in its namespace whose selector matches it. */
  #orphan(obj: Pod | ControllerRevision): void {
    for (const ds of this.#opts.daemonSets.list(obj.metadata?.namespace ?? '')) {
      const sel = labelSelectorAsSelector(ds.spec?.selector);
      if (sel.ok && !sel.selector.empty() && sel.selector.matches(obj.metadata?.labels ?? {}))
        this.#loop.queue.add(keyOf(ds));
    }
  }

  async #sync(key: string): Promise<void> {
    const ds = this.#opts.daemonSets.get(key);
    if (ds === undefined) {
      this.#expectations.forget(key);
      return;
    }
    const sel = labelSelectorAsSelector(ds.spec?.selector);
    if (!sel.ok) return;
    const { namespace } = splitKey(key);
    const client = this.#opts.client;
    const common = { client, owner: ds, gvk: daemonSetKind, selector: sel.selector };
    const hash = templateHash(ds);
    const name = `${ds.metadata?.name ?? ''}-${hash}`;
    const revisions = await syncRevisions({
      ...common,
      revisions: this.#opts.revisions.list(namespace),
      template: ds.spec?.template,
      name,
      hash,
    });
    const pods = await claimObjects({
      ...common,
      path: '/v1/pods',
      candidates: this.#opts.pods.list(namespace),
    });
    const podsByNode = new Map<string, Pod[]>();
    for (const pod of pods) {
      const node = targetNode(pod) ?? '';
      podsByNode.set(node, [...(podsByNode.get(node) ?? []), pod]);
    }
    const desired = new Set<string>();
    const kept = new Set<string>();
    for (const node of this.#opts.nodes.list()) {
      const { shouldRun, shouldContinue } = daemonPlacement(ds, node);
      if (shouldRun) desired.add(node.metadata?.name ?? '');
      if (shouldContinue) kept.add(node.metadata?.name ?? '');
    }
    if (ds.metadata?.deletionTimestamp === undefined && this.#expectations.satisfied(key))
      await this.#manage(key, ds, { desired, kept, podsByNode });
    await this.#writeStatus(ds, { desired, podsByNode });
    if (ds.metadata?.deletionTimestamp !== undefined) return;
    const live = new Set([name]);
    for (const p of pods) live.add(`${ds.metadata?.name ?? ''}-${p.metadata?.labels?.[revisionLabel] ?? ''}`);
    await truncateHistory(client, revisions.owned, { live, limit: ds.spec?.revisionHistoryLimit ?? 10 });
  }

  async #manage(
    key: string,
    ds: DaemonSet,
    placement: Placement & { kept: ReadonlySet<string> },
  ): Promise<void> {
    const create: string[] = [];
    const remove: Pod[] = [];
    for (const node of placement.desired) {
      const pods = (placement.podsByNode.get(node) ?? []).filter(
        (p) => p.metadata?.deletionTimestamp === undefined,
      );
      const failed = pods.filter((p) => p.status?.phase === 'Failed');
      const live = pods.filter((p) => p.status?.phase !== 'Failed');
      remove.push(...failed, ...live.slice(1));
      if (live.length === 0 && failed.length === 0) create.push(node);
    }
    for (const [node, pods] of placement.podsByNode)
      if (!placement.desired.has(node) && !placement.kept.has(node))
        remove.push(...pods.filter((p) => p.metadata?.deletionTimestamp === undefined));
    if (create.length === 0 && remove.length === 0) remove.push(...this.#staleToReplace(ds, placement));
    await createPodsExpected(
      this.#expectations,
      key,
      create.map((node) => () => this.#createPod(ds, node)),
    );
    if (remove.length > 0) {
      this.#expectations.expect(key, 0, remove.map(keyOf));
      for (const pod of remove) await this.#deletePod(key, ds, pod);
    }
  }

  /** RollingUpdate with maxUnavailable 1: one pod of an older template, when every other is ready. */
  #staleToReplace(ds: DaemonSet, placement: Placement): Pod[] {
    if (ds.spec?.updateStrategy?.type === 'OnDelete') return [];
    const pods = [...placement.desired].flatMap((n) => placement.podsByNode.get(n) ?? []);
    if (!pods.every((p) => isPodReady(p) && p.metadata?.deletionTimestamp === undefined)) return [];
    const hash = templateHash(ds);
    const stale = pods.find((p) => p.metadata?.labels?.[revisionLabel] !== hash);
    return stale === undefined ? [] : [stale];
  }

  async #createPod(ds: DaemonSet, node: string): Promise<void> {
    const created = await this.#opts.client.create(
      '/v1/pods',
      ds.metadata?.namespace ?? '',
      newDaemonPod(ds, node),
    );
    this.#opts.recorder?.event(objectRef(ds, daemonSetKind), {
      type: 'Normal',
      reason: 'SuccessfulCreate',
      message: `Created pod: ${created.metadata?.name ?? ''}`,
    });
  }

  async #deletePod(key: string, ds: DaemonSet, pod: Pod): Promise<void> {
    const name = pod.metadata?.name ?? '';
    try {
      await this.#opts.client.delete('/v1/pods', { namespace: pod.metadata?.namespace ?? '', name }, {});
    } catch (err) {
      this.#expectations.deletionObserved(key, keyOf(pod));
      if (reasonForError(err) !== 'NotFound') throw err;
      return;
    }
    this.#opts.recorder?.event(objectRef(ds, daemonSetKind), {
      type: 'Normal',
      reason: 'SuccessfulDelete',
      message: `Deleted pod: ${name}`,
    });
  }

  async #writeStatus(ds: DaemonSet, placement: Placement): Promise<void> {
    const status = daemonSetStatus(ds, placement, this.#opts.clock.now());
    if (JSON.stringify(ds.status) === JSON.stringify(status)) return;
    const updated = copyOf(ds);
    updated.status = status;
    try {
      await this.#opts.client.update('apps/v1/daemonsets/status', updated);
    } catch (err) {
      if (reasonForError(err) !== 'NotFound') throw err;
    }
  }
}
