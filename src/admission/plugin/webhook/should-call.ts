// Whether a webhook is called for a request, and as what (k8s.io/apiserver/pkg/admission/plugin/
// webhook/generic/webhook.go ShouldCallHook): a rule must match the request's resource (or, with
// matchPolicy Equivalent, one standing for it), then the namespace and object selectors, then the
// matchConditions. Rules are tried first here as they cost nothing; the outcome is kube's.
import { newForbidden, type StatusError } from '../../../machinery/errors/index.js';
import type { GroupVersionKind, GroupVersionResource } from '../../../machinery/schema/group-resource.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import type { WebhookAccessor } from './accessor.js';
import { admissionRequest, type Invocation } from './review.js';
import { ruleMatches } from './rules.js';
import { matchNamespaceSelector, matchObjectSelector, type NamespaceLabelsReader } from './selectors.js';

/** Other served versions of a resource (kube's EquivalentResourceMapper), preferred first. */
export type EquivalentResources = (
  resource: GroupVersionResource,
  subresource: string,
) => readonly { readonly resource: GroupVersionResource; readonly kind: GroupVersionKind }[];

export interface MatchDeps {
  readonly namespaceLabels: NamespaceLabelsReader;
  readonly equivalents?: EquivalentResources | undefined;
}

/** The invocation for a rule match on the request itself or an equivalent; undefined when none. */
export function matchingInvocation(
  hook: WebhookAccessor,
  a: Attributes,
  equivalents: EquivalentResources | undefined,
): Invocation | undefined {
  for (const rule of hook.rules)
    if (ruleMatches(rule, a)) return { kind: a.kind, resource: a.resource, subresource: a.subresource };
  if (hook.matchPolicy !== 'Equivalent' || equivalents === undefined) return undefined;
  const others = equivalents(a.resource, a.subresource);
  for (const rule of hook.rules)
    for (const other of others) {
      if (other.resource.version === a.resource.version && other.resource.group === a.resource.group)
        continue;
      if (ruleMatches(rule, a, other.resource))
        return { kind: other.kind, resource: other.resource, subresource: a.subresource };
    }
  return undefined;
}

export type ShouldCall =
  | { readonly call: false }
  | { readonly call: true; readonly invocation: Invocation }
  | { readonly call: false; readonly error: StatusError };

const skip: ShouldCall = { call: false };

export async function shouldCallHook(
  ctx: RequestContext,
  hook: WebhookAccessor,
  opts: { attributes: Attributes; deps: MatchDeps },
): Promise<ShouldCall> {
  const a = opts.attributes;
  const invocation = matchingInvocation(hook, a, opts.deps.equivalents);
  if (invocation === undefined) return skip;
  const ns = await matchNamespaceSelector(ctx, hook.namespaceSelector, {
    attributes: a,
    namespaceLabels: opts.deps.namespaceLabels,
  });
  if ('error' in ns) return { call: false, error: ns.error };
  if (!ns.matches) return skip;
  const obj = matchObjectSelector(hook.objectSelector, a);
  if ('error' in obj) return { call: false, error: obj.error };
  if (!obj.matches) return skip;
  if (!hook.matcher.empty) {
    const request = admissionRequest(a, { uid: '', invocation });
    const result = await hook.matcher.match({ object: a.object, oldObject: a.oldObject, request });
    if ('error' in result)
      return {
        call: false,
        error: newForbidden({ group: a.resource.group, resource: a.resource.resource }, a.name, result.error),
      };
    if (!result.matches) return skip;
  }
  return { call: true, invocation };
}
