// The request's objects as the version a webhook is called for (kube's VersionedAttributes,
// k8s.io/apiserver/pkg/admission/plugin/webhook/generic/versioned_attributes.go): the same objects
// when it registered for the request's own resource; converted through the stored version when it
// matched an equivalent one under matchPolicy Equivalent.
import type { KubeObject } from '../../../api/meta.js';
import { newInternalError } from '../../../machinery/errors/index.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import type { Invocation } from './review.js';

export interface VersionedObjects {
  readonly object: KubeObject | null;
  readonly oldObject: KubeObject | null;
  /** The objects were converted from the request's version. */
  readonly converted: boolean;
}

/** Whether the webhook is called for another resource than the request's. */
export function isEquivalentInvocation(a: Attributes, invocation: Invocation): boolean {
  const r = invocation.resource;
  return (
    r.group !== a.resource.group || r.version !== a.resource.version || r.resource !== a.resource.resource
  );
}

/** The objects as `invocation` sees them; InternalError when one cannot be converted. */
export async function versionedObjects(
  ctx: RequestContext,
  a: Attributes,
  invocation: Invocation,
): Promise<VersionedObjects> {
  if (!isEquivalentInvocation(a, invocation) || a.equivalents === undefined)
    return { object: a.object, oldObject: a.oldObject, converted: false };
  const mapper = a.equivalents;
  const route = { from: a.resource, to: invocation.resource, subresource: a.subresource };
  const convert = async (obj: KubeObject | null): Promise<KubeObject | null> =>
    obj === null ? null : mapper.convert(ctx, obj, route);
  try {
    const [object, oldObject] = await Promise.all([convert(a.object), convert(a.oldObject)]);
    return { object, oldObject, converted: true };
  } catch (err) {
    throw newInternalError(err);
  }
}

/** A patched object of the invocation's version back at the request's version. */
export async function unversionedObject(
  ctx: RequestContext,
  a: Attributes,
  r: { invocation: Invocation; object: KubeObject },
): Promise<KubeObject> {
  if (!isEquivalentInvocation(a, r.invocation) || a.equivalents === undefined) return r.object;
  try {
    return await a.equivalents.convert(ctx, r.object, {
      from: r.invocation.resource,
      to: a.resource,
      subresource: a.subresource,
    });
  } catch (err) {
    throw newInternalError(err);
  }
}
