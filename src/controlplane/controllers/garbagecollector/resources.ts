// The resources the garbage collector sees, from the served groups instead of discovery: a REST
// mapper from apiVersion and kind to a resource's storage (kube's restMapper), and the resources it
// monitors, one per group resource in the group's preferred version that can be listed, watched and
// deleted (GetDeletableResources), less the ignored ones.
import type { GroupVersionResource } from '../../../machinery/schema/group-resource.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import {
  isGracefulDeleter,
  isLister,
  isScoper,
  isWatcher,
  type Lister,
  type Storage,
  type Watcher,
} from '../../../registry/rest/capabilities.js';

export interface CollectedResource {
  readonly gvr: GroupVersionResource;
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly storage: Storage;
}

export type MonitoredResource = CollectedResource & { readonly storage: Storage & Lister & Watcher };

/** kube's DefaultIgnoredResources for the garbage collector: events, in both groups. */
const ignored = new Set(['/events', 'events.k8s.io/events']);

/** `group/resource`, the key monitors are kept by. */
export const groupResourceKey = (r: CollectedResource): string => `${r.gvr.group}/${r.gvr.resource}`;

const kindKey = (apiVersion: string, kind: string): string => `${apiVersion}\u0000${kind}`;

function collected(gvr: GroupVersionResource, storage: Storage): CollectedResource {
  const obj = storage.newObject();
  const apiVersion = gvr.group === '' ? gvr.version : `${gvr.group}/${gvr.version}`;
  return {
    gvr,
    apiVersion: obj.apiVersion ?? apiVersion,
    kind: obj.kind ?? '',
    namespaced: !isScoper(storage) || storage.namespaceScoped(),
    storage,
  };
}

export class ServedResources {
  readonly #byKind = new Map<string, CollectedResource>();
  readonly #monitored: MonitoredResource[] = [];

  constructor(groups: readonly APIGroupInfo[]) {
    for (const g of groups) {
      const seen = new Set<string>();
      for (const version of g.prioritizedVersions) {
        for (const [path, storage] of Object.entries(g.versionedResourcesStorageMap[version] ?? {})) {
          // Subresources share their parent's objects.
          if (path.includes('/')) continue;
          const r = collected({ group: g.group, version, resource: path }, storage);
          const key = kindKey(r.apiVersion, r.kind);
          if (!this.#byKind.has(key)) this.#byKind.set(key, r);
          if (seen.has(path)) continue;
          seen.add(path);
          if (ignored.has(groupResourceKey(r))) continue;
          if (isLister(storage) && isWatcher(storage) && isGracefulDeleter(storage))
            this.#monitored.push({ ...r, storage });
        }
      }
    }
  }

  /** RESTMapping: the resource serving this kind in this group version. */
  mapping(apiVersion: string, kind: string): CollectedResource | undefined {
    return this.#byKind.get(kindKey(apiVersion, kind));
  }

  get monitored(): readonly MonitoredResource[] {
    return this.#monitored;
  }
}
