// The request as a policy that matched it through an equivalent resource sees it (kube's
// VersionedAttribute(matchKind) in plugin/policy/generic/policy_dispatcher.go): the kind and
// resource it matched, and the objects converted to that version.
import type { GroupVersionResource } from '../../../../machinery/schema/group-resource.js';
import { newInternalError } from '../../../../machinery/errors/index.js';
import type { RequestContext } from '../../../../registry/rest/context.js';
import type { Attributes } from '../../../attributes.js';

const same = (x: GroupVersionResource, y: GroupVersionResource): boolean =>
  x.group === y.group && x.version === y.version && x.resource === y.resource;

/** `a` itself when `resource` is its own; else a copy at `resource`'s version. */
export async function versionedAttributes(
  ctx: RequestContext,
  a: Attributes,
  resource: GroupVersionResource,
): Promise<Attributes> {
  const mapper = a.equivalents;
  if (same(resource, a.resource) || mapper === undefined) return a;
  const kind = mapper.kindFor(resource, a.subresource);
  if (kind === undefined)
    throw newInternalError(
      `unable to convert to ${resource.group}/${resource.version}, Resource=${resource.resource}: unknown kind`,
    );
  const route = { from: a.resource, to: resource, subresource: a.subresource };
  try {
    const [object, oldObject] = await Promise.all([
      a.object === null ? null : mapper.convert(ctx, a.object, route),
      a.oldObject === null ? null : mapper.convert(ctx, a.oldObject, route),
    ]);
    return { ...a, kind, resource, object, oldObject };
  } catch (err) {
    throw newInternalError(err);
  }
}
