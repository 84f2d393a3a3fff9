// What the server asks before it acts (k8s.io/apiserver/pkg/authorization/authorizer): a decision
// on one request's attributes, and the rules a user holds in a namespace (for
// SelfSubjectRulesReview). The access reviews answer through it; so will the authorization filter.
import type { UserInfo } from './context.js';

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
