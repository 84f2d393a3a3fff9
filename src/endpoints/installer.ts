// Builds the route table from APIGroupInfo (kube's APIInstaller.registerResourceHandlers, minus
// go-restful): a resource's verbs follow from the capabilities its storage has.
import { createHash } from 'node:crypto';
import { routeAdmission } from '../admission/route-admission.js';
import type { APIGroupInfo } from '../registry/rest/api-group-info.js';
import { EquivalentResourceRegistry } from '../registry/generic/equivalent-resource-registry.js';
import {
  isStoredVersionConverter,
  type EquivalentResourceMapper,
} from '../registry/rest/equivalent-resources.js';
import {
  categoriesOf,
  isCollectionDeleter,
  isConnecter,
  isCreater,
  isGetter,
  isGracefulDeleter,
  isLister,
  isNamedCreater,
  isPatcher,
  isScoper,
  isTableConvertor,
  isUpdater,
  isWatcher,
  shortNamesOf,
  type Storage,
} from '../registry/rest/capabilities.js';
import type { APIResource } from './discovery/types.js';
import { connectResource, connectVerbs } from './handlers/connect.js';
import { createResource } from './handlers/create.js';
import { deleteCollection } from './handlers/delete-collection.js';
import { deleteResource } from './handlers/delete.js';
import { getResource } from './handlers/get.js';
import { listResource, watchResource } from './handlers/list.js';
import { patchResource } from './handlers/patch.js';
import type { Handler, HandlerConfig, RequestScope } from './handlers/request-scope.js';
import { updateResource } from './handlers/update.js';
import type { EndpointRestrictions } from './negotiation/negotiate.js';
import {
  groupVersionKey,
  type GroupRoutes,
  type GroupVersionRoutes,
  type ResourceRoutes,
  type RouteMethod,
  type RouteTable,
} from './route-table.js';

/** discovery.StorageVersionHash: 8 bytes of sha256("group/version/kind"), base64. */
export function storageVersionHash(group: string, version: string, kind: string): string {
  const of = `${group}/${version}/${kind}`;
  let hash = storageVersionHashes.get(of);
  if (hash === undefined) {
    hash = createHash('sha256').update(of).digest().subarray(0, 8).toString('base64');
    if (storageVersionHashes.size >= maxStorageVersionHashes) storageVersionHashes.clear();
    storageVersionHashes.set(of, hash);
  }
  return hash;
}

// Every server start installs every resource's routes, hashing each kind again (~30 µs each, ~0.6 ms
// of a start): the hashes of a process's kinds, kept. Bounded: emptied when full.
const storageVersionHashes = new Map<string, string>();
const maxStorageVersionHashes = 4096;

function restrictionsFor(storage: Storage): EndpointRestrictions {
  const tables = isTableConvertor(storage);
  return {
    allowsMediaTypeTransform: (type, subType, target) => {
      if (target === null) return true;
      if (target.group !== 'meta.k8s.io' || (target.version !== 'v1' && target.version !== 'v1beta1'))
        return false;
      if (target.kind === 'Table')
        return tables && type === 'application' && (subType === 'json' || subType === 'yaml');
      return target.kind === 'PartialObjectMetadata' || target.kind === 'PartialObjectMetadataList';
    },
    allowsServerVersion: (v) => v === 'v1',
    allowsStreamSchema: (s) => s === 'watch',
  };
}

function kindOf(
  storage: Storage,
  fallback: { group: string; version: string },
): { group: string; version: string; kind: string } {
  const obj = storage.newObject();
  const apiVersion = obj.apiVersion ?? '';
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  return apiVersion === '' ? { ...fallback, kind: obj.kind ?? '' } : { group, version, kind: obj.kind ?? '' };
}

interface Tables {
  collection: Partial<Record<RouteMethod, Handler>>;
  item: Partial<Record<RouteMethod, Handler>>;
  allNamespaces: Partial<Record<RouteMethod, Handler>>;
  verbs: Set<string>;
}

function methodTables(storage: Storage, subresource: boolean): Tables {
  const t: Tables = { collection: {}, item: {}, allNamespaces: {}, verbs: new Set() };
  const add = (
    table: Partial<Record<RouteMethod, Handler>>,
    m: RouteMethod,
    route: { h: Handler; verb: string },
  ): void => {
    table[m] = route.h;
    t.verbs.add(route.verb);
  };
  // A subresource lives at the item path: its create and reads are of the named object.
  const collection = subresource ? t.item : t.collection;
  if (isLister(storage) && !subresource) {
    add(t.collection, 'GET', { h: listResource, verb: 'list' });
    t.allNamespaces.GET = listResource;
  }
  if (isCreater(storage) || isNamedCreater(storage))
    add(collection, 'POST', { h: createResource, verb: 'create' });
  if (isCollectionDeleter(storage) && !subresource)
    add(t.collection, 'DELETE', { h: deleteCollection, verb: 'deletecollection' });
  if (isGetter(storage)) add(t.item, 'GET', { h: getResource, verb: 'get' });
  if (isUpdater(storage)) add(t.item, 'PUT', { h: updateResource, verb: 'update' });
  if (isPatcher(storage)) add(t.item, 'PATCH', { h: patchResource, verb: 'patch' });
  if (isGracefulDeleter(storage)) add(t.item, 'DELETE', { h: deleteResource, verb: 'delete' });
  if (isWatcher(storage)) t.verbs.add('watch');
  if (isConnecter(storage)) {
    for (const m of storage.connectMethods()) {
      const verb = connectVerbs[m];
      if (verb !== undefined) add(t.item, m as RouteMethod, { h: connectResource, verb });
    }
  }
  return t;
}

const connectsSubpath = (storage: Storage): boolean => isConnecter(storage) && storage.connectSubpath();

function singularNameOf(storage: Storage, kind: string): string {
  const s = storage as Storage & { singularName?: unknown };
  return typeof s.singularName === 'function'
    ? (s.singularName as () => string).call(storage)
    : kind.toLowerCase();
}

interface ResourceInput {
  readonly group: string;
  readonly version: string;
  readonly path: string;
  readonly storage: Storage;
  readonly parent: Storage | undefined;
  /** The installed groups' equivalent resources (kube's EquivalentResourceRegistry), for admission. */
  readonly equivalents: EquivalentResourceMapper | undefined;
  /** The resource's deprecation warning (APIGroupInfo.deprecationWarnings), if any. */
  readonly deprecationWarning: string | undefined;
}

function discoveryFor(
  input: ResourceInput,
  kind: { group: string; version: string; kind: string },
  verbs: Set<string>,
): APIResource {
  const { storage, path } = input;
  const sub = input.parent !== undefined;
  const owner = input.parent ?? storage;
  // A subresource has its parent's scope; storage that does not say is namespaced, as kube's default.
  const namespaced = isScoper(owner) ? owner.namespaceScoped() : true;
  // Members in metav1.APIResource's order: a kind of another group version (a Scale) names it
  // before the kind.
  const otherVersion = kind.group !== input.group || kind.version !== input.version;
  const r: APIResource = {
    name: path,
    singularName: sub ? '' : singularNameOf(storage, kind.kind),
    namespaced,
    ...(otherVersion && kind.group !== '' ? { group: kind.group } : {}),
    ...(otherVersion ? { version: kind.version } : {}),
    kind: kind.kind,
    verbs: [...verbs].sort(),
  };
  if (!sub) {
    const shortNames = shortNamesOf(storage);
    if (shortNames.length > 0) r.shortNames = [...shortNames];
    const categories = categoriesOf(storage);
    if (categories.length > 0) r.categories = [...categories];
    // kube hashes what a StorageVersionProvider (a registry Store) stores; reviews, bindings and
    // other storages that keep nothing have no hash.
    if (isStoredVersionConverter(storage))
      r.storageVersionHash = storageVersionHash(kind.group, kind.version, kind.kind);
  }
  return r;
}

function resourceRoutes(input: ResourceInput, config: HandlerConfig): ResourceRoutes {
  const { storage, path } = input;
  const [resource = '', subresource = ''] = path.split('/');
  const kind = kindOf(storage, input);
  const tables = methodTables(storage, subresource !== '');
  const discovery = discoveryFor(input, kind, tables.verbs);
  const gvr = { group: input.group, version: input.version, resource };
  const scope: RequestScope = {
    resource: gvr,
    subresource,
    kind,
    namespaced: discovery.namespaced,
    storage,
    tableConvertor: isTableConvertor(storage) ? storage : undefined,
    restrictions: restrictionsFor(storage),
    config,
    admission:
      config.admission === undefined
        ? undefined
        : routeAdmission(config.admission, {
            kind,
            resource: gvr,
            subresource,
            equivalents: input.equivalents,
          }),
    ...(input.deprecationWarning === undefined ? {} : { deprecationWarning: input.deprecationWarning }),
  };
  const watchList = isWatcher(storage) && isLister(storage) && subresource === '';
  return {
    scope,
    collection: tables.collection,
    item: tables.item,
    allNamespaces: discovery.namespaced && subresource === '' ? tables.allNamespaces : {},
    watchCollection: watchList ? watchResource : undefined,
    watchItem: isWatcher(storage) && subresource === '' ? watchResource : undefined,
    discovery,
    connectSubpath: connectsSubpath(storage),
  };
}

function groupVersionRoutes(
  info: APIGroupInfo,
  version: string,
  r: { config: HandlerConfig; equivalents: EquivalentResourceMapper | undefined },
): GroupVersionRoutes {
  const { config, equivalents } = r;
  const storages = info.versionedResourcesStorageMap[version] ?? {};
  const resources = new Map<string, ResourceRoutes>();
  for (const path of Object.keys(storages).sort()) {
    const storage = storages[path] as Storage;
    const parts = path.split('/');
    if (parts.length > 2 || parts.some((p) => p === ''))
      throw new Error(`invalid resource path ${JSON.stringify(path)}`);
    const parent = parts.length === 2 ? storages[parts[0] ?? ''] : undefined;
    if (parts.length === 2 && parent === undefined)
      throw new Error(`subresource ${path} has no parent resource`);
    const deprecationWarning = info.deprecationWarnings?.[version]?.[parts[0] ?? ''];
    resources.set(
      path,
      resourceRoutes(
        { group: info.group, version, path, storage, parent, equivalents, deprecationWarning },
        config,
      ),
    );
  }
  const apiResources = [...resources.values()].map((r) => r.discovery);
  return { group: info.group, version, resources, apiResources };
}

/** The route table for `groups`; a version without storage is not served. */
export function installAPIGroups(groups: readonly APIGroupInfo[], config: HandlerConfig): RouteTable {
  const groupVersions = new Map<string, GroupVersionRoutes>();
  const out: GroupRoutes[] = [];
  const equivalents = config.admission === undefined ? undefined : new EquivalentResourceRegistry(groups);
  const ordered = [...groups.filter((g) => g.group === ''), ...groups.filter((g) => g.group !== '')];
  for (const info of ordered) {
    const versions = info.prioritizedVersions.filter(
      (v) => Object.keys(info.versionedResourcesStorageMap[v] ?? {}).length > 0,
    );
    if (versions.length === 0) continue;
    for (const version of versions)
      groupVersions.set(
        groupVersionKey(info.group, version),
        groupVersionRoutes(info, version, { config, equivalents }),
      );
    out.push({ name: info.group, versions });
  }
  return { groupVersions, groups: out };
}
