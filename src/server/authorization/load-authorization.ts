// The authorizer chain the options describe, read once when they complete: the flags, or the
// --authorization-config file. Errors are kube's texts, without the "invalid authorization config"
// prefix the caller adds.
import type { AuthorizationOptions } from '../options/authorization-options.js';
import { loadAuthorizationConfigFile } from './authorization-config-file.js';
import { authorizationFromFlags, type LoadedAuthorization } from './authorizer-config.js';
import { modeAlwaysAllow } from './modes.js';

export async function loadAuthorization(o: {
  readonly authorizationModes: readonly string[];
  readonly authorization: AuthorizationOptions;
}): Promise<LoadedAuthorization> {
  if (o.authorization.configFile !== '') return loadAuthorizationConfigFile(o.authorization.configFile);
  const modes = o.authorizationModes.length === 0 ? [modeAlwaysAllow] : o.authorizationModes;
  return authorizationFromFlags(modes, o.authorization);
}
