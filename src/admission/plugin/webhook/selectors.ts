// A webhook's namespaceSelector and objectSelector (k8s.io/apiserver/pkg/admission/plugin/webhook/
// predicates/namespace/matcher.go and predicates/object/matcher.go).
import type { KubeObject } from '../../../api/meta.js';
import { isStatusError, newInternalError, type StatusError } from '../../../machinery/errors/index.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import type { ParsedSelector } from './accessor.js';

/** A namespace's labels, as an informer lister (then storage) has them; throws NotFound. */
export type NamespaceLabelsReader = (
  ctx: RequestContext,
  name: string,
) => Promise<Readonly<Record<string, string>>>;

export type SelectorMatch = { readonly matches: boolean } | { readonly error: StatusError };

const matched: SelectorMatch = { matches: true };
const unmatched: SelectorMatch = { matches: false };

const isNamespaces = (a: Attributes): boolean =>
  a.resource.group === '' && a.resource.resource === 'namespaces';

function namespaceName(a: Attributes): string {
  // A namespace's own requests are in the context of itself.
  return a.namespace !== '' ? a.namespace : isNamespaces(a) ? a.name : '';
}

/** MatchNamespaceSelector: cluster-scoped requests other than namespaces always match. */
export async function matchNamespaceSelector(
  ctx: RequestContext,
  selector: ParsedSelector,
  opts: { attributes: Attributes; namespaceLabels: NamespaceLabelsReader },
): Promise<SelectorMatch> {
  const a = opts.attributes;
  const name = namespaceName(a);
  if (name === '' && !isNamespaces(a)) return matched;
  if (typeof selector === 'string') return { error: newInternalError(selector) };
  if (selector.empty()) return matched;
  // A namespace created or updated is judged by its labels in the request.
  if (isNamespaces(a) && a.subresource === '' && (a.operation === 'CREATE' || a.operation === 'UPDATE'))
    return { matches: selector.matches(a.object?.metadata?.labels ?? {}) };
  try {
    return { matches: selector.matches(await opts.namespaceLabels(ctx, name)) };
  } catch (err) {
    // A namespace that does not exist is answered 404, as kube has done since webhooks began.
    if (isStatusError(err) && err.reason === 'NotFound') return { error: err };
    return { error: newInternalError(err) };
  }
}

function objectMatches(obj: KubeObject | null, selector: ParsedSelector & object): boolean {
  return obj !== null && selector.matches(obj.metadata?.labels ?? {});
}

/** MatchObjectSelector: the new object's labels or the old one's. */
export function matchObjectSelector(selector: ParsedSelector, a: Attributes): SelectorMatch {
  if (typeof selector === 'string') return { error: newInternalError(selector) };
  if (selector.empty()) return matched;
  return objectMatches(a.object, selector) || objectMatches(a.oldObject, selector) ? matched : unmatched;
}
