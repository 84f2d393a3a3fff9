// Service storage (pkg/registry/core/service/storage/storage.go and rest.go): the generic Store
// under `/services/specs` (short name svc, category all) wrapped so that create, update and delete
// take and give back cluster IPs and node ports; services/status. A cluster IP is a
// networking.k8s.io/v1 IPAddress object (kube 1.33's MultiCIDRServiceAllocator), also marked, as kube
// 1.33 still does, in the RangeAllocation bitmap earlier versions allocated from (/ranges/serviceips,
// /ranges/secondaryserviceips); node ports are their bitmap under /ranges/servicenodeports. The
// repair at start gives the Services of a data directory written before IPAddresses their own.
import type { Service, ServiceList } from '../../../api/core/v1/service.js';
import type { KubeList, KubeObject } from '../../../api/meta.js';
import type { Table } from '../../../api/table.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import type { CreateRawStorage, RawStorage } from '../../../storage/backend-factory/config.js';
import type { ObjectHistory, Watch } from '../../../storage/interfaces.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import { clockFor } from '../../generic/rest-options.js';
import { deepCopy } from '../../generic/object-meta.js';
import { simpleNameGenerator } from '../../generic/name-generator.js';
import type { Store } from '../../generic/store.js';
import type {
  GracefulDeleter,
  UpdateRequest,
  UpdatedObjectInfo,
  ValidateObjectFunc,
} from '../../rest/capabilities.js';
import type { RequestContext } from '../../rest/context.js';
import {
  isDryRun,
  type CreateOptions,
  type DeleteOptions,
  type GetOptions,
  type ListOptions,
} from '../../rest/options.js';
import type { CoreStorageOptions } from '../configmap/storage.js';
import { ServiceAllocators } from './allocators.js';
import { setServiceDefaults } from './defaults.js';
import { ServiceIPAllocator } from './ip-allocator.js';
import { IPAddressAllocator } from './ipaddress-allocator.js';
import { newServiceNetworkingAccess, type ServiceNetworkingAccess } from './ipaddress-client.js';
import { defaultNodePortRange, type PortRange } from './port-range.js';
import { NodePortAllocator } from './port-allocator.js';
import { ServiceRepair, defaultLeakRepairs } from './repair.js';
import { IPAddressRepair, type RepairEvent } from './repair-ip.js';
import { parseServiceClusterIPRange, type ServiceIPRanges } from './service-ip-ranges.js';
import { ServiceStatusREST } from './status.js';
import { serviceDeleteStrategy, serviceStatusStrategy, serviceStrategy } from './strategy.js';
import { serviceTableConvertor } from './table.js';
import { Transaction } from './transaction.js';
import { validateServiceMeta } from './validation.js';
import { normalizeClusterIPs, patchAllocatedValues } from './update-fixups.js';

export const serviceResource = { group: '', resource: 'services' } as const;

/** Names tried for a generateName create (kube's maxNameGenerationCreateAttempts). */
const maxNameAttempts = 8;

/** kube's ServiceIPRepairInterval / ServiceNodePortRepairInterval. */
export const defaultRepairIntervalMs = 3 * 60 * 1000;

export interface ServiceStorageOptions extends CoreStorageOptions {
  /** Builds the raw (uncached) storage the allocation bitmaps are written through. */
  readonly createRawStorage: CreateRawStorage;
  /** --service-cluster-ip-range; 10.0.0.0/24 when unset. */
  readonly serviceIPRanges?: ServiceIPRanges;
  /** --service-node-port-range; 30000-32767 when unset. */
  readonly nodePortRange?: PortRange;
  /** The endpoints storage: a deleted service's Endpoints go with it, as kube does. */
  readonly endpoints?: GracefulDeleter;
  /** How often the repair pass runs after the one at startup (0: startup only), and its leak threshold. */
  readonly repair?: { readonly intervalMs?: number; readonly leakRepairs?: number };
  /** Where the cluster IP repair's events go (none when unset). */
  readonly recordEvent?: (e: RepairEvent) => void;
}

type IncludeObject = { includeObject?: 'None' | 'Object' | 'Metadata' };

const allocationKeys = ['/ranges/serviceips', '/ranges/secondaryserviceips'] as const;

/** The service REST: the Store, with allocation around its writes. */
export class ServiceREST {
  readonly #store: Store<Service>;
  readonly #alloc: ServiceAllocators;
  readonly #endpoints: GracefulDeleter | undefined;
  readonly #raw: RawStorage;
  readonly #networking: ServiceNetworkingAccess;
  readonly #timer: NodeJS.Timeout | undefined;

  constructor(init: {
    store: Store<Service>;
    alloc: ServiceAllocators;
    raw: RawStorage;
    networking: ServiceNetworkingAccess;
    endpoints?: GracefulDeleter;
    timer?: NodeJS.Timeout;
  }) {
    this.#store = init.store;
    this.#alloc = init.alloc;
    this.#raw = init.raw;
    this.#networking = init.networking;
    this.#endpoints = init.endpoints;
    this.#timer = init.timer;
  }

  get store(): Store<Service> {
    return this.#store;
  }

  get allocators(): ServiceAllocators {
    return this.#alloc;
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
  newObject(): Service {
    return this.#store.newObject();
  }
  newList(): KubeList<Service> {
    return this.#store.newList();
  }
  async destroy(): Promise<void> {
    clearInterval(this.#timer);
    await this.#store.destroy();
    await this.#raw.destroy();
    await this.#networking.destroy();
  }
  namespaceScoped(): boolean {
    return true;
  }
  shortNames(): readonly string[] {
    return this.#store.shortNames();
  }
  categories(): readonly string[] {
    return this.#store.categories();
  }
  singularName(): string {
    return this.#store.singularName();
  }
  deleteReturnsDeletedObject(): boolean {
    return true;
  }
  /** Capstan's history read: the Store's. */
  history(ctx: RequestContext, name: string): Promise<ObjectHistory<Service>> {
    return this.#store.history(ctx, name);
  }

  get(ctx: RequestContext, name: string, options: GetOptions): Promise<Service> {
    return this.#store.get(ctx, name, options);
  }
  list(ctx: RequestContext, options: ListOptions): Promise<KubeList<Service>> {
    return this.#store.list(ctx, options);
  }
  watch(ctx: RequestContext, options: ListOptions): Promise<Watch<Service>> {
    return this.#store.watch(ctx, options);
  }
  convertToTable(ctx: RequestContext, obj: KubeObject | KubeList, opts: IncludeObject): Table {
    return this.#store.convertToTable(ctx, obj, opts);
  }

  /** beginCreate: allocate, then write; a failed write gives the allocations back. */
  async create(
    ctx: RequestContext,
    obj: KubeObject,
    opts: { options: CreateOptions; validate?: ValidateObjectFunc },
  ): Promise<Service> {
    const meta = obj.metadata ?? {};
    // The IPAddress objects name their Service: a generated name is picked before the allocation
    // (kube allocates after the Store generated it), and picked again while it is taken.
    const generated = (meta.generateName ?? '') !== '' && (meta.name ?? '') === '';
    for (let attempt = 1; ; attempt++) {
      const svc = deepCopy(obj) as Service;
      const m = (svc.metadata ??= {});
      if (generated) m.name = simpleNameGenerator.generateName(m.generateName ?? '');
      if ((m.namespace ?? '') === '' && ctx.namespace !== '') m.namespace = ctx.namespace;
      setServiceDefaults(svc);
      normalizeClusterIPs(svc, null);
      const txn = await this.#allocateCreate(svc, isDryRun(opts.options.dryRun));
      try {
        const created = await this.#store.create(ctx, svc, opts);
        await txn.commit();
        return created;
      } catch (err) {
        await txn.revert();
        const retry = generated && attempt < maxNameAttempts && reasonForError(err) === 'AlreadyExists';
        if (!retry) throw err;
      }
    }
  }

  /**
   * kube validates a new service before its BeginCreate allocates: a service whose metadata the
   * store will refuse takes nothing (its IPAddress objects could not even name it).
   */
  async #allocateCreate(svc: Service, dryRun: boolean): Promise<Transaction> {
    if (validateServiceMeta(svc).length > 0) return new Transaction();
    return this.#alloc.allocateCreate(svc, dryRun);
  }

  /** beginUpdate: inside the guaranteed update, against the object it read; a retry starts over. */
  async update(
    ctx: RequestContext,
    name: string,
    req: UpdateRequest,
  ): Promise<{ object: Service; created: boolean }> {
    const dryRun = isDryRun(req.options.dryRun);
    let txn: Transaction | undefined;
    const objInfo: UpdatedObjectInfo = {
      preconditions: () => req.objInfo.preconditions(),
      updatedObject: async (c, old) => {
        await txn?.revert();
        txn = undefined;
        const svc = deepCopy(await req.objInfo.updatedObject(c, old)) as Service;
        setServiceDefaults(svc);
        if (old === null) {
          normalizeClusterIPs(svc, null);
          txn = await this.#allocateCreate(svc, dryRun);
          return svc;
        }
        const before = old as Service;
        patchAllocatedValues(svc, before);
        normalizeClusterIPs(svc, before);
        txn = await this.#alloc.allocateUpdate(svc, before, dryRun);
        return svc;
      },
    };
    try {
      const out = await this.#store.update(ctx, name, { ...req, objInfo });
      await txn?.commit();
      // An update that removed the last finalizer of a deleted service deleted it.
      const meta = out.object.metadata ?? {};
      if (!dryRun && (meta.deletionTimestamp ?? '') !== '' && (meta.finalizers ?? []).length === 0) {
        await this.#afterDelete(ctx, out.object);
      }
      return out;
    } catch (err) {
      await txn?.revert();
      throw err;
    }
  }

  /** afterDelete: the service's Endpoints go, and what it held is given back. */
  async delete(
    ctx: RequestContext,
    name: string,
    opts: { options: DeleteOptions; validate?: ValidateObjectFunc },
  ): Promise<{ object: KubeObject; deleted: boolean }> {
    const res = await this.#store.delete(ctx, name, opts);
    if (res.deleted && !isDryRun(opts.options.dryRun)) await this.#afterDelete(ctx, res.object as Service);
    return res;
  }

  /** Store.DeleteCollection, each deleted service followed by afterDelete as in delete(). */
  deleteCollection(
    ctx: RequestContext,
    opts: { options: DeleteOptions; listOptions: ListOptions; validate?: ValidateObjectFunc },
  ): Promise<KubeList<Service>> {
    const dryRun = isDryRun(opts.options.dryRun);
    return this.#store.deleteCollection(ctx, {
      ...opts,
      ...(dryRun
        ? {}
        : { afterDelete: (c: RequestContext, svc: KubeObject) => this.#afterDelete(c, svc as Service) }),
    });
  }

  async #afterDelete(ctx: RequestContext, svc: Service): Promise<void> {
    if (this.#endpoints !== undefined) {
      await this.#endpoints.delete(ctx, svc.metadata?.name ?? '', { options: {} }).catch((err: unknown) => {
        if (reasonForError(err) !== 'NotFound') throw err;
      });
    }
    await this.#alloc.releaseAll(svc);
  }
}

async function allocatorsFor(
  opts: ServiceStorageOptions,
  networking: ServiceNetworkingAccess,
): Promise<{ alloc: ServiceAllocators; ips: IPAddressAllocator[]; raw: RawStorage }> {
  const config = opts.restOptionsGetter.getRESTOptions(serviceResource).storageConfig;
  const raw = await opts.createRawStorage({
    ...config,
    groupResource: { group: '', resource: 'serviceipallocations' },
  });
  const ranges = opts.serviceIPRanges ?? parseServiceClusterIPRange('').ranges;
  if (ranges === undefined) throw new Error('no service cluster IP range');
  const nets = ranges.secondary === undefined ? [ranges.primary] : [ranges.primary, ranges.secondary];
  const ips = nets.map(
    (cidr, i) =>
      new IPAddressAllocator({
        family: cidr.family,
        defaultCIDR: cidr,
        ipAddresses: networking.ipAddresses,
        serviceCIDRs: networking.serviceCIDRs,
        bitmap: new ServiceIPAllocator({ cidr, storage: raw.storage, key: allocationKeys[i] ?? '' }),
      }),
  );
  const nodePorts = new NodePortAllocator({
    portRange: opts.nodePortRange ?? defaultNodePortRange,
    storage: raw.storage,
    key: '/ranges/servicenodeports',
  });
  const ipBitmaps = ips.flatMap((a) => (a.bitmap === undefined ? [] : [a.bitmap]));
  return { alloc: new ServiceAllocators({ ips, nodePorts, ipBitmaps }), ips, raw };
}

export interface ServiceStorage {
  readonly services: ServiceREST;
  readonly status: ServiceStatusREST;
}

/** The services storage; the allocations are repaired from the stored services before it serves. */
export async function newServiceREST(opts: ServiceStorageOptions): Promise<ServiceStorage> {
  const store = await completeResourceStore<Service>(
    {
      qualifiedResource: serviceResource,
      singularName: 'service',
      newFunc: () => ({ apiVersion: 'v1', kind: 'Service' }),
      newListFunc: () =>
        ({ apiVersion: 'v1', kind: 'ServiceList', metadata: {}, items: [] }) satisfies ServiceList,
      createStrategy: serviceStrategy,
      updateStrategy: serviceStrategy,
      deleteStrategy: serviceDeleteStrategy,
      returnDeletedObject: true,
      tableConvertor: serviceTableConvertor,
      shortNames: ['svc'],
      categories: ['all'],
      trackGeneration: true,
    },
    opts,
  );
  const opened: { destroy(): Promise<void> }[] = [store];
  const closeAll = async (): Promise<void> => {
    for (const o of opened.reverse()) await o.destroy();
  };
  let networking: ServiceNetworkingAccess;
  let built: { alloc: ServiceAllocators; ips: IPAddressAllocator[]; raw: RawStorage };
  try {
    networking = await newServiceNetworkingAccess(opts);
    opened.push(networking);
    built = await allocatorsFor(opts, networking);
    opened.push(built.raw);
  } catch (err) {
    await closeAll();
    throw err;
  }
  const { resourcePrefix } = opts.restOptionsGetter.getRESTOptions(serviceResource);
  const prefix = `/${resourcePrefix}`.replace(/\/+/g, '/');
  const listServices = async (): Promise<Service[]> =>
    (await built.raw.storage.getList(prefix, { recursive: true })).items as Service[];
  const bitmapRepair = new ServiceRepair({
    listServices,
    allocators: built.alloc,
    leakRepairs: opts.repair?.leakRepairs ?? defaultLeakRepairs,
  });
  const clock = clockFor(opts.restOptionsGetter, serviceResource);
  const ipRepair = new IPAddressRepair({
    listServices,
    ipAddresses: networking.ipAddresses,
    allocators: built.ips,
    now: () => clock.now(),
    ...(opts.recordEvent === undefined ? {} : { record: opts.recordEvent }),
  });
  const repair = async (): Promise<void> => {
    await ipRepair.runOnce();
    await bitmapRepair.runOnce();
  };
  try {
    await repair();
  } catch (err) {
    await closeAll();
    throw err;
  }
  const intervalMs = opts.repair?.intervalMs ?? defaultRepairIntervalMs;
  const timer =
    intervalMs > 0
      ? setInterval(() => {
          repair().catch(() => undefined);
        }, intervalMs).unref()
      : undefined;
  const services = new ServiceREST({
    store,
    alloc: built.alloc,
    raw: built.raw,
    networking,
    ...(opts.endpoints !== undefined ? { endpoints: opts.endpoints } : {}),
    ...(timer !== undefined ? { timer } : {}),
  });
  return {
    services,
    status: new ServiceStatusREST(store.withStrategies({ updateStrategy: serviceStatusStrategy })),
  };
}
