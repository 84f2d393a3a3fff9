// Whether a webhook is called for a request, and as what (k8s.io/apiserver/pkg/admission/plugin/
// webhook/generic/webhook.go ShouldCallHook): a rule must match the request's resource, or under
// matchPolicy Equivalent (the default) an equivalent resource, which the webhook is then called
// for with the objects converted to its version; then the namespace and object selectors, then the
// matchConditions on the versioned objects. Rules are tried first here as they cost nothing; the
// outcome is kube's.
import { newForbidden, newInternalError, type StatusError } from '../../../machinery/errors/index.js';
import type { GroupVersionResource } from '../../../machinery/schema/group-resource.js';
import type { Authorizer } from '../../../registry/rest/authorizer.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes, Operation } from '../../attributes.js';
import type { WebhookAccessor } from './accessor.js';
import type { WebhookMetricsTarget } from './call-metrics.js';
import type { MatchResult } from './match-conditions.js';
import { admissionRequest, type Invocation } from './review.js';
import { ruleMatches } from './rules.js';
import { matchNamespaceSelector, matchObjectSelector, type NamespaceLabelsReader } from './selectors.js';
import { versionedObjects, type VersionedObjects } from './versioned.js';

export interface MatchDeps {
  readonly namespaceLabels: NamespaceLabelsReader;
  /** Answers matchConditions' `authorizer` checks; without it the variable is not bound. */
  readonly authorizer?: Authorizer | undefined;
  /** Where the plugin's calls and matchConditions are counted. */
  readonly metrics?: WebhookMetricsTarget | undefined;
}

const sameResource = (x: GroupVersionResource, y: GroupVersionResource): boolean =>
  x.group === y.group && x.version === y.version && x.resource === y.resource;

/** The request's equivalent resources other than its own, under matchPolicy Equivalent. */
function otherEquivalents(hook: WebhookAccessor, a: Attributes): readonly GroupVersionResource[] {
  if (hook.matchPolicy !== 'Equivalent' || a.equivalents === undefined) return [];
  return a.equivalents
    .equivalentResourcesFor(a.resource, a.subresource)
    .filter((r) => !sameResource(r, a.resource));
}

/**
 * What the webhook is called as: the request's own resource when a rule covers it, else the first
 * equivalent resource an earlier rule covers; undefined when none does. InternalError when the
 * equivalent's kind is unknown.
 */
export function matchingInvocation(
  hook: WebhookAccessor,
  a: Attributes,
): Invocation | StatusError | undefined {
  for (const rule of hook.rules)
    if (ruleMatches(rule, a)) return { kind: a.kind, resource: a.resource, subresource: a.subresource };
  const equivalents = otherEquivalents(hook, a);
  if (equivalents.length === 0) return undefined;
  for (const rule of hook.rules)
    for (const resource of equivalents) {
      if (!ruleMatches(rule, a, resource)) continue;
      const kind = a.equivalents?.kindFor(resource, a.subresource);
      if (kind === undefined || kind.kind === '')
        return newInternalError(
          `unable to convert to ${resource.group}/${resource.version}, Resource=${resource.resource}: unknown kind`,
        );
      return { kind, resource, subresource: a.subresource };
    }
  return undefined;
}

/** Whether any of the webhook's rules covers the request or an equivalent: no wait. */
export function matchesAnyRule(hook: WebhookAccessor, a: Attributes): boolean {
  return matchingInvocation(hook, a) !== undefined;
}

/** Whether any webhook's rules cover the request (a request none covers costs nothing more). */
export function anyRuleMatches(hooks: readonly WebhookAccessor[], a: Attributes): boolean {
  for (const hook of hooks) if (matchesAnyRule(hook, a)) return true;
  return false;
}

export type ShouldCall =
  | { readonly call: false }
  | { readonly call: true; readonly invocation: Invocation; readonly versioned: VersionedObjects }
  | { readonly call: false; readonly error: StatusError };

const skip: ShouldCall = { call: false };

export async function shouldCallHook(
  ctx: RequestContext,
  hook: WebhookAccessor,
  opts: { attributes: Attributes; deps: MatchDeps },
): Promise<ShouldCall> {
  const a = opts.attributes;
  const invocation = matchingInvocation(hook, a);
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
  if (!('resource' in invocation)) return { call: false, error: invocation };
  let versioned: VersionedObjects;
  try {
    versioned = await versionedObjects(ctx, a, invocation);
  } catch (err) {
    return { call: false, error: err as StatusError };
  }
  if (!hook.matcher.empty) {
    const request = admissionRequest(a, { uid: '', invocation, versioned });
    const started = performance.now();
    const result = await hook.matcher.match({
      object: versioned.object,
      oldObject: versioned.oldObject,
      request,
      ...(opts.deps.authorizer === undefined
        ? {}
        : { authz: { authorizer: opts.deps.authorizer, attributes: a } }),
    });
    observeMatch(opts.deps.metrics, hook, { operation: a.operation, result, started });
    if ('error' in result)
      return {
        call: false,
        error: newForbidden({ group: a.resource.group, resource: a.resource.resource }, a.name, result.error),
      };
    if (!result.matches) return skip;
  }
  return { call: true, invocation, versioned };
}

/**
 * The matchConditions' metrics, as kube's matcher and ShouldCallHook count them: the evaluation
 * time only of an evaluation that did not simply match, each condition that failed to evaluate,
 * and a webhook left out (whose `type` is the webhook's, `validate` for a validating one).
 */
function observeMatch(
  target: WebhookMetricsTarget | undefined,
  hook: WebhookAccessor,
  r: { operation: Operation; result: MatchResult; started: number },
): void {
  if (target === undefined) return;
  const { admission: m, type } = target;
  const { operation, result } = r;
  const labels = { kind: 'webhook', type, operation };
  for (let i = 0; i < result.evaluationErrors; i++) m.observeMatchConditionEvalError(hook.name, labels);
  if (result.matches && result.evaluationErrors === 0) return;
  const seconds = (performance.now() - r.started) / 1000;
  m.observeMatchConditionEvaluation(hook.name, { ...labels, seconds });
  if (!('error' in result))
    m.observeMatchConditionExclusion(hook.name, {
      ...labels,
      type: type === 'validating' ? 'validate' : 'admit',
    });
}
