// Namespace storage (pkg/registry/core/namespace/storage/storage.go): namespaces (no delete-collection,
// a deletion that goes through Terminating), namespaces/status and namespaces/finalize, the last two
// the same store with other update strategies.
import type { ObjectHistory } from '../../../storage/interfaces.js';
import type { Namespace, NamespaceList } from '../../../api/core/v1/namespace.js';
import type { KubeList, KubeObject } from '../../../api/meta.js';
import type { Table } from '../../../api/table.js';
import type { TransformFunc } from '../../../machinery/fields/index.js';
import type { Watch } from '../../../storage/interfaces.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import { mergeFieldsSets, objectMetaFieldsSet } from '../../generic/predicate.js';
import type { Store } from '../../generic/store.js';
import type {
  Creater,
  Getter,
  GracefulDeleter,
  Lister,
  Scoper,
  ShortNamesProvider,
  SingularNameProvider,
  Storage,
  UpdateRequest,
  Updater,
  ValidateObjectFunc,
  Watcher,
} from '../../rest/capabilities.js';
import type { RequestContext } from '../../rest/context.js';
import type { CreateOptions, DeleteOptions, GetOptions, ListOptions } from '../../rest/options.js';
import type { AttrFunc } from '../../rest/strategy.js';
import type { CoreStorageOptions } from '../configmap/storage.js';
import { deleteNamespace } from './delete.js';
import {
  namespaceDeleteStrategy,
  namespaceFinalizeStrategy,
  namespaceStatusStrategy,
  namespaceStrategy,
} from './strategy.js';
import { namespaceTableConvertor } from './table.js';

export const namespaceResource = { group: '', resource: 'namespaces' } as const;

type IncludeObject = { includeObject?: 'None' | 'Object' | 'Metadata' };

/** namespace.GetAttrs: `status.phase`, and `name` for compatibility with an old bug. */
export const namespaceAttrs: AttrFunc<Namespace> = (ns) => ({
  labels: ns.metadata?.labels ?? {},
  fields: mergeFieldsSets(objectMetaFieldsSet(ns.metadata, false), {
    'status.phase': ns.status?.phase ?? '',
    name: ns.metadata?.name ?? '',
  }),
});

/** The v1 field label conversion for Namespaces. */
export const namespaceFieldLabelConversion: TransformFunc = (field, value) =>
  field === 'status.phase' || field === 'metadata.name'
    ? { ok: true, field, value }
    : { ok: false, message: `field label not supported: ${field}` };

/** namespaces: everything but delete-collection; delete marks Terminating first. */
export class NamespaceREST
  implements
    Storage,
    Scoper,
    Getter,
    Lister,
    Watcher,
    Creater,
    Updater,
    GracefulDeleter,
    ShortNamesProvider,
    SingularNameProvider
{
  readonly #store: Store<Namespace>;

  constructor(store: Store<Namespace>) {
    this.#store = store;
  }

  /** Its Store's objects (a StoredVersionConverter), which discovery gives a storageVersionHash. */
  get storedIdentity(): object {
    return this.#store.storedIdentity;
  }
  toStoredVersion(ctx: RequestContext, obj: KubeObject): Promise<KubeObject> {
    return this.#store.toStoredVersion(ctx, obj);
  }
  fromStoredVersion(ctx: RequestContext, obj: KubeObject): Promise<KubeObject> {
    return this.#store.fromStoredVersion(ctx, obj);
  }
  newObject(): Namespace {
    return this.#store.newObject();
  }
  newList(): KubeList<Namespace> {
    return this.#store.newList();
  }
  destroy(): Promise<void> {
    return this.#store.destroy();
  }
  namespaceScoped(): boolean {
    return false;
  }
  shortNames(): readonly string[] {
    return ['ns'];
  }
  singularName(): string {
    return 'namespace';
  }
  /** Capstan's history read: the Store's. */
  history(ctx: RequestContext, name: string): Promise<ObjectHistory<Namespace>> {
    return this.#store.history(ctx, name);
  }

  get(ctx: RequestContext, name: string, options: GetOptions): Promise<Namespace> {
    return this.#store.get(ctx, name, options);
  }
  getCachedNow(ctx: RequestContext, name: string): Namespace | undefined {
    return this.#store.getCachedNow(ctx, name);
  }
  list(ctx: RequestContext, options: ListOptions): Promise<KubeList<Namespace>> {
    return this.#store.list(ctx, options);
  }
  watch(ctx: RequestContext, options: ListOptions): Promise<Watch<Namespace>> {
    return this.#store.watch(ctx, options);
  }
  create(
    ctx: RequestContext,
    obj: KubeObject,
    opts: { options: CreateOptions; validate?: ValidateObjectFunc },
  ): Promise<Namespace> {
    return this.#store.create(ctx, obj, opts);
  }
  update(
    ctx: RequestContext,
    name: string,
    req: UpdateRequest,
  ): Promise<{ object: Namespace; created: boolean }> {
    return this.#store.update(ctx, name, req);
  }
  delete(
    ctx: RequestContext,
    name: string,
    opts: { options: DeleteOptions; validate?: ValidateObjectFunc },
  ): Promise<{ object: KubeObject; deleted: boolean }> {
    return deleteNamespace(this.#store, ctx, { name, ...opts });
  }
  convertToTable(ctx: RequestContext, obj: KubeObject | KubeList, opts: IncludeObject): Table {
    return this.#store.convertToTable(ctx, obj, opts);
  }
}

/** namespaces/status: get and update the status; the storage belongs to NamespaceREST. */
export class NamespaceStatusREST implements Storage, Getter, Updater {
  readonly #store: Store<Namespace>;

  constructor(store: Store<Namespace>) {
    this.#store = store;
  }
  newObject(): Namespace {
    return this.#store.newObject();
  }
  destroy(): void {
    // Shared with the main resource, which releases it.
  }
  get(ctx: RequestContext, name: string, options: GetOptions): Promise<Namespace> {
    return this.#store.get(ctx, name, options);
  }
  update(
    ctx: RequestContext,
    name: string,
    req: UpdateRequest,
  ): Promise<{ object: Namespace; created: boolean }> {
    // Subresources never create.
    return this.#store.update(ctx, name, { ...req, forceAllowCreate: false });
  }
  convertToTable(ctx: RequestContext, obj: KubeObject | KubeList, opts: IncludeObject): Table {
    return this.#store.convertToTable(ctx, obj, opts);
  }
}

/** namespaces/finalize: update spec.finalizers (PUT only, as kube). */
export class NamespaceFinalizeREST implements Storage, Updater {
  readonly #store: Store<Namespace>;

  constructor(store: Store<Namespace>) {
    this.#store = store;
  }
  newObject(): Namespace {
    return this.#store.newObject();
  }
  destroy(): void {
    // Shared with the main resource, which releases it.
  }
  update(
    ctx: RequestContext,
    name: string,
    req: UpdateRequest,
  ): Promise<{ object: Namespace; created: boolean }> {
    return this.#store.update(ctx, name, { ...req, forceAllowCreate: false });
  }
}

export interface NamespaceStorage {
  readonly namespaces: NamespaceREST;
  readonly status: NamespaceStatusREST;
  readonly finalize: NamespaceFinalizeREST;
}

export async function newNamespaceREST(opts: CoreStorageOptions): Promise<NamespaceStorage> {
  const store = await completeResourceStore<Namespace>(
    {
      qualifiedResource: namespaceResource,
      singularName: 'namespace',
      newFunc: () => ({ apiVersion: 'v1', kind: 'Namespace' }),
      newListFunc: () =>
        ({
          apiVersion: 'v1',
          kind: 'NamespaceList',
          metadata: {},
          items: [],
        }) satisfies NamespaceList,
      createStrategy: namespaceStrategy,
      updateStrategy: namespaceStrategy,
      deleteStrategy: namespaceDeleteStrategy,
      returnDeletedObject: true,
      // A finalized namespace is deleted only once spec.finalizers is empty too.
      shouldDeleteDuringUpdate: (_ctx, ns) => (ns.spec?.finalizers ?? []).length === 0,
      tableConvertor: namespaceTableConvertor,
      fieldLabelConversion: namespaceFieldLabelConversion,
      trackGeneration: false,
    },
    opts,
    { attrFunc: namespaceAttrs },
  );
  return {
    namespaces: new NamespaceREST(store),
    status: new NamespaceStatusREST(store.withStrategies({ updateStrategy: namespaceStatusStrategy })),
    finalize: new NamespaceFinalizeREST(store.withStrategies({ updateStrategy: namespaceFinalizeStrategy })),
  };
}
