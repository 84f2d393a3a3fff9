// NetworkPolicy policy (pkg/registry/networking/networkpolicy/strategy.go), validation
// (ValidateNetworkPolicySpec in pkg/apis/networking/validation) and the policyTypes default
// (SetDefaults_NetworkPolicy), which depends on the rules so the schema cannot state it.
import {
  policyTypes,
  type NetworkPolicy,
  type NetworkPolicyPeer,
  type NetworkPolicyPort,
  type NetworkPolicySpec,
} from '../../../api/networking/v1/network-policy.js';
import { validateLabelSelector } from '../../../machinery/labels/validate-label-selector.js';
import {
  FieldError,
  FieldPath,
  type ErrorList,
  validateObjectMeta,
  nameIsDNSSubdomain,
} from '../../../machinery/validation/index.js';
import { isValidPortName, isValidPortNum } from '../../core/service/port-validation.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { networkPolicyWarnings, validateIPBlock } from './ip-block.js';

const protocols = ['TCP', 'UDP', 'SCTP'] as const;

/** ValidateNetworkPolicyPort. */
export function validateNetworkPolicyPort(port: NetworkPolicyPort, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if (port.protocol !== undefined && !(protocols as readonly string[]).includes(port.protocol)) {
    errs.push(FieldError.notSupported(path.child('protocol'), port.protocol, protocols));
  }
  const { port: p, endPort } = port;
  if (typeof p === 'number') {
    errs.push(...isValidPortNum(p).map((m) => FieldError.invalid(path.child('port'), p, m)));
    if (endPort !== undefined) {
      if (endPort < p)
        errs.push(FieldError.invalid(path.child('endPort'), p, 'must be greater than or equal to `port`'));
      errs.push(...isValidPortNum(endPort).map((m) => FieldError.invalid(path.child('endPort'), endPort, m)));
    }
  } else if (typeof p === 'string') {
    if (endPort !== undefined) {
      errs.push(
        FieldError.invalid(path.child('endPort'), endPort, 'may not be specified when `port` is non-numeric'),
      );
    }
    errs.push(...isValidPortName(p).map((m) => FieldError.invalid(path.child('port'), p, m)));
  } else if (endPort !== undefined) {
    errs.push(
      FieldError.invalid(path.child('endPort'), endPort, 'may not be specified when `port` is not specified'),
    );
  }
  return errs;
}

/** ValidateNetworkPolicyPeer: exactly one kind of peer, or pod and namespace selectors together. */
export function validateNetworkPolicyPeer(peer: NetworkPolicyPeer, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  let peers = 0;
  if (peer.podSelector !== undefined) {
    peers++;
    errs.push(...validateLabelSelector(peer.podSelector, path.child('podSelector')));
  }
  if (peer.namespaceSelector !== undefined) {
    peers++;
    errs.push(...validateLabelSelector(peer.namespaceSelector, path.child('namespaceSelector')));
  }
  if (peer.ipBlock !== undefined) {
    peers++;
    errs.push(...validateIPBlock(peer.ipBlock, path.child('ipBlock')));
  }
  if (peers === 0) errs.push(FieldError.required(path, 'must specify a peer'));
  else if (peers > 1 && peer.ipBlock !== undefined) {
    errs.push(FieldError.forbidden(path, 'may not specify both ipBlock and another peer'));
  }
  return errs;
}

type Rule = { ports?: NetworkPolicyPort[]; peers?: NetworkPolicyPeer[] };

function validateRules(rules: readonly Rule[], at: { path: FieldPath; peerField: string }): ErrorList {
  return rules.flatMap((rule, i) => {
    const rulePath = at.path.index(i);
    return [
      ...(rule.ports ?? []).flatMap((p, j) => validateNetworkPolicyPort(p, rulePath.child('ports').index(j))),
      ...(rule.peers ?? []).flatMap((p, j) =>
        validateNetworkPolicyPeer(p, rulePath.child(at.peerField).index(j)),
      ),
    ];
  });
}

/** ValidateNetworkPolicySpec. */
export function validateNetworkPolicySpec(spec: NetworkPolicySpec, path: FieldPath): ErrorList {
  const errs = validateLabelSelector(spec.podSelector, path.child('podSelector'));
  const ingress = (spec.ingress ?? []).map((r) => ({ ...r, peers: r.from ?? [] }));
  const egress = (spec.egress ?? []).map((r) => ({ ...r, peers: r.to ?? [] }));
  errs.push(...validateRules(ingress, { path: path.child('ingress'), peerField: 'from' }));
  errs.push(...validateRules(egress, { path: path.child('egress'), peerField: 'to' }));
  const types = spec.policyTypes ?? [];
  if (types.length > policyTypes.length) {
    errs.push(
      FieldError.invalid(path.child('policyTypes'), types, 'may not specify more than two policyTypes'),
    );
    return errs;
  }
  types.forEach((t, i) => {
    if (!(policyTypes as readonly string[]).includes(t)) {
      errs.push(FieldError.notSupported(path.child('policyTypes').index(i), t, policyTypes));
    }
  });
  return errs;
}

export function validateNetworkPolicy(np: NetworkPolicy): ErrorList {
  return [
    ...validateObjectMeta(np.metadata ?? {}, { requiresNamespace: true, validateName: nameIsDNSSubdomain }),
    ...validateNetworkPolicySpec(np.spec ?? {}, FieldPath.of('spec')),
  ];
}

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
  validate: (_ctx, np) => validateNetworkPolicy(np),
  warningsOnCreate: (_ctx, np) => networkPolicyWarnings(np),
  prepareForUpdate: (_ctx, np) => {
    setNetworkPolicyDefaults(np);
  },
  validateUpdate: (_ctx, np) => validateNetworkPolicy(np),
  warningsOnUpdate: (_ctx, np) => networkPolicyWarnings(np),
} satisfies CreateStrategy<NetworkPolicy> & UpdateStrategy<NetworkPolicy>;

export const networkPolicyDeleteStrategy = {} satisfies DeleteStrategy<NetworkPolicy>;
