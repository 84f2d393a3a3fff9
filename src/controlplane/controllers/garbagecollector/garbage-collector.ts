// The garbage collector of kube-controller-manager (pkg/controller/garbagecollector), run inside
// the API server: monitors of every served resource that can be listed, watched and deleted, custom
// resources included as their CRDs come and go, feed one dependency graph; its workers delete
// objects whose owners are all gone (in the background, or in the foreground under an owner deleted
// that way), let foreground deletions finish, and orphan dependents. Everything they write goes
// through the same admitted storages as a client's requests. --enable-garbage-collector=false
// leaves it unbuilt, as it leaves the finalizers unset.
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import type { Logger } from '../../../server/logging/logger.js';
import { EventRecorder, eventsIn } from '../event-recorder.js';
import { RateLimitingQueue } from '../namespace/rate-limiting-queue.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';
import { AbsentOwnerCache } from './absent-owner-cache.js';
import {
  attemptToDeleteWorker,
  attemptToOrphanWorker,
  type Collector,
  type Outcome,
} from './attempt-to-delete.js';
import type { GraphNode } from './graph.js';
import { GraphBuilder } from './graph-builder.js';
import { identityString, ownerIdentity } from './identity.js';
import { runMonitor } from './monitors.js';
import { Operations } from './operations.js';
import { groupResourceKey, ServedResources, type MonitoredResource } from './resources.js';
import { stopReason } from '../../../machinery/errors/stop-reason.js';

export const garbageCollectorHookName = 'start-garbage-collector';

/** Groups served besides the built-in ones that change over time (custom resources). */
export interface DynamicGroups {
  readonly groups: readonly APIGroupInfo[];
  /** Calls `listener` after every change of `groups`; answers how to stop. */
  onChange(listener: () => void): () => void;
}

export interface GarbageCollectorOptions {
  /** The served (admitted) built-in groups. */
  readonly groups: readonly APIGroupInfo[];
  readonly dynamic?: DynamicGroups;
  readonly logger: Logger;
  /** --concurrent-gc-syncs: workers per queue (kube: 20). */
  readonly workers?: number;
  /** How long the workers wait for the monitors' first lists before starting anyway (kube: 30s). */
  readonly initialSyncTimeoutMs?: number;
  readonly resyncPeriodMs?: number;
  /** Where the work queues' metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

interface Monitor {
  readonly resource: MonitoredResource;
  readonly abort: AbortController;
  readonly synced: Promise<void>;
  readonly stopped: Promise<void>;
}

export class GarbageCollector {
  readonly #opts: GarbageCollectorOptions;
  readonly #abort = new AbortController();
  readonly #deletes: RateLimitingQueue;
  readonly #orphans: RateLimitingQueue;
  readonly #monitors = new Map<string, Monitor>();
  readonly #stopping = new Set<Promise<void>>();
  readonly #graph: GraphBuilder;
  readonly #collector: Collector;
  readonly #recorder: EventRecorder;
  #resources: ServedResources;
  #unsubscribe: (() => void) | undefined;
  #running: Promise<unknown> | undefined;
  #closed: Promise<void> | undefined;

  constructor(opts: GarbageCollectorOptions) {
    this.#opts = opts;
    const metrics = opts.workqueueMetrics === undefined ? {} : { metrics: opts.workqueueMetrics };
    this.#deletes = new RateLimitingQueue({
      baseDelayMs: 5,
      maxDelayMs: 60_000,
      name: 'garbage_collector_attempt_to_delete',
      ...metrics,
    });
    this.#orphans = new RateLimitingQueue({
      baseDelayMs: 5,
      maxDelayMs: 60_000,
      name: 'garbage_collector_attempt_to_orphan',
      ...metrics,
    });
    this.#resources = new ServedResources(opts.groups);
    this.#recorder = new EventRecorder({
      events: eventsIn(opts.groups),
      component: 'garbage-collector-controller',
      logger: opts.logger,
    });
    const absentOwners = new AbsentOwnerCache();
    this.#graph = new GraphBuilder({
      absentOwners,
      attemptToDelete: (uid) => {
        this.#deletes.add(uid);
      },
      attemptToDeleteLater: (uid) => {
        this.#deletes.addRateLimited(uid);
      },
      attemptToOrphan: (uid) => {
        this.#orphans.add(uid);
      },
      invalidNamespaceOwnerRef: (dep, ownerUID) => {
        this.#reportInvalidNamespaceOwnerRef(dep, ownerUID);
      },
    });
    this.#collector = {
      graph: this.#graph,
      ops: new Operations(() => this.#resources, this.#abort.signal),
      absentOwners,
      attemptToDelete: (uid) => {
        this.#deletes.add(uid);
      },
      logger: opts.logger,
    };
  }

  /** The graph, for tests that look at what it holds. */
  get graph(): GraphBuilder {
    return this.#graph;
  }

  /** Starts the monitors, and the workers once the monitors have listed; returns at once. */
  run(): void {
    if (this.#running !== undefined || this.#abort.signal.aborted) return;
    this.#opts.logger.info('Starting controller', { controller: 'garbagecollector' });
    this.#unsubscribe = this.#opts.dynamic?.onChange(() => {
      this.#syncMonitors();
    });
    this.#syncMonitors();
    this.#running = this.#startWorkers();
  }

  /** Resolves once every monitor running now has taken its first list into the graph. */
  synced(): Promise<void> {
    return Promise.all([...this.#monitors.values()].map((m) => m.synced)).then(() => undefined);
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#unsubscribe?.();
      this.#abort.abort(stopReason);
      this.#deletes.close();
      this.#orphans.close();
      await Promise.all([
        this.#running,
        ...[...this.#monitors.values()].map((m) => m.stopped),
        ...this.#stopping,
      ]);
      this.#monitors.clear();
      if (this.#running !== undefined)
        this.#opts.logger.info('Shutting down controller', { controller: 'garbagecollector' });
    })();
    return this.#closed;
  }

  async #startWorkers(): Promise<void> {
    const timeoutMs = this.#opts.initialSyncTimeoutMs ?? 30_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([this.synced(), timeout]);
    clearTimeout(timer);
    if (this.#abort.signal.aborted) return;
    const workers = Math.max(1, this.#opts.workers ?? 20);
    const c = this.#collector;
    await Promise.all([
      ...Array.from({ length: workers }, () =>
        this.#worker(this.#deletes, (uid) => attemptToDeleteWorker(c, uid)),
      ),
      ...Array.from({ length: workers }, () =>
        this.#worker(this.#orphans, (uid) => attemptToOrphanWorker(c, uid)),
      ),
    ]);
  }

  async #worker(queue: RateLimitingQueue, work: (uid: string) => Promise<Outcome>): Promise<void> {
    for (;;) {
      const uid = await queue.get();
      if (uid === undefined) return;
      try {
        if ((await work(uid)) === 'forget') queue.forget(uid);
        else queue.addRateLimited(uid);
      } catch (err) {
        if (!this.#abort.signal.aborted)
          this.#opts.logger.error('garbage collector: unexpected failure', err);
        queue.addRateLimited(uid);
      } finally {
        queue.done(uid);
      }
    }
  }

  /** Starts monitors for resources served now, stops those of resources gone or rebuilt. */
  #syncMonitors(): void {
    if (this.#abort.signal.aborted) return;
    this.#resources = new ServedResources([...this.#opts.groups, ...(this.#opts.dynamic?.groups ?? [])]);
    const wanted = new Map(this.#resources.monitored.map((r) => [groupResourceKey(r), r]));
    for (const [key, m] of this.#monitors) {
      if (wanted.get(key)?.storage === m.resource.storage) continue;
      m.abort.abort(stopReason);
      this.#monitors.delete(key);
      this.#stopping.add(m.stopped);
      void m.stopped.finally(() => this.#stopping.delete(m.stopped));
    }
    for (const [key, r] of wanted)
      if (!this.#monitors.has(key)) this.#monitors.set(key, this.#startMonitor(r));
  }

  #startMonitor(resource: MonitoredResource): Monitor {
    const abort = new AbortController();
    const signal = AbortSignal.any([abort.signal, this.#abort.signal]);
    let onSynced: () => void = () => undefined;
    const synced = new Promise<void>((resolve) => (onSynced = resolve));
    const stopped = runMonitor(resource, {
      graph: this.#graph,
      signal,
      logger: this.#opts.logger,
      resyncPeriodMs: this.#opts.resyncPeriodMs,
      onSynced,
    }).finally(onSynced);
    return { resource, abort, synced, stopped };
  }

  /** reportInvalidNamespaceOwnerRef: a Warning Event on the dependent. */
  #reportInvalidNamespaceOwnerRef(dep: GraphNode, ownerUID: string): void {
    const ref = dep.owners.find((r) => r.uid === ownerUID);
    if (ref === undefined) return;
    const id = dep.identity;
    const invalid = identityString(ownerIdentity(ref, id.namespace));
    this.#recorder.event(
      { kind: id.kind, apiVersion: id.apiVersion, namespace: id.namespace, name: id.name, uid: id.uid },
      {
        type: 'Warning',
        reason: 'OwnerRefInvalidNamespace',
        message: `ownerRef ${invalid} does not exist in namespace ${JSON.stringify(id.namespace)}`,
      },
    );
  }
}
