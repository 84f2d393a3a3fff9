// The equivalent resources of the served groups (kube's runtime.equivalentResourceRegistry, filled
// by the endpoint installer's RegisterKindFor): resources whose storages keep the same stored objects
// are equivalent (kube keys them by the storage's resource prefix; here by the storage itself), so
// core/v1 and events.k8s.io/v1 events, autoscaling/v1 and v2 HPAs and every served version of a
// custom resource are. Objects cross between them through the stored version.
import type { KubeObject } from '../../api/meta.js';
import {
  parseGroupVersion,
  type GroupVersionKind,
  type GroupVersionResource,
} from '../../machinery/schema/group-resource.js';
import type { APIGroupInfo } from '../rest/api-group-info.js';
import type { Storage } from '../rest/capabilities.js';
import type { RequestContext } from '../rest/context.js';
import {
  isStoredVersionConverter,
  type EquivalentResourceMapper,
  type StoredVersionConverter,
} from '../rest/equivalent-resources.js';

interface Registered {
  readonly resource: GroupVersionResource;
  /** Subresource ('' for the main resource) → the kind it serves. */
  readonly kinds: Map<string, GroupVersionKind>;
  readonly converter: StoredVersionConverter | undefined;
}

const gvrKey = (r: GroupVersionResource): string => `${r.group}/${r.version}/${r.resource}`;

function kindOf(storage: Storage, fallback: GroupVersionResource): GroupVersionKind {
  const obj = storage.newObject();
  const gv = parseGroupVersion(obj.apiVersion ?? '') ?? fallback;
  return { group: gv.group, version: gv.version, kind: obj.kind ?? '' };
}

const sameKind = (a: GroupVersionKind | undefined, b: GroupVersionKind | undefined): boolean =>
  a !== undefined && b !== undefined && a.group === b.group && a.version === b.version && a.kind === b.kind;

export class EquivalentResourceRegistry implements EquivalentResourceMapper {
  readonly #byResource = new Map<string, Registered>();
  /** Stored identity → the resources over it. */
  readonly #byIdentity = new Map<object, Registered[]>();

  constructor(groups: readonly APIGroupInfo[]) {
    for (const g of groups)
      for (const [version, storages] of Object.entries(g.versionedResourcesStorageMap))
        this.#registerVersion(g.group, version, storages);
  }

  #registerVersion(group: string, version: string, storages: Readonly<Record<string, Storage>>): void {
    const paths = Object.keys(storages).sort(); // a main resource before its subresources
    for (const path of paths) {
      const storage = storages[path];
      if (storage === undefined) continue;
      const [resource = '', subresource = ''] = path.split('/');
      const gvr = { group, version, resource };
      let entry = this.#byResource.get(gvrKey(gvr));
      if (entry === undefined) {
        const converter = subresource === '' && isStoredVersionConverter(storage) ? storage : undefined;
        entry = { resource: gvr, kinds: new Map(), converter };
        this.#byResource.set(gvrKey(gvr), entry);
        if (converter !== undefined) {
          const list = this.#byIdentity.get(converter.storedIdentity) ?? [];
          list.push(entry);
          this.#byIdentity.set(converter.storedIdentity, list);
        }
      }
      entry.kinds.set(subresource, kindOf(storage, gvr));
    }
  }

  equivalentResourcesFor(
    resource: GroupVersionResource,
    subresource: string,
  ): readonly GroupVersionResource[] {
    const entry = this.#byResource.get(gvrKey(resource));
    if (entry?.converter === undefined) return entry?.kinds.has(subresource) === true ? [entry.resource] : [];
    const all = this.#byIdentity.get(entry.converter.storedIdentity) ?? [];
    return all.filter((e) => e.kinds.has(subresource)).map((e) => e.resource);
  }

  kindFor(resource: GroupVersionResource, subresource: string): GroupVersionKind | undefined {
    return this.#byResource.get(gvrKey(resource))?.kinds.get(subresource);
  }

  async convert(
    ctx: RequestContext,
    obj: KubeObject,
    r: { from: GroupVersionResource; to: GroupVersionResource; subresource: string },
  ): Promise<KubeObject> {
    const from = this.#byResource.get(gvrKey(r.from));
    const to = this.#byResource.get(gvrKey(r.to));
    // The same kind on both sides (a Scale of either version): nothing to convert.
    if (sameKind(from?.kinds.get(r.subresource), to?.kinds.get(r.subresource))) return obj;
    if (
      from?.converter === undefined ||
      to?.converter === undefined ||
      from.converter.storedIdentity !== to.converter.storedIdentity
    )
      throw new Error(`unable to convert ${gvrKey(r.from)} to ${gvrKey(r.to)}: not equivalent resources`);
    const stored = await from.converter.toStoredVersion(ctx, obj);
    return to.converter.fromStoredVersion(ctx, stored);
  }
}
