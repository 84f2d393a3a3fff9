// What the served resources look like to OpenAPI: one entry per resource or subresource, with
// its kinds, scope and verbs, derived from the storages' capabilities as the installer does.
import type { TypeMeta } from '../../api/meta.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import {
  type Storage,
  isCollectionDeleter,
  isCreater,
  isNamedCreater,
  isGetter,
  isGracefulDeleter,
  isLister,
  isPatcher,
  isScoper,
  isUpdater,
  isWatcher,
} from '../../registry/rest/capabilities.js';

export const resourceVerbs = [
  'get',
  'list',
  'watch',
  'create',
  'update',
  'patch',
  'delete',
  'deletecollection',
] as const;
export type ResourceVerb = (typeof resourceVerbs)[number];

export interface ResourceRoute {
  readonly group: string;
  readonly version: string;
  /** Plural resource name, e.g. `configmaps`. */
  readonly resource: string;
  /** `status`, `finalize`… or undefined for the main resource. */
  readonly subresource: string | undefined;
  /** Kind of the objects this path takes and returns (`x-kubernetes-group-version-kind`). */
  readonly kind: { group: string; version: string; kind: string };
  /** Kind of the parent resource, which names the operations. */
  readonly parentKind: string;
  /** Kind of the list (`ConfigMapList`), when the storage lists. */
  readonly listKind: { group: string; version: string; kind: string } | undefined;
  readonly namespaced: boolean;
  readonly verbs: ReadonlySet<ResourceVerb>;
}

function kindOf(
  obj: TypeMeta,
  fallback: { group: string; version: string },
): { group: string; version: string; kind: string } {
  const apiVersion = obj.apiVersion ?? '';
  const slash = apiVersion.indexOf('/');
  const group = apiVersion === '' ? fallback.group : slash === -1 ? '' : apiVersion.slice(0, slash);
  const version = apiVersion === '' ? fallback.version : apiVersion.slice(slash + 1);
  return { group, version, kind: obj.kind ?? '' };
}

function verbsOf(storage: Storage): Set<ResourceVerb> {
  const verbs = new Set<ResourceVerb>();
  if (isGetter(storage)) verbs.add('get');
  if (isLister(storage)) verbs.add('list');
  if (isWatcher(storage) && isLister(storage)) verbs.add('watch');
  if (isCreater(storage) || isNamedCreater(storage)) verbs.add('create');
  if (isUpdater(storage)) verbs.add('update');
  if (isPatcher(storage)) verbs.add('patch');
  if (isGracefulDeleter(storage)) verbs.add('delete');
  if (isCollectionDeleter(storage)) verbs.add('deletecollection');
  return verbs;
}

/** The routes of every group/version, sorted by group, version and path. */
export function resourceRoutes(groups: readonly APIGroupInfo[]): ResourceRoute[] {
  const routes: ResourceRoute[] = [];
  for (const info of groups) {
    for (const version of info.prioritizedVersions) {
      const storages = info.versionedResourcesStorageMap[version] ?? {};
      const gv = { group: info.group, version };
      for (const path of Object.keys(storages).sort()) {
        const storage = storages[path];
        if (storage === undefined) continue;
        const [resource = path, subresource] = path.split('/');
        const parent = storages[resource];
        const scoper = isScoper(storage)
          ? storage
          : parent !== undefined && isScoper(parent)
            ? parent
            : undefined;
        routes.push({
          group: info.group,
          version,
          resource,
          subresource,
          kind: kindOf(storage.newObject(), gv),
          parentKind: (parent ?? storage).newObject().kind ?? '',
          listKind: isLister(storage) ? kindOf(storage.newList(), gv) : undefined,
          namespaced: scoper?.namespaceScoped() ?? true,
          verbs: verbsOf(storage),
        });
      }
    }
  }
  return routes;
}

/** `api/v1` or `apis/apps/v1`: the key of a group/version in the OpenAPI v3 index. */
export function groupVersionPath(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}
