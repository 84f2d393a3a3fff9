// NetworkPolicy policy (pkg/registry/networking/networkpolicy/strategy.go) and the policyTypes
// default (SetDefaults_NetworkPolicy), which depends on the rules so the schema cannot state it.
// Validation lives in validation.ts.
import type { NetworkPolicy } from '../../../api/networking/v1/network-policy.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { networkPolicyWarnings } from './ip-block.js';
import {
  validateNetworkPolicy,
  validateNetworkPolicyUpdate,
  validationOptionsForNetworking,
} from './validation.js';

/** SetDefaults_NetworkPolicy and SetDefaults_NetworkPolicyPort. */
export function setNetworkPolicyDefaults(np: NetworkPolicy): void {
  const spec = (np.spec ??= {});
  spec.podSelector ??= {};
  for (const rule of [...(spec.ingress ?? []), ...(spec.egress ?? [])]) {
    for (const port of rule.ports ?? []) port.protocol ??= 'TCP';
  }
  if ((spec.policyTypes ?? []).length === 0) {
    spec.policyTypes = (spec.egress ?? []).length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
  }
}

export const networkPolicyStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaultDecoded: setNetworkPolicyDefaults,
  prepareForCreate: (_ctx, np) => {
    setNetworkPolicyDefaults(np);
  },
  validate: (_ctx, np) => validateNetworkPolicy(np, validationOptionsForNetworking(undefined)),
  warningsOnCreate: (_ctx, np) => networkPolicyWarnings(np),
  prepareForUpdate: (_ctx, np) => {
    setNetworkPolicyDefaults(np);
  },
  // As kube's strategy: the whole object once as on create, then again as an update, so a spec
  // error is reported twice (the Status message lists it once).
  validateUpdate: (_ctx, np, old) => {
    const opts = validationOptionsForNetworking(old);
    return [...validateNetworkPolicy(np, opts), ...validateNetworkPolicyUpdate(np, old, opts)];
  },
  warningsOnUpdate: (_ctx, np) => networkPolicyWarnings(np),
} satisfies CreateStrategy<NetworkPolicy> & UpdateStrategy<NetworkPolicy>;

export const networkPolicyDeleteStrategy = {} satisfies DeleteStrategy<NetworkPolicy>;
