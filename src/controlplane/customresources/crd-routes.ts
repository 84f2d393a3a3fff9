// Serving custom resources (kube's apiextensions-apiserver crdHandler): every established
// CustomResourceDefinition gets a store per storage version with views for its other served
// versions, and the route table of all of them is rebuilt when a CRD changes. The table is the API
// handler's dynamic routes, so discovery lists the custom resources next to the built-in ones.
// A CRD is served under the names it has accepted (kube's crdHandler does so), which differ from the
// ones it asks for while another CRD of its group holds some of them. CRD events apply one after another; a request that finds no route while some are still being
// applied waits for them (`settled`), so a custom resource can be created right after its CRD.
import type { AdmissionChain } from '../../admission/chain.js';
import type { CustomResourceDefinition } from '../../api/apiextensions/v1/crd.js';
import type { KubeObject } from '../../api/meta.js';
import type { Scheme } from '../../api/scheme.js';
import type { DynamicRoutes } from '../../endpoints/api-handler.js';
import { FieldManagers } from '../../endpoints/fieldmanager/field-managers.js';
import { applyPatchMechanism } from '../../endpoints/handlers/apply-patch.js';
import type { HandlerConfig } from '../../endpoints/handlers/request-scope.js';
import { installAPIGroups } from '../../endpoints/installer.js';
import { crdDeprecationWarnings } from './crd-deprecation.js';
import { defaultMaxRequestBodyBytes } from '../../endpoints/request/read-body.js';
import type { RouteTable } from '../../endpoints/route-table.js';
import {
  compareKubeAwareVersions,
  isEstablished,
} from '../../registry/apiextensions/customresource/crd-version.js';
import {
  newCustomResourceStorage,
  type CustomResourceStorage,
} from '../../registry/apiextensions/customresource/storage.js';
import type { RESTOptionsGetter } from '../../registry/generic/rest-options.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import type { WebhookPoster } from '../../registry/webhook/client.js';
import type { Lister, Storage, Updater, Watcher } from '../../registry/rest/capabilities.js';
import { errorText } from '../../server/logging/error-text.js';
import type { Logger } from '../../server/logging/logger.js';
import { runListWatch } from '../controllers/list-watch.js';
import { customResourceCleanupFinalizer } from '../../registry/apiextensions/crd-store.js';
import { deleteInstances, neverEstablished, removeCleanupFinalizer } from './crd-finalizer.js';
import { CustomResourceKinds } from './cr-kinds.js';
import { stopReason } from '../../machinery/errors/stop-reason.js';
import { refusingCreatesIn, servedGroupVersions, withAcceptedNames } from './served-crd.js';

export interface CustomResourceRoutesOptions {
  readonly restOptionsGetter: RESTOptionsGetter;
  /** Resolves the built-in definitions custom resources refer to (ObjectMeta). */
  readonly scheme: Scheme;
  /** customresourcedefinitions/status: where the cleanup finalizer is removed. */
  readonly crdStatus?: Updater;
  /** The admission chain the handlers run, as for the built-in resources. */
  readonly admission?: AdmissionChain;
  readonly logger: Logger;
  /** Calls conversion webhooks (CRDs with conversion strategy Webhook). */
  readonly webhookClient?: WebhookPoster;
}

interface Served {
  /** The spec the storage was built from. */
  readonly spec: string;
  readonly crd: CustomResourceDefinition;
  readonly storage: CustomResourceStorage;
  /** The CRD is being deleted: creates are refused. */
  readonly terminating: boolean;
}

const emptyTable: RouteTable = { groupVersions: new Map(), groups: [] };

export class CustomResourceRoutes implements DynamicRoutes {
  readonly #opts: CustomResourceRoutesOptions;
  readonly #served = new Map<string, Served>();
  #table: RouteTable = emptyTable;
  #groups: readonly APIGroupInfo[] = [];
  #crds: readonly CustomResourceDefinition[] = [];
  #fieldManagers: FieldManagers | undefined;
  /** Every CRD that exists, served or not (a CRD refused its names, or not Established). */
  readonly #defined = new Map<string, CustomResourceDefinition>();
  #queue: Promise<void> = Promise.resolve();
  #pending = 0;
  #closed = false;
  readonly #finalizing = new Map<string, Promise<void>>();
  readonly #abort = new AbortController();
  readonly #listeners = new Set<() => void>();

  constructor(opts: CustomResourceRoutesOptions) {
    this.#opts = opts;
  }

  get table(): RouteTable {
    return this.#table;
  }

  /** The groups served now (the storages as the registry built them). */
  get groups(): readonly APIGroupInfo[] {
    return this.#groups;
  }

  /** The field managers of the kinds `groups` serve (their Scales too); replaced together with `groups`. */
  get fieldManagers(): FieldManagers | undefined {
    return this.#fieldManagers;
  }

  /** The CRDs `groups` serve; replaced together with `groups`. */
  get crds(): readonly CustomResourceDefinition[] {
    return this.#crds;
  }

  /**
   * Every CRD that exists, served or not: kube's crdregistration controller registers an APIService
   * for each served version of each, Established or not.
   */
  get definitions(): readonly CustomResourceDefinition[] {
    return [...this.#defined.values()];
  }

  /**
   * Calls `listener` after every change of `groups` (the garbage collector's monitors follow them),
   * and of the group versions of `definitions`.
   */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** While CRD changes are being applied, resolves once they are; undefined when none are. */
  settled(): Promise<void> | undefined {
    return this.#pending > 0 ? this.#queue : undefined;
  }

  /** A watch event of a CRD. */
  apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: KubeObject): void {
    const crd = withAcceptedNames(obj as CustomResourceDefinition);
    this.#define(crd.metadata?.name ?? '', type === 'DELETED' ? undefined : crd);
    this.#enqueue(() => (type === 'DELETED' ? this.#remove(crd) : this.#update(crd)));
  }

  /** A (re)list of the CRDs: what is gone stops being served, its objects stay stored. */
  replace(items: readonly KubeObject[]): void {
    const names = new Set(items.map((i) => i.metadata?.name ?? ''));
    for (const name of [...this.#defined.keys()]) if (!names.has(name)) this.#define(name, undefined);
    for (const [name, served] of this.#served)
      if (!names.has(name)) this.#enqueue(() => this.#remove(served.crd));
    for (const item of items) this.apply('ADDED', item);
  }

  /** Records a CRD's definition; listeners hear of a change of the group versions it defines. */
  #define(name: string, crd: CustomResourceDefinition | undefined): void {
    const before = this.#defined.get(name);
    if (crd === undefined) this.#defined.delete(name);
    else this.#defined.set(name, crd);
    if (servedGroupVersions(before) === servedGroupVersions(crd)) return;
    for (const listener of this.#listeners) listener();
  }

  #enqueue(step: () => Promise<void>): void {
    this.#pending++;
    this.#queue = this.#queue
      .then(step)
      .catch((err: unknown) => {
        this.#opts.logger.error('Failed to serve a CustomResourceDefinition', err);
      })
      .finally(() => {
        this.#pending--;
      });
  }

  async #update(crd: CustomResourceDefinition): Promise<void> {
    if (this.#closed) return;
    const name = crd.metadata?.name ?? '';
    const current = this.#served.get(name);
    if (crd.metadata?.deletionTimestamp !== undefined) {
      await this.#terminate(crd, current);
      return;
    }
    if (!isEstablished(crd)) {
      await this.#remove(crd);
      return;
    }
    const spec = JSON.stringify(crd.spec);
    if (current?.spec === spec) return;
    const storage = await this.#newStorage(crd);
    this.#served.set(name, { spec, crd, storage, terminating: false });
    this.#rebuild();
    await current?.storage.destroy();
  }

  /**
   * A CRD being deleted: its resources refuse creates from now on, and when it carries the cleanup
   * finalizer its objects are deleted (outside the queue: that may take a while) and the finalizer
   * removed, which lets the CRD go.
   */
  async #terminate(crd: CustomResourceDefinition, current: Served | undefined): Promise<void> {
    const name = crd.metadata?.name ?? '';
    if (!(crd.metadata?.finalizers ?? []).includes(customResourceCleanupFinalizer)) {
      await this.#remove(crd);
      return;
    }
    let storage = current?.storage;
    if (storage === undefined && isEstablished(crd)) {
      storage = await this.#newStorage(crd);
    }
    if (storage !== undefined && current?.terminating !== true) {
      this.#served.set(name, { spec: JSON.stringify(crd.spec), crd, storage, terminating: true });
      this.#rebuild();
    }
    if (this.#finalizing.has(name)) return;
    const finalizing = this.#finalize(name, storage).finally(() => this.#finalizing.delete(name));
    this.#finalizing.set(name, finalizing);
  }

  async #finalize(name: string, storage: CustomResourceStorage | undefined): Promise<void> {
    const status = this.#opts.crdStatus;
    if (status === undefined) return;
    try {
      const condition =
        storage === undefined ? neverEstablished : await deleteInstances(storage, this.#abort.signal);
      await removeCleanupFinalizer(status, { name, condition, signal: this.#abort.signal });
    } catch (err) {
      if (this.#abort.signal.aborted) return;
      this.#opts.logger.error('Failed to delete the custom resources of a deleted CRD', err, { crd: name });
    }
  }

  /** Stops serving a CRD; its stored objects stay (a CRD deleted through its finalizer has none). */
  async #remove(crd: CustomResourceDefinition): Promise<void> {
    const name = crd.metadata?.name ?? '';
    const current = this.#served.get(name);
    if (current === undefined) return;
    this.#served.delete(name);
    this.#rebuild();
    await current.storage.destroy();
  }

  #rebuild(): void {
    const served = [...this.#served.values()];
    const groups = new Map<string, Map<string, Record<string, Storage>>>();
    const warnings = new Map<string, Record<string, Record<string, string>>>();
    for (const s of served) {
      const { group, names } = s.crd.spec;
      let byVersion = warnings.get(group);
      if (byVersion === undefined) warnings.set(group, (byVersion = {}));
      for (const [version, warning] of crdDeprecationWarnings(s.crd))
        (byVersion[version] ??= {})[names.plural] = warning;
      const versions = groups.get(s.crd.spec.group) ?? new Map<string, Record<string, Storage>>();
      for (const [version, paths] of s.storage.versions)
        versions.set(version, {
          ...versions.get(version),
          ...(s.terminating ? refusingCreatesIn(paths, s.crd) : paths),
        });
      groups.set(s.crd.spec.group, versions);
    }
    const infos: APIGroupInfo[] = [...groups].map(([group, versions]) => ({
      group,
      prioritizedVersions: [...versions.keys()].sort(compareKubeAwareVersions),
      versionedResourcesStorageMap: Object.fromEntries(versions),
      deprecationWarnings: warnings.get(group) ?? {},
    }));
    const kinds = new CustomResourceKinds(
      served.map((s) => s.crd),
      this.#opts.scheme,
    );
    const fieldManagers = new FieldManagers(kinds.fieldSchemas());
    const config: HandlerConfig = {
      maxRequestBodyBytes: defaultMaxRequestBodyBytes,
      minRequestTimeoutSeconds: 1800,
      kinds,
      structural: kinds,
      patchMechanisms: { 'application/apply-patch+yaml': applyPatchMechanism(fieldManagers) },
      fieldManagers,
      admission: this.#opts.admission,
      // Custom resources are unstructured: their list items keep kind and apiVersion.
      listItemsTyped: true,
      unstructured: true,
    };
    this.#crds = served.map((s) => s.crd);
    this.#fieldManagers = fieldManagers;
    this.#groups = infos;
    this.#table = installAPIGroups(this.#groups, config);
    for (const listener of this.#listeners) listener();
  }

  #newStorage(crd: CustomResourceDefinition): Promise<CustomResourceStorage> {
    const { restOptionsGetter, webhookClient } = this.#opts;
    return newCustomResourceStorage({
      crd,
      restOptionsGetter,
      ...(webhookClient === undefined ? {} : { webhookClient }),
    });
  }

  /** Stops serving everything (stored objects stay). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#abort.abort(stopReason);
    await this.#queue;
    await Promise.all(this.#finalizing.values());
    const served = [...this.#served.values()];
    this.#served.clear();
    this.#defined.clear();
    this.#table = emptyTable;
    this.#groups = [];
    this.#crds = [];
    this.#fieldManagers = undefined;
    await Promise.all(served.map((s) => s.storage.destroy()));
  }
}

/**
 * Serves the CRDs `source` lists and watches until `signal` aborts; resolves once the first list is
 * served (kube's crd-informer-synced readiness), and `stopped` when the loop has ended.
 */
export function serveCustomResourceDefinitions(
  routes: CustomResourceRoutes,
  opts: { source: Lister & Watcher; signal: AbortSignal; logger: Logger },
): { synced: Promise<void>; stopped: Promise<void> } {
  let markSynced: () => void = () => undefined;
  const synced = new Promise<void>((resolve) => {
    markSynced = resolve;
  });
  const stopped = runListWatch({
    source: opts.source,
    signal: opts.signal,
    listResourceVersion: '0',
    onList: (items) => {
      routes.replace(items);
      void (routes.settled() ?? Promise.resolve()).then(markSynced);
    },
    onEvent: (type, obj) => {
      routes.apply(type, obj);
    },
    onError: (err) => {
      opts.logger.v(2, 'CRD watch failed, relisting', { err: errorText(err) });
    },
  }).finally(markSynced);
  return { synced, stopped };
}
