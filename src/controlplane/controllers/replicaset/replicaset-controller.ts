// The ReplicaSet controller (pkg/controller/replicaset/replica_set.go): keeps spec.replicas active
// pods from the template, owned by the ReplicaSet (controller=true), adopting orphans its selector
// matches, deleting the least valuable pods first, and reports the counts in its status, with a
// ReplicaFailure condition (and FailedCreate or FailedDelete events) while its pod writes fail.
import type { ReplicaSet } from '../../../api/apps/v1/replica-set.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { labelSelectorAsSelector } from '../../../machinery/labels/meta-label-selector.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import { errorText } from '../../../server/logging/error-text.js';
import type { Logger } from '../../../server/logging/logger.js';
import type { EventRecorder } from '../event-recorder.js';
import { copyOf, type APIClient } from '../simulation/api-client.js';
import type { SimClock } from '../simulation/clock.js';
import { claimObjects } from '../simulation/claim-objects.js';
import { controllerRefOf, isPodActive } from '../simulation/controller-ref.js';
import {
  createPod,
  createPodsExpected,
  isNamespaceTerminating,
  objectRef,
  observePod,
  podFromTemplate,
} from '../simulation/pod-control.js';
import { keyOf, splitKey, type Informer } from '../simulation/informer.js';
import { WorkLoop } from '../simulation/work-loop.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';
import { Expectations } from './expectations.js';
import { podsToDelete } from './pods-to-delete.js';
import { calculateStatus, sameStatus } from './replicaset-status.js';

const replicaSetKind = { apiVersion: 'apps/v1', kind: 'ReplicaSet' } as const;

export interface ReplicaSetControllerOptions {
  readonly client: APIClient;
  readonly pods: Informer<Pod>;
  readonly replicaSets: Informer<ReplicaSet>;
  readonly clock: SimClock;
  readonly logger: Logger;
  readonly recorder?: EventRecorder;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

export class ReplicaSetController {
  readonly #opts: ReplicaSetControllerOptions;
  readonly #loop: WorkLoop;
  readonly #expectations: Expectations;

  constructor(opts: ReplicaSetControllerOptions) {
    this.#opts = opts;
    this.#expectations = new Expectations(() => opts.clock.now());
    this.#loop = new WorkLoop({
      queueName: 'replicaset',
      workqueueMetrics: opts.workqueueMetrics,

      name: 'replicaset',
      logger: opts.logger,
      workers: 2,
      sync: (k) => this.#sync(k),
    });
    opts.replicaSets.addHandler((_type, rs) => {
      this.#loop.queue.add(keyOf(rs));
    });
    opts.pods.addHandler((type, pod, old) => {
      this.#onPod(type, pod, old);
    });
  }

  run(): void {
    this.#loop.run();
    for (const rs of this.#opts.replicaSets.list()) this.#loop.queue.add(keyOf(rs));
  }

  close(): Promise<void> {
    return this.#loop.close();
  }

  #onPod(type: 'ADDED' | 'MODIFIED' | 'DELETED', pod: Pod, old: Pod | undefined): void {
    const ref = controllerRefOf(pod);
    const namespace = pod.metadata?.namespace ?? '';
    if (ref === undefined) {
      if (type === 'DELETED' || !isPodActive(pod)) return;
      // An orphan: the ReplicaSets that would adopt it.
      for (const rs of this.#opts.replicaSets.list(namespace)) {
        const sel = labelSelectorAsSelector(rs.spec?.selector);
        if (sel.ok && !sel.selector.empty() && sel.selector.matches(pod.metadata?.labels ?? {}))
          this.#loop.queue.add(keyOf(rs));
      }
      return;
    }
    if (ref.kind !== 'ReplicaSet') return;
    const rsKey = `${namespace}/${ref.name}`;
    observePod(this.#expectations, rsKey, { type, pod, old });
    this.#loop.queue.add(rsKey);
  }

  async #sync(key: string): Promise<void> {
    const rs = this.#opts.replicaSets.get(key);
    if (rs === undefined) {
      this.#expectations.forget(key);
      return;
    }
    const sel = labelSelectorAsSelector(rs.spec?.selector);
    if (!sel.ok) return;
    const { namespace } = splitKey(key);
    const owned = await claimObjects({
      client: this.#opts.client,
      path: '/v1/pods',
      owner: rs,
      gvk: replicaSetKind,
      selector: sel.selector,
      candidates: this.#opts.pods.list(namespace),
      adoptable: isPodActive,
    });
    const active = owned.filter(isPodActive);
    let failed: { readonly err: unknown } | undefined;
    if (this.#expectations.satisfied(key) && rs.metadata?.deletionTimestamp === undefined) {
      try {
        await this.#manageReplicas(key, rs, active);
      } catch (err) {
        failed = { err };
      }
    }
    // The status is written even when managing failed: its ReplicaFailure condition tells why.
    await this.#updateStatus(key, rs, {
      active,
      manageError: failed === undefined ? undefined : errorText(failed.err),
    });
    if (failed !== undefined) throw failed.err;
  }

  async #manageReplicas(key: string, rs: ReplicaSet, active: readonly Pod[]): Promise<void> {
    const diff = active.length - (rs.spec?.replicas ?? 1);
    if (diff < 0) {
      const count = Math.min(-diff, 500);
      const pod = (): Pod => podFromTemplate(rs, { gvk: replicaSetKind, template: rs.spec?.template });
      const control = { client: this.#opts.client, recorder: this.#opts.recorder };
      try {
        await createPodsExpected(
          this.#expectations,
          key,
          Array.from(
            { length: count },
            () => () => createPod(control, { owner: rs, gvk: replicaSetKind, pod: pod() }),
          ),
        );
      } catch (err) {
        // Every create fails while the namespace goes away; that is no failure of the ReplicaSet.
        if (!isNamespaceTerminating(err)) throw err;
      }
      return;
    }
    if (diff === 0) return;
    const victims = podsToDelete(active, Math.min(diff, 500));
    this.#expectations.expect(key, 0, victims.map(keyOf));
    await Promise.all(victims.map((pod) => this.#deletePod(key, rs, pod)));
  }

  async #deletePod(key: string, rs: ReplicaSet, pod: Pod): Promise<void> {
    const { namespace } = splitKey(key);
    const name = pod.metadata?.name ?? '';
    try {
      await this.#opts.client.delete('/v1/pods', { namespace, name }, {});
    } catch (err) {
      this.#expectations.deletionObserved(key, keyOf(pod));
      if (reasonForError(err) === 'NotFound') return;
      this.#opts.recorder?.event(objectRef(rs, replicaSetKind), {
        type: 'Warning',
        reason: 'FailedDelete',
        message: `Error deleting: ${errorText(err)}`,
      });
      throw err;
    }
    this.#opts.recorder?.event(objectRef(rs, replicaSetKind), {
      type: 'Normal',
      reason: 'SuccessfulDelete',
      message: `Deleted pod: ${name}`,
    });
  }

  async #updateStatus(
    key: string,
    rs: ReplicaSet,
    at: { active: readonly Pod[]; manageError: string | undefined },
  ): Promise<void> {
    const now = this.#opts.clock.now();
    const { status, recheckAfterMs } = calculateStatus(rs, at.active, { now, manageError: at.manageError });
    if (recheckAfterMs !== undefined) this.#loop.queue.addAfter(key, recheckAfterMs);
    if (sameStatus(rs.status, status)) return;
    const updated = copyOf(rs);
    updated.status = status;
    try {
      await this.#opts.client.update('apps/v1/replicasets/status', updated);
    } catch (err) {
      if (reasonForError(err) !== 'NotFound') throw err;
    }
  }
}
