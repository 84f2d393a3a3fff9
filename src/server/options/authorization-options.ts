// kube-apiserver's BuiltInAuthorizationOptions beyond --authorization-mode (pkg/kubeapiserver/options/
// authorization.go): the webhook flags, --authorization-config, and Validate's messages.
import { validateAuthorizationModes } from '../authorization/modes.js';

export interface AuthorizationOptions {
  /** --authorization-webhook-config-file: the kubeconfig naming the remote service. */
  webhookConfigFile: string;
  /** --authorization-webhook-version: the SubjectAccessReview version sent (kube: v1beta1). */
  webhookVersion: string;
  /** --authorization-webhook-cache-authorized-ttl / -unauthorized-ttl. */
  webhookCacheAuthorizedTTLMs: number;
  webhookCacheUnauthorizedTTLMs: number;
  /** --authorization-config: a structured AuthorizationConfiguration file. */
  configFile: string;
  /** Whether --authorization-mode or an --authorization-webhook-* flag was given (kube's AreLegacyFlagsSet). */
  legacyFlagsSet: boolean;
}

export function defaultAuthorizationOptions(): AuthorizationOptions {
  return {
    webhookConfigFile: '',
    webhookVersion: 'v1beta1',
    webhookCacheAuthorizedTTLMs: 300_000,
    webhookCacheUnauthorizedTTLMs: 30_000,
    configFile: '',
    legacyFlagsSet: false,
  };
}

/**
 * BuiltInAuthorizationOptions.Validate (after Complete's AlwaysAllow default): with
 * --authorization-config only that no legacy flag is set (the file is read and checked when the
 * options complete); else the modes and the webhook file.
 */
export function validateAuthorizationOptions(o: {
  readonly authorizationModes: readonly string[];
  readonly authorization: AuthorizationOptions;
}): string[] {
  const a = o.authorization;
  if (a.configFile !== '')
    return a.legacyFlagsSet
      ? [
          '--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined',
        ]
      : [];
  const modes = o.authorizationModes.length === 0 ? ['AlwaysAllow'] : o.authorizationModes;
  return validateAuthorizationModes(modes, { webhookConfigFile: a.webhookConfigFile });
}
