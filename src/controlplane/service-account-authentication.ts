// Service account tokens across the layers: the issuer the serviceaccounts/token storage signs
// with, and the authenticator that checks tokens against the keys and the served storages.
import { systemClock, type Clock } from '../machinery/time/clock.js';
import type { ServiceAccountTokenIssuer } from '../registry/core/serviceaccount/token.js';
import type { APIGroupInfo } from '../registry/rest/api-group-info.js';
import { isGetter, type Getter, type Storage } from '../registry/rest/capabilities.js';
import {
  serviceAccountTokenAuthenticator,
  type ServiceAccountTokenGetters,
} from '../server/authn/service-account-authenticator.js';
import type { ServiceAccountKeys } from '../server/authn/service-account-keys.js';
import type { TokenAuthenticator } from '../server/authn/token-authenticator.js';

const getterOf = (s: Storage | undefined): Getter | undefined =>
  s !== undefined && isGetter(s) ? s : undefined;

/** The serviceaccounts, pods and secrets storages of the core group, when served. */
function gettersOf(groups: readonly APIGroupInfo[]): ServiceAccountTokenGetters | undefined {
  const core = groups.find((g) => g.group === '')?.versionedResourcesStorageMap['v1'] ?? {};
  const serviceAccounts = getterOf(core['serviceaccounts']);
  if (serviceAccounts === undefined) return undefined;
  const pods = getterOf(core['pods']);
  const secrets = getterOf(core['secrets']);
  return {
    serviceAccounts,
    ...(pods === undefined ? {} : { pods }),
    ...(secrets === undefined ? {} : { secrets }),
  };
}

export function serviceAccountAuthentication(
  keys: ServiceAccountKeys,
  clock: Clock = systemClock,
): {
  issuer: ServiceAccountTokenIssuer;
  authenticator: (groups: readonly APIGroupInfo[]) => TokenAuthenticator;
} {
  return {
    issuer: {
      signer: keys.signer,
      issuer: keys.issuers[0] ?? '',
      apiAudiences: keys.apiAudiences,
      now: () => clock.now(),
    },
    authenticator: (groups) => {
      const getters = gettersOf(groups);
      return serviceAccountTokenAuthenticator({
        keys,
        now: () => Math.floor(clock.now() / 1000),
        ...(getters === undefined ? {} : { getters }),
      });
    },
  };
}
