// --authorization-mode (pkg/kubeapiserver/authorizer/modes and options/authorization.go) and the
// authorizer chain it builds (pkg/kubeapiserver/authorizer/config.go): system:masters first, then the
// modes in order; the first Allow or Deny decides, NoOpinion asks the next
// (k8s.io/apiserver/pkg/authorization/union).
import {
  alwaysAllowAuthorizer,
  type AuthorizationAttributes,
  type AuthorizationResult,
  type Authorizer,
  type NonResourceRuleInfo,
  type ResourceRuleInfo,
  type UserRules,
} from '../../registry/rest/authorizer.js';

export const modeAlwaysAllow = 'AlwaysAllow';
export const modeAlwaysDeny = 'AlwaysDeny';
export const modeRBAC = 'RBAC';
export const modeNode = 'Node';

/** kube's AuthorizationModeChoices. */
export const kubeAuthorizationModes: readonly string[] = [
  'AlwaysAllow',
  'AlwaysDeny',
  'ABAC',
  'Webhook',
  'RBAC',
  'Node',
];
/** The modes Capstan has. */
export const supportedAuthorizationModes: readonly string[] = [
  modeAlwaysAllow,
  modeAlwaysDeny,
  modeRBAC,
  modeNode,
];

/** Go's %q of a []string: `["a" "b"]`. */
const goQuoteList = (list: readonly string[]): string => `[${list.map((m) => JSON.stringify(m)).join(' ')}]`;

/** BuiltInAuthorizationOptions.Validate's messages for the modes. */
export function validateAuthorizationModes(modes: readonly string[]): string[] {
  const errs: string[] = [];
  if (modes.length === 0) errs.push('at least one authorization-mode must be passed');
  for (const mode of modes) {
    if (!kubeAuthorizationModes.includes(mode))
      errs.push(`authorization-mode ${JSON.stringify(mode)} is not a valid mode`);
    else if (!supportedAuthorizationModes.includes(mode))
      errs.push(
        `authorization-mode ${JSON.stringify(mode)} is not supported by Capstan (supported: ${supportedAuthorizationModes.join(',')})`,
      );
  }
  if (new Set(modes).size !== modes.length)
    errs.push(`authorization-mode ${goQuoteList(modes)} has mode specified more than once`);
  return errs;
}

/** True when nothing but AlwaysAllow is configured: no authorization filter at all. */
export function onlyAlwaysAllow(modes: readonly string[]): boolean {
  return modes.every((m) => m === modeAlwaysAllow);
}

const noRules: UserRules = { resourceRules: [], nonResourceRules: [], incomplete: false };

/** kube's AlwaysDeny: NoOpinion with a reason, so the chain ends in a denial that says why. */
export const alwaysDenyAuthorizer: Authorizer = {
  authorize: () => Promise.resolve({ decision: 'NoOpinion', reason: 'Everything is forbidden.' }),
  rulesFor: () => Promise.resolve(noRules),
};

/** kube's privileged-group authorizer: members of system:masters may do anything. It lists no rules. */
export const systemPrivilegedGroup = 'system:masters';
export const privilegedGroupAuthorizer: Authorizer = {
  authorize: (attrs) =>
    Promise.resolve(
      attrs.user.groups.includes(systemPrivilegedGroup)
        ? { decision: 'Allow', reason: '' }
        : { decision: 'NoOpinion', reason: '' },
    ),
  rulesFor: () => Promise.resolve(noRules),
};

/** An error from one or more authorizers of a union (kube's aggregate). */
export class AuthorizerError extends Error {
  constructor(errors: readonly unknown[]) {
    const texts = [...new Set(errors.map((e) => (e instanceof Error ? e.message : String(e))))];
    super(texts.length === 1 ? (texts[0] ?? '') : `[${texts.join(', ')}]`);
    this.name = 'AuthorizerError';
  }
}

/** union.New: the first Allow or Deny decides; all NoOpinion is NoOpinion with every reason. */
export function unionAuthorizer(authorizers: readonly Authorizer[]): Authorizer {
  return {
    authorize: async (attrs: AuthorizationAttributes): Promise<AuthorizationResult> => {
      const reasons: string[] = [];
      const errors: unknown[] = [];
      for (const a of authorizers) {
        let result: AuthorizationResult;
        try {
          result = await a.authorize(attrs);
        } catch (err) {
          errors.push(err);
          continue;
        }
        if (result.decision !== 'NoOpinion') return result;
        if (result.reason !== '') reasons.push(result.reason);
      }
      if (errors.length > 0) throw new AuthorizerError(errors);
      return { decision: 'NoOpinion', reason: reasons.join('\n') };
    },
    rulesFor: async (user, namespace): Promise<UserRules> => {
      const resourceRules: ResourceRuleInfo[] = [];
      const nonResourceRules: NonResourceRuleInfo[] = [];
      let incomplete = false;
      const errors: string[] = [];
      for (const a of authorizers) {
        const rules = await a.rulesFor(user, namespace);
        resourceRules.push(...rules.resourceRules);
        nonResourceRules.push(...rules.nonResourceRules);
        incomplete ||= rules.incomplete;
        if (rules.evaluationError !== undefined) errors.push(rules.evaluationError);
      }
      const evaluationError = new AuthorizerError(errors).message;
      return {
        resourceRules,
        nonResourceRules,
        incomplete,
        ...(errors.length === 0 ? {} : { evaluationError }),
      };
    },
  };
}

/**
 * The authorizer for the modes: alwaysAllowAuthorizer itself when only AlwaysAllow is set (the
 * server then skips the filter), else system:masters followed by the modes. `rbac` and `node` build
 * the RBAC and Node authorizers (each only called when its mode is among the modes).
 */
export function authorizerForModes(
  modes: readonly string[],
  rbac: () => Authorizer,
  node?: () => Authorizer,
): Authorizer {
  if (onlyAlwaysAllow(modes)) return alwaysAllowAuthorizer;
  const chain: Authorizer[] = [privilegedGroupAuthorizer];
  for (const mode of modes) {
    if (mode === modeAlwaysAllow) chain.push(alwaysAllowAuthorizer);
    else if (mode === modeAlwaysDeny) chain.push(alwaysDenyAuthorizer);
    else if (mode === modeRBAC) chain.push(rbac());
    else if (mode === modeNode && node !== undefined) chain.push(node());
    else throw new Error(`authorization-mode ${JSON.stringify(mode)} is not a valid mode`);
  }
  return unionAuthorizer(chain);
}
