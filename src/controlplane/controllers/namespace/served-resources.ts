// What the namespace controller works with, taken from the served APIGroupInfo instead of
// discovery (kube's ServerPreferredNamespacedResources filtered to those with the `delete` verb):
// the namespaced resources in each group's preferred version that can be listed and deleted, and
// the namespaces storage with its status and finalize subresources.
import type { GroupVersionResource } from '../../../machinery/schema/group-resource.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import {
  isCollectionDeleter,
  isGetter,
  isGracefulDeleter,
  isLister,
  isScoper,
  isUpdater,
  isWatcher,
  type CollectionDeleter,
  type Getter,
  type GracefulDeleter,
  type Lister,
  type Storage,
  type Updater,
  type Watcher,
} from '../../../registry/rest/capabilities.js';

export interface DeletableResource {
  readonly resource: GroupVersionResource;
  readonly lister: Lister;
  readonly deleter: GracefulDeleter;
  /** Used first when there is one, as kube tries deletecollection before deleting item by item. */
  readonly collectionDeleter: CollectionDeleter | undefined;
}

export interface NamespaceClient {
  readonly namespaces: Getter & Lister & Watcher;
  /** namespaces/status. */
  readonly status: Updater;
  /** namespaces/finalize. */
  readonly finalize: Updater;
}

// A storage that does not say is namespaced, as the installer assumes.
const namespaced = (s: Storage): boolean => !isScoper(s) || s.namespaceScoped();

function deletable(resource: GroupVersionResource, s: Storage): DeletableResource | undefined {
  if (!namespaced(s) || !isLister(s) || !isGracefulDeleter(s)) return undefined;
  return { resource, lister: s, deleter: s, collectionDeleter: isCollectionDeleter(s) ? s : undefined };
}

/** Every deletable namespaced resource, once per group in its most preferred version. */
export function deletableResources(groups: readonly APIGroupInfo[]): DeletableResource[] {
  const out: DeletableResource[] = [];
  for (const g of groups) {
    const seen = new Set<string>();
    for (const version of g.prioritizedVersions) {
      for (const [path, storage] of Object.entries(g.versionedResourcesStorageMap[version] ?? {})) {
        // Subresources go with their parent.
        if (path.includes('/') || seen.has(path)) continue;
        seen.add(path);
        const r = deletable({ group: g.group, version, resource: path }, storage);
        if (r !== undefined) out.push(r);
      }
    }
  }
  return out;
}

/** The core group's namespaces, namespaces/status and namespaces/finalize; undefined when not served. */
export function namespaceClient(groups: readonly APIGroupInfo[]): NamespaceClient | undefined {
  const v1 = groups.find((g) => g.group === '')?.versionedResourcesStorageMap['v1'];
  const main = v1?.['namespaces'];
  const status = v1?.['namespaces/status'];
  const finalize = v1?.['namespaces/finalize'];
  if (main === undefined || !isGetter(main) || !isLister(main) || !isWatcher(main)) return undefined;
  if (status === undefined || !isUpdater(status) || finalize === undefined || !isUpdater(finalize))
    return undefined;
  return { namespaces: main, status, finalize };
}
