// What the server asks before it acts (k8s.io/apiserver/pkg/authorization/authorizer): a decision
// on one request's attributes, and the rules a user holds in a namespace (for
// SelfSubjectRulesReview). The access reviews answer through it; so will the authorization filter.
import type { FieldRequirement } from '../../machinery/fields/index.js';
import type { Requirement as LabelRequirement } from '../../machinery/labels/index.js';
import type { UserInfo } from './context.js';

/**
 * A selector already turned into requirements, with why some were dropped (kube's
 * FieldSelectorRequirements/LabelSelectorRequirements and their parsing error).
 */
export interface SelectorRequirements<R> {
  readonly requirements: readonly R[];
  readonly error?: string;
}

export interface AuthorizationAttributes {
  readonly user: UserInfo;
  readonly verb: string;
  /** A request for an API resource (true) or for a non-resource path such as /healthz. */
  readonly resourceRequest: boolean;
  readonly namespace?: string;
  readonly apiGroup?: string;
  readonly apiVersion?: string;
  readonly resource?: string;
  readonly subresource?: string;
  readonly name?: string;
  readonly path?: string;
  /** A list, watch or deletecollection request's fieldSelector as sent (authorizers that honour selectors parse it). */
  readonly fieldSelector?: string;
  /** The same request's labelSelector as sent. */
  readonly labelSelector?: string;
  /**
   * Selectors that come parsed (an access review's requirements); they stand in for the raw ones.
   * Read either form through fieldSelectorOf / labelSelectorOf (authorizer-selectors.ts).
   */
  readonly fieldRequirements?: SelectorRequirements<FieldRequirement>;
  readonly labelRequirements?: SelectorRequirements<LabelRequirement>;
}

export type Decision = 'Allow' | 'Deny' | 'NoOpinion';

export interface AuthorizationResult {
  readonly decision: Decision;
  readonly reason: string;
}

export interface ResourceRuleInfo {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly resourceNames?: readonly string[];
}

export interface NonResourceRuleInfo {
  readonly verbs: readonly string[];
  readonly nonResourceURLs: readonly string[];
}

export interface UserRules {
  readonly resourceRules: readonly ResourceRuleInfo[];
  readonly nonResourceRules: readonly NonResourceRuleInfo[];
  /** True when the authorizer cannot list every rule (webhooks, for example). */
  readonly incomplete: boolean;
  /** Why the list may lack rules (a binding to a missing role, for example); kube's RulesFor error. */
  readonly evaluationError?: string;
}

/**
 * Why an authorizer could not decide (kube's error beside a decision). A union reports the errors of
 * its members with the reasons it collected; `decision` is Deny when the member that failed was
 * told to deny on error (a webhook's failurePolicy Deny), which ends the chain.
 */
export class AuthorizerError extends Error {
  readonly decision: 'NoOpinion' | 'Deny';
  readonly reason: string;

  constructor(
    errors: readonly unknown[],
    outcome: { decision?: 'NoOpinion' | 'Deny'; reason?: string } = {},
  ) {
    const texts = [...new Set(errors.map((e) => (e instanceof Error ? e.message : String(e))))];
    super(texts.length === 1 ? (texts[0] ?? '') : `[${texts.join(', ')}]`);
    this.name = 'AuthorizerError';
    this.decision = outcome.decision ?? 'NoOpinion';
    this.reason = outcome.reason ?? '';
  }
}

export interface Authorizer {
  authorize(attrs: AuthorizationAttributes): Promise<AuthorizationResult>;
  rulesFor(user: UserInfo, namespace: string): Promise<UserRules>;
}

/** kube's AlwaysAllow mode: every request is allowed, and every user holds `*` on everything. */
export const alwaysAllowAuthorizer: Authorizer = {
  authorize: () => Promise.resolve({ decision: 'Allow', reason: '' }),
  rulesFor: () =>
    Promise.resolve({
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    }),
};
