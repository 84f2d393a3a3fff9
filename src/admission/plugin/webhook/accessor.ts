// One webhook of a configuration, parsed once when the configuration is seen (kube's
// k8s.io/apiserver/pkg/admission/plugin/webhook/accessors.go): its rules split into the pieces the
// matcher compares, its selectors parsed, its defaults filled. Requests only read these.
import type {
  MatchCondition,
  MutatingWebhook,
  RuleWithOperations,
  ValidatingWebhook,
  WebhookClientConfig,
} from '../../../api/admissionregistration/v1/webhook.js';
import { labelSelectorAsSelector, type Selector } from '../../../machinery/labels/index.js';
import { MatchConditionMatcher } from './match-conditions.js';

/** A rule's resource entry split at its first slash: `pods/status` → pods, status; `*` → *, ''. */
export interface ResourcePattern {
  readonly resource: string;
  readonly subresource: string;
}

export interface ParsedRule {
  readonly operations: readonly string[];
  readonly apiGroups: readonly string[];
  readonly apiVersions: readonly string[];
  readonly resources: readonly ResourcePattern[];
  /** `*` (the default), `Namespaced` or `Cluster`. */
  readonly scope: string;
}

/** A selector, or the error text its parse gave (reported when the webhook would be called). */
export type ParsedSelector = Selector | string;

export interface WebhookAccessor {
  /** Unique within the source: `<configuration>/<index>` (kube's accessor uid). */
  readonly uid: string;
  readonly configurationName: string;
  readonly name: string;
  readonly rules: readonly ParsedRule[];
  readonly namespaceSelector: ParsedSelector;
  readonly objectSelector: ParsedSelector;
  readonly matchConditions: readonly MatchCondition[];
  /** The conditions compiled (on first use). */
  readonly matcher: MatchConditionMatcher;
  readonly clientConfig: WebhookClientConfig;
  readonly failurePolicy: 'Fail' | 'Ignore';
  readonly matchPolicy: 'Exact' | 'Equivalent';
  readonly sideEffects: string | undefined;
  readonly timeoutSeconds: number;
  readonly admissionReviewVersions: readonly string[];
  /** Mutating webhooks only. */
  readonly reinvocationPolicy: 'Never' | 'IfNeeded';
}

function splitResource(entry: string): ResourcePattern {
  const slash = entry.indexOf('/');
  return slash < 0
    ? { resource: entry, subresource: '' }
    : { resource: entry.slice(0, slash), subresource: entry.slice(slash + 1) };
}

function parseRule(rule: RuleWithOperations): ParsedRule {
  return {
    operations: rule.operations ?? [],
    apiGroups: rule.apiGroups ?? [],
    apiVersions: rule.apiVersions ?? [],
    resources: (rule.resources ?? []).map(splitResource),
    scope: rule.scope ?? '*',
  };
}

function parseSelector(selector: ValidatingWebhook['namespaceSelector']): ParsedSelector {
  // v1 defaults both selectors to {}: an absent one selects everything.
  const parsed = labelSelectorAsSelector(selector ?? {});
  return parsed.ok ? parsed.selector : parsed.message;
}

/** The accessor of webhook `index` of configuration `configurationName`. */
export function webhookAccessor(
  configurationName: string,
  index: number,
  hook: ValidatingWebhook | MutatingWebhook,
): WebhookAccessor {
  const reinvocation = (hook as MutatingWebhook).reinvocationPolicy;
  const failurePolicy = hook.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail';
  const matchConditions = hook.matchConditions ?? [];
  return {
    uid: `${configurationName}/${index}`,
    configurationName,
    name: hook.name,
    rules: (hook.rules ?? []).map(parseRule),
    namespaceSelector: parseSelector(hook.namespaceSelector),
    objectSelector: parseSelector(hook.objectSelector),
    matchConditions,
    matcher: new MatchConditionMatcher(matchConditions, failurePolicy),
    clientConfig: hook.clientConfig,
    failurePolicy,
    matchPolicy: hook.matchPolicy === 'Exact' ? 'Exact' : 'Equivalent',
    sideEffects: hook.sideEffects,
    timeoutSeconds: hook.timeoutSeconds ?? 10,
    admissionReviewVersions: hook.admissionReviewVersions ?? [],
    reinvocationPolicy: reinvocation === 'IfNeeded' ? 'IfNeeded' : 'Never',
  };
}
