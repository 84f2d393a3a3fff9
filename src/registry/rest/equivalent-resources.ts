// The resources that serve the same stored objects under other group versions (kube's
// runtime.EquivalentResourceMapper, k8s.io/apimachinery/pkg/runtime/mapper.go), and the object
// conversion between them (the ObjectConvertor admission is handed with it). Admission's
// matchPolicy Equivalent calls a webhook or applies a policy registered for one of them.
import type { KubeObject } from '../../api/meta.js';
import type { GroupVersionKind, GroupVersionResource } from '../../machinery/schema/group-resource.js';
import type { RequestContext } from './context.js';

export interface EquivalentResourceMapper {
  /** Every resource with `subresource` served over the same storage, `resource` included. */
  equivalentResourcesFor(
    resource: GroupVersionResource,
    subresource: string,
  ): readonly GroupVersionResource[];
  /** The kind `resource` (with `subresource`) serves; undefined when it is not known. */
  kindFor(resource: GroupVersionResource, subresource: string): GroupVersionKind | undefined;
  /**
   * `obj`, served by `from`, as `to` (an equivalent resource) serves it; the argument is not
   * modified. Throws a StatusError (a failed conversion webhook) or an Error.
   */
  convert(
    ctx: RequestContext,
    obj: KubeObject,
    r: { from: GroupVersionResource; to: GroupVersionResource; subresource: string },
  ): Promise<KubeObject>;
}

/**
 * A storage that serves the objects of a stored kind at a version of its own, and how it converts
 * them to the stored version and back (a converting view; the Store itself converts nothing).
 */
export interface StoredVersionConverter {
  /** The same for every storage over the same stored objects (kube keys these by resource prefix). */
  readonly storedIdentity: object;
  toStoredVersion(ctx: RequestContext, obj: KubeObject): Promise<KubeObject>;
  fromStoredVersion(ctx: RequestContext, obj: KubeObject): Promise<KubeObject>;
}

export function isStoredVersionConverter(s: object): s is StoredVersionConverter {
  const c = s as Partial<StoredVersionConverter>;
  return (
    typeof c.storedIdentity === 'object' &&
    typeof c.toStoredVersion === 'function' &&
    typeof c.fromStoredVersion === 'function'
  );
}
