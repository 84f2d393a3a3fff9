// NetworkPolicy validation as pkg/apis/networking/validation/validation.go (1.33) has it:
// ValidateNetworkPolicy, ValidateNetworkPolicyUpdate and the options the strategy derives from the
// stored object (ValidationOptionsForNetworking).
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
  goQuote,
  omitValue,
  type ErrorList,
  validateObjectMeta,
  nameIsDNSSubdomain,
} from '../../../machinery/validation/index.js';
import { isValidPortName, isValidPortNum } from '../../core/service/port-validation.js';
import { validateObjectMetaUpdate } from '../../generic/validate-meta-update.js';
import { validateIPBlock } from './ip-block.js';

const protocols = ['TCP', 'UDP', 'SCTP'] as const;

/** kube's NetworkPolicyValidationOptions. */
export interface NetworkPolicyValidationOptions {
  /** Selector values that are not label values pass (the stored podSelector already failed). */
  readonly allowInvalidLabelValue?: boolean;
  /** CIDRs the stored policy held, which an update may keep without a new check. */
  readonly allowCIDRsEvenIfInvalid?: readonly string[];
}

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
export function validateNetworkPolicyPeer(
  peer: NetworkPolicyPeer,
  path: FieldPath,
  opts: NetworkPolicyValidationOptions = {},
): ErrorList {
  const errs: ErrorList = [];
  const selectorOpts = { allowInvalidLabelValue: opts.allowInvalidLabelValue === true };
  let peers = 0;
  if (peer.podSelector !== undefined) {
    peers++;
    errs.push(...validateLabelSelector(peer.podSelector, path.child('podSelector'), selectorOpts));
  }
  if (peer.namespaceSelector !== undefined) {
    peers++;
    errs.push(
      ...validateLabelSelector(peer.namespaceSelector, path.child('namespaceSelector'), selectorOpts),
    );
  }
  if (peer.ipBlock !== undefined) {
    peers++;
    errs.push(...validateIPBlock(peer.ipBlock, path.child('ipBlock'), opts.allowCIDRsEvenIfInvalid));
  }
  if (peers === 0) errs.push(FieldError.required(path, 'must specify a peer'));
  else if (peers > 1 && peer.ipBlock !== undefined) {
    errs.push(FieldError.forbidden(path, 'may not specify both ipBlock and another peer'));
  }
  return errs;
}

type Rule = { ports?: NetworkPolicyPort[]; peers?: NetworkPolicyPeer[] };

function validateRules(
  rules: readonly Rule[],
  at: { path: FieldPath; peerField: string; opts: NetworkPolicyValidationOptions },
): ErrorList {
  return rules.flatMap((rule, i) => {
    const rulePath = at.path.index(i);
    return [
      ...(rule.ports ?? []).flatMap((p, j) => validateNetworkPolicyPort(p, rulePath.child('ports').index(j))),
      ...(rule.peers ?? []).flatMap((p, j) =>
        validateNetworkPolicyPeer(p, rulePath.child(at.peerField).index(j), at.opts),
      ),
    ];
  });
}

/**
 * Too many policyTypes: kube hands field.Invalid a pointer to the internal slice, which its message
 * prints with %#v.
 */
function tooManyPolicyTypes(path: FieldPath, types: readonly string[]): FieldError {
  const goSlice = `[]networking.PolicyType{${types.map(goQuote).join(', ')}}`;
  return new FieldError({
    type: 'FieldValueInvalid',
    field: path.toString(),
    badValue: omitValue,
    detail: `${goSlice}: may not specify more than two policyTypes`,
  });
}

/** ValidateNetworkPolicySpec. */
export function validateNetworkPolicySpec(
  spec: NetworkPolicySpec,
  path: FieldPath,
  opts: NetworkPolicyValidationOptions = {},
): ErrorList {
  const errs = validateLabelSelector(spec.podSelector, path.child('podSelector'), {
    allowInvalidLabelValue: opts.allowInvalidLabelValue === true,
  });
  const ingress = (spec.ingress ?? []).map((r) => ({ ...r, peers: r.from ?? [] }));
  const egress = (spec.egress ?? []).map((r) => ({ ...r, peers: r.to ?? [] }));
  errs.push(...validateRules(ingress, { path: path.child('ingress'), peerField: 'from', opts }));
  errs.push(...validateRules(egress, { path: path.child('egress'), peerField: 'to', opts }));
  const types = spec.policyTypes ?? [];
  if (types.length > policyTypes.length) {
    errs.push(tooManyPolicyTypes(path.child('policyTypes'), types));
    return errs;
  }
  types.forEach((t, i) => {
    if (!(policyTypes as readonly string[]).includes(t)) {
      errs.push(FieldError.notSupported(path.child('policyTypes').index(i), t, policyTypes));
    }
  });
  return errs;
}

/** ValidateNetworkPolicy: metadata with DNS-subdomain names, then the spec. */
export function validateNetworkPolicy(
  np: NetworkPolicy,
  opts: NetworkPolicyValidationOptions = {},
): ErrorList {
  return [
    ...validateObjectMeta(np.metadata ?? {}, { requiresNamespace: true, validateName: nameIsDNSSubdomain }),
    ...validateNetworkPolicySpec(np.spec ?? {}, FieldPath.of('spec'), opts),
  ];
}

/**
 * ValidationOptionsForNetworking: an update may keep selector values that are not label values when
 * the stored podSelector already fails validation.
 */
export function validationOptionsForNetworking(
  old: NetworkPolicy | undefined,
): NetworkPolicyValidationOptions {
  if (old === undefined) return { allowInvalidLabelValue: false };
  const stored = validateLabelSelector(old.spec?.podSelector, FieldPath.of('spec', 'podSelector'));
  return { allowInvalidLabelValue: stored.length > 0 };
}

/** Every ipBlock cidr and except of a policy, ingress peers first. */
function existingCIDRs(np: NetworkPolicy): string[] {
  const peers = [
    ...(np.spec?.ingress ?? []).flatMap((r) => r.from ?? []),
    ...(np.spec?.egress ?? []).flatMap((r) => r.to ?? []),
  ];
  return peers.flatMap((p) => (p.ipBlock === undefined ? [] : [p.ipBlock.cidr, ...(p.ipBlock.except ?? [])]));
}

/**
 * ValidateNetworkPolicyUpdate: the metadata against the stored object, then the spec again with the
 * stored CIDRs allowed as they are.
 */
export function validateNetworkPolicyUpdate(
  np: NetworkPolicy,
  old: NetworkPolicy,
  opts: NetworkPolicyValidationOptions,
): ErrorList {
  const withCIDRs = { ...opts, allowCIDRsEvenIfInvalid: existingCIDRs(old) };
  return [
    ...validateObjectMetaUpdate(np.metadata ?? {}, old.metadata ?? {}),
    ...validateNetworkPolicySpec(np.spec ?? {}, FieldPath.of('spec'), withCIDRs),
  ];
}
