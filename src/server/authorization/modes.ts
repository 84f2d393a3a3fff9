// --authorization-mode (pkg/kubeapiserver/authorizer/modes and options/authorization.go) and the
// authorizer chain it builds (pkg/kubeapiserver/authorizer/config.go): system:masters first, then the
// modes in order; the first Allow or Deny decides, NoOpinion asks the next
// (k8s.io/apiserver/pkg/authorization/union).
import {
  AuthorizerError,
  alwaysAllowAuthorizer,
  type AuthorizationAttributes,
  type AuthorizationResult,
  type Authorizer,
  type NonResourceRuleInfo,
  type ResourceRuleInfo,
  type UserRules,
} from '../../registry/rest/authorizer.js';

export { AuthorizerError } from '../../registry/rest/authorizer.js';

export const modeAlwaysAllow = 'AlwaysAllow';
export const modeAlwaysDeny = 'AlwaysDeny';
export const modeRBAC = 'RBAC';
export const modeNode = 'Node';
export const modeWebhook = 'Webhook';

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
  modeWebhook,
  modeRBAC,
  modeNode,
];

/** Go's %q of a []string: `["a" "b"]`. */
const goQuoteList = (list: readonly string[]): string => `[${list.map((m) => JSON.stringify(m)).join(' ')}]`;

/** BuiltInAuthorizationOptions.Validate's messages for the modes (and the webhook file they need). */
export function validateAuthorizationModes(
  modes: readonly string[],
  files: { readonly webhookConfigFile?: string } = {},
): string[] {
  const errs: string[] = [];
  const webhookConfigFile = files.webhookConfigFile ?? '';
  if (modes.length === 0) errs.push('at least one authorization-mode must be passed');
  for (const mode of modes) {
    if (!kubeAuthorizationModes.includes(mode))
      errs.push(`authorization-mode ${JSON.stringify(mode)} is not a valid mode`);
    else if (!supportedAuthorizationModes.includes(mode))
      errs.push(
        `authorization-mode ${JSON.stringify(mode)} is not supported by Capstan (supported: ${supportedAuthorizationModes.join(',')})`,
      );
    if (mode === modeWebhook && webhookConfigFile === '')
      errs.push("authorization-mode Webhook's authorization config file not passed");
  }
  if (webhookConfigFile !== '' && !modes.includes(modeWebhook))
    errs.push('cannot specify --authorization-webhook-config-file without mode Webhook');
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

/**
 * union.New: the first Allow or Deny decides; all NoOpinion is NoOpinion with every reason. A member
 * that throws has no opinion; when none decides, the union throws their errors (with the reasons),
 * which the filter answers 500 and an access review reports as its evaluationError.
 */
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
          // A member that denies on error ends the chain, as a Deny would.
          if (err instanceof AuthorizerError && err.decision === 'Deny') throw err;
          errors.push(err);
          if (err instanceof AuthorizerError && err.reason !== '') reasons.push(err.reason);
          continue;
        }
        if (result.decision !== 'NoOpinion') return result;
        if (result.reason !== '') reasons.push(result.reason);
      }
      if (errors.length > 0) throw new AuthorizerError(errors, { reason: reasons.join('\n') });
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

/** What the modes are built from: the RBAC and Node authorizers, and one webhook per Webhook mode. */
export interface ModeAuthorizers {
  readonly rbac: () => Authorizer;
  readonly node?: () => Authorizer;
  /** In the order the Webhook entries appear (several with --authorization-config). */
  readonly webhooks?: readonly Authorizer[];
}

/**
 * The authorizer for the modes: alwaysAllowAuthorizer itself when only AlwaysAllow is set (the
 * server then skips the filter), else system:masters followed by the modes (reload.go newForConfig).
 * Each builder is only called when its mode is among the modes.
 */
export function authorizerForChain(modes: readonly string[], built: ModeAuthorizers): Authorizer {
  if (onlyAlwaysAllow(modes)) return alwaysAllowAuthorizer;
  const webhooks = [...(built.webhooks ?? [])];
  const member = (mode: string): Authorizer | undefined => {
    if (mode === modeAlwaysAllow) return alwaysAllowAuthorizer;
    if (mode === modeAlwaysDeny) return alwaysDenyAuthorizer;
    if (mode === modeRBAC) return built.rbac();
    if (mode === modeNode) return built.node?.();
    if (mode === modeWebhook) return webhooks.shift();
    return undefined;
  };
  const chain: Authorizer[] = [privilegedGroupAuthorizer];
  for (const mode of modes) {
    const a = member(mode);
    if (a === undefined) throw new Error(`authorization-mode ${JSON.stringify(mode)} is not a valid mode`);
    chain.push(a);
  }
  return unionAuthorizer(chain);
}

/** authorizerForChain without webhooks. */
export function authorizerForModes(
  modes: readonly string[],
  rbac: () => Authorizer,
  node?: () => Authorizer,
): Authorizer {
  return authorizerForChain(modes, { rbac, ...(node === undefined ? {} : { node }) });
}
