// The namespace controller (pkg/controller/namespace/namespace_controller.go): watches namespaces
// and empties each one that is being deleted, retrying until its content is gone and it is
// finalized. Runs inside the API server, against the registry, as a post-start hook starts it.
import type { Namespace } from '../../../api/core/v1/namespace.js';
import type { KubeObject } from '../../../api/meta.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import { internalContext } from '../../../registry/rest/context.js';
import type { Logger } from '../../../server/logging/logger.js';
import { errorText } from '../../../server/logging/error-text.js';
import { finalizerKubernetes } from '../../../registry/core/namespace/finalizer-names.js';
import {
  deleteNamespace,
  ResourcesRemainingError,
  type NamespacedResourcesDeleter,
} from './namespaced-resources-deleter.js';
import { RateLimitingQueue } from './rate-limiting-queue.js';
import {
  deletableResources,
  namespaceClient,
  type DeletableResource,
  type NamespaceClient,
} from './served-resources.js';

export interface NamespaceControllerOptions {
  readonly client: NamespaceClient;
  readonly resources: () => readonly DeletableResource[];
  readonly logger: Logger;
  /** --concurrent-namespace-syncs (kube: 10). */
  readonly workers?: number;
  /**
   * How long after seeing a deletion to start (kube's namespaceDeletionGracePeriod, 5s): lets
   * other API servers refuse new content first and creations still in flight land.
   */
  readonly deletionGracePeriodMs?: number;
  /** --namespace-sync-period: how often every namespace is looked at again (kube: 5m). */
  readonly resyncPeriodMs?: number;
  /** The wait before looking again at content that is going away (kube: estimate/2 + 1 seconds). */
  readonly remainingDelayMs?: (estimateSeconds: number) => number;
}

const relistBackoff = { initialMs: 100, maxMs: 30_000 };

const kubeRemainingDelayMs = (estimate: number): number => (Math.floor(estimate / 2) + 1) * 1000;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

export class NamespaceController {
  readonly #opts: NamespaceControllerOptions;
  readonly #deleter: NamespacedResourcesDeleter;
  readonly #queue = new RateLimitingQueue({ baseDelayMs: 5, maxDelayMs: 60_000 });
  readonly #abort = new AbortController();
  #running: Promise<unknown> | undefined;
  #closed: Promise<void> | undefined;

  constructor(opts: NamespaceControllerOptions) {
    this.#opts = opts;
    this.#deleter = {
      client: opts.client,
      resources: opts.resources,
      finalizerToken: finalizerKubernetes,
      logger: opts.logger,
    };
  }

  /** Starts watching and the workers; returns at once. */
  run(): void {
    if (this.#running !== undefined || this.#abort.signal.aborted) return;
    this.#opts.logger.info('Starting controller', { controller: 'namespace' });
    const workers = Array.from({ length: Math.max(1, this.#opts.workers ?? 10) }, () => this.#worker());
    this.#running = Promise.all([this.#watchLoop(), ...workers]);
  }

  /** Stops watching and waits for the syncs in progress to end. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#abort.abort();
      this.#queue.close();
      if (this.#running === undefined) return;
      await this.#running;
      this.#opts.logger.info('Shutting down controller', { controller: 'namespace' });
    })();
    return this.#closed;
  }

  /** enqueueNamespace: only namespaces being deleted, after the grace period. */
  #enqueue(obj: KubeObject): void {
    const ns = obj as Namespace;
    if ((ns.metadata?.deletionTimestamp ?? '') === '') return;
    this.#queue.addAfter(ns.metadata?.name ?? '', this.#opts.deletionGracePeriodMs ?? 5000);
  }

  /** List, then watch from the list's revision; relist on every end of the watch and each resync. */
  async #watchLoop(): Promise<void> {
    const signal = this.#abort.signal;
    let backoff = relistBackoff.initialMs;
    while (!this.#stopped()) {
      try {
        await this.#listAndWatch(signal);
        backoff = relistBackoff.initialMs;
      } catch (err) {
        if (this.#stopped()) return;
        this.#opts.logger.v(2, 'namespace controller: list and watch failed, retrying', {
          err: errorText(err),
        });
        await sleep(backoff, signal);
        backoff = Math.min(backoff * 2, relistBackoff.maxMs);
      }
    }
  }

  #stopped(): boolean {
    return this.#abort.signal.aborted;
  }

  async #listAndWatch(signal: AbortSignal): Promise<void> {
    const ctx = internalContext({ signal });
    const namespaces = this.#opts.client.namespaces;
    const list = await namespaces.list(ctx, {});
    for (const ns of list.items) this.#enqueue(ns);
    const rv = list.metadata.resourceVersion;
    const watch = await namespaces.watch(ctx, rv === undefined ? {} : { resourceVersion: rv });
    const resync = { due: false };
    const timer = setTimeout(() => {
      resync.due = true;
      watch.stop();
    }, this.#opts.resyncPeriodMs ?? 300_000);
    try {
      for await (const event of watch) {
        if (event.type === 'ERROR') throw new Error(event.object.message ?? 'watch error');
        if (event.type === 'ADDED' || event.type === 'MODIFIED') this.#enqueue(event.object);
      }
    } finally {
      clearTimeout(timer);
      watch.stop();
    }
    // A watch that ends on its own (storage closing, a slow watcher cut off) relists after a backoff.
    if (!resync.due && !this.#stopped()) throw new Error('the namespace watch ended');
  }

  async #worker(): Promise<void> {
    for (;;) {
      const key = await this.#queue.get();
      if (key === undefined) return;
      try {
        await deleteNamespace(this.#deleter, this.#abort.signal, key);
        this.#queue.forget(key);
      } catch (err) {
        this.#requeue(key, err);
      } finally {
        this.#queue.done(key);
      }
    }
  }

  #requeue(key: string, err: unknown): void {
    if (this.#stopped()) return;
    if (err instanceof ResourcesRemainingError) {
      this.#opts.logger.v(4, 'Content remaining in namespace', { namespace: key, waitSeconds: err.estimate });
      this.#queue.addAfter(key, (this.#opts.remainingDelayMs ?? kubeRemainingDelayMs)(err.estimate));
      return;
    }
    this.#queue.addRateLimited(key);
    this.#opts.logger.error(`deletion of namespace ${key} failed`, err);
  }
}

/** The controller over the served API, or undefined when namespaces are not served. */
export function newNamespaceController(
  groups: readonly APIGroupInfo[],
  opts: Omit<NamespaceControllerOptions, 'client' | 'resources'>,
): NamespaceController | undefined {
  const client = namespaceClient(groups);
  if (client === undefined) return undefined;
  const resources = deletableResources(groups);
  return new NamespaceController({ ...opts, client, resources: () => resources });
}
