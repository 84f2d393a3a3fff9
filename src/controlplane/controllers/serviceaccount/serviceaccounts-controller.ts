// The service accounts controller (pkg/controller/serviceaccount/serviceaccounts_controller.go):
// makes sure every active namespace has a `default` ServiceAccount, creating it when a namespace
// appears and again when the account is deleted. Runs inside the API server against the served
// (admitted) storages, started by a post-start hook.
import type { Namespace } from '../../../api/core/v1/namespace.js';
import type { KubeObject } from '../../../api/meta.js';
import { StatusError } from '../../../machinery/errors/index.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import {
  isCreater,
  isGetter,
  isLister,
  isWatcher,
  type Creater,
  type Getter,
  type Lister,
  type Watcher,
} from '../../../registry/rest/capabilities.js';
import { internalContext } from '../../../registry/rest/context.js';
import { errorText } from '../../../server/logging/error-text.js';
import type { Logger } from '../../../server/logging/logger.js';
import { RateLimitingQueue } from '../namespace/rate-limiting-queue.js';
import { runListWatch } from './list-watch.js';

export interface ServiceAccountsControllerOptions {
  readonly namespaces: Getter & Lister & Watcher;
  readonly serviceAccounts: Getter & Lister & Watcher & Creater;
  readonly logger: Logger;
  /** The accounts every namespace gets (kube: `default`). */
  readonly serviceAccountNames?: readonly string[];
  readonly resyncPeriodMs?: number;
}

const codeOf = (err: unknown): number | undefined =>
  err instanceof StatusError ? err.status.code : undefined;

export class ServiceAccountsController {
  readonly #opts: ServiceAccountsControllerOptions;
  readonly #names: readonly string[];
  readonly #queue = new RateLimitingQueue({ baseDelayMs: 5, maxDelayMs: 60_000 });
  readonly #abort = new AbortController();
  #running: Promise<unknown> | undefined;
  #closed: Promise<void> | undefined;

  constructor(opts: ServiceAccountsControllerOptions) {
    this.#opts = opts;
    this.#names = opts.serviceAccountNames ?? ['default'];
  }

  /** Starts watching namespaces and service accounts; returns at once. */
  run(): void {
    if (this.#running !== undefined || this.#abort.signal.aborted) return;
    this.#opts.logger.info('Starting controller', { controller: 'serviceaccount' });
    const signal = this.#abort.signal;
    const onError = (what: string) => (err: unknown) => {
      this.#opts.logger.v(2, `serviceaccount controller: list and watch of ${what} failed, retrying`, {
        err: errorText(err),
      });
    };
    const watches = [
      runListWatch({
        source: this.#opts.namespaces,
        signal,
        onEvent: (type, obj) => {
          if (type !== 'DELETED') this.#queue.add(obj.metadata?.name ?? '');
        },
        onError: onError('namespaces'),
        ...(this.#opts.resyncPeriodMs === undefined ? {} : { resyncPeriodMs: this.#opts.resyncPeriodMs }),
      }),
      runListWatch({
        source: this.#opts.serviceAccounts,
        signal,
        onEvent: (type, obj) => {
          if (type === 'DELETED' && this.#names.includes(obj.metadata?.name ?? ''))
            this.#queue.add(obj.metadata?.namespace ?? '');
        },
        onError: onError('serviceaccounts'),
        ...(this.#opts.resyncPeriodMs === undefined ? {} : { resyncPeriodMs: this.#opts.resyncPeriodMs }),
      }),
    ];
    this.#running = Promise.all([...watches, this.#worker()]);
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#abort.abort();
      this.#queue.close();
      if (this.#running === undefined) return;
      await this.#running;
      this.#opts.logger.info('Shutting down controller', { controller: 'serviceaccount' });
    })();
    return this.#closed;
  }

  async #worker(): Promise<void> {
    for (;;) {
      const key = await this.#queue.get();
      if (key === undefined) return;
      try {
        await this.#syncNamespace(key);
        this.#queue.forget(key);
      } catch (err) {
        if (!this.#abort.signal.aborted) {
          this.#opts.logger.error(`syncing service accounts of namespace ${key} failed`, err);
          this.#queue.addRateLimited(key);
        }
      } finally {
        this.#queue.done(key);
      }
    }
  }

  /** syncNamespace: only Active namespaces get accounts; one already there is left alone. */
  async #syncNamespace(namespace: string): Promise<void> {
    const signal = this.#abort.signal;
    let ns: Namespace;
    try {
      ns = (await this.#opts.namespaces.get(internalContext({ signal }), namespace, {})) as Namespace;
    } catch (err) {
      if (codeOf(err) === 404) return;
      throw err;
    }
    if ((ns.metadata?.deletionTimestamp ?? '') !== '' || (ns.status?.phase ?? 'Active') !== 'Active') return;
    const ctx = internalContext({ namespace, signal });
    for (const name of this.#names) {
      if (await this.#exists(namespace, name)) continue;
      const sa: KubeObject = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } };
      try {
        await this.#opts.serviceAccounts.create(ctx, sa, { options: {} });
      } catch (err) {
        // Made meanwhile, or the namespace started terminating (NamespaceLifecycle forbids).
        const code = codeOf(err);
        if (code === 409 || code === 403) continue;
        throw err;
      }
    }
  }

  async #exists(namespace: string, name: string): Promise<boolean> {
    try {
      await this.#opts.serviceAccounts.get(
        internalContext({ namespace, signal: this.#abort.signal }),
        name,
        {},
      );
      return true;
    } catch (err) {
      if (codeOf(err) === 404) return false;
      throw err;
    }
  }
}

/** The controller over the served API, or undefined when namespaces or serviceaccounts are not served. */
export function newServiceAccountsController(
  groups: readonly APIGroupInfo[],
  opts: Omit<ServiceAccountsControllerOptions, 'namespaces' | 'serviceAccounts'>,
): ServiceAccountsController | undefined {
  const core = groups.find((g) => g.group === '')?.versionedResourcesStorageMap['v1'];
  const namespaces = core?.['namespaces'];
  const serviceAccounts = core?.['serviceaccounts'];
  if (namespaces === undefined || serviceAccounts === undefined) return undefined;
  if (!isGetter(namespaces) || !isLister(namespaces) || !isWatcher(namespaces)) return undefined;
  const sa = serviceAccounts;
  if (!isGetter(sa) || !isLister(sa) || !isWatcher(sa) || !isCreater(sa)) return undefined;
  return new ServiceAccountsController({ ...opts, namespaces, serviceAccounts: sa });
}
