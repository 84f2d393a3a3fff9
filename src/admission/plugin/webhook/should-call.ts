// Whether a webhook is called for a request, and as what (k8s.io/apiserver/pkg/admission/plugin/
// webhook/generic/webhook.go ShouldCallHook): a rule must match the request's resource, then the
// namespace and object selectors, then the matchConditions. Rules are tried first here as they cost
// nothing; the outcome is kube's. matchPolicy Equivalent matches as Exact: the request is never sent
// as another served version (that would need the object converted; see the README).
import { newForbidden, type StatusError } from '../../../machinery/errors/index.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import type { WebhookAccessor } from './accessor.js';
import { admissionRequest, type Invocation } from './review.js';
import { ruleMatches } from './rules.js';
import { matchNamespaceSelector, matchObjectSelector, type NamespaceLabelsReader } from './selectors.js';

export interface MatchDeps {
  readonly namespaceLabels: NamespaceLabelsReader;
}

/** Whether any of the webhook's rules covers the request: no allocation, no wait. */
export function matchesAnyRule(hook: WebhookAccessor, a: Attributes): boolean {
  for (const rule of hook.rules) if (ruleMatches(rule, a)) return true;
  return false;
}

/** Whether any webhook's rules cover the request (a request none covers costs nothing more). */
export function anyRuleMatches(hooks: readonly WebhookAccessor[], a: Attributes): boolean {
  for (const hook of hooks) if (matchesAnyRule(hook, a)) return true;
  return false;
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
  if (!matchesAnyRule(hook, a)) return skip;
  const invocation: Invocation = { kind: a.kind, resource: a.resource, subresource: a.subresource };
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
