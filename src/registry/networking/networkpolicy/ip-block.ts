// ValidateIPBlock (pkg/apis/networking/validation, 1.33) and the strategy's networkPolicyWarnings
// (pkg/registry/networking/networkpolicy/strategy.go): an ipBlock's cidr and except entries are
// legacy CIDR fields (what netutils.ParseCIDRSloppy reads), each except a strict subset of the cidr,
// and kube warns of CIDRs in non-standard forms.
import type { NetworkPolicy, NetworkPolicyPeer } from '../../../api/networking/v1/network-policy.js';
import { parseCIDRSloppy } from '../../../machinery/netip/sloppy.js';
import { FieldError, FieldPath, type ErrorList } from '../../../machinery/validation/index.js';
import { cidrContains, parseCIDR } from '../../core/service/ip-net.js';
import { isValidCIDRForLegacyField } from '../ip-validation.js';
import { warningsForCIDR } from '../ip-warnings.js';

type IPBlock = NonNullable<NetworkPolicyPeer['ipBlock']>;

/**
 * ValidateIPBlock. `allowedCIDRs` are the stored policy's values, which an update's second pass
 * takes unchecked (the strict subset rule still applies to them).
 */
export function validateIPBlock(
  block: IPBlock,
  path: FieldPath,
  allowedCIDRs: readonly string[] = [],
): ErrorList {
  if (block.cidr === '') return [FieldError.required(path.child('cidr'), '')];
  const errs = isValidCIDRForLegacyField(path.child('cidr'), block.cidr, allowedCIDRs);
  const cidr = parseCIDR(block.cidr);
  const cidrBits = parseCIDRSloppy(block.cidr)?.prefixBits;
  if (cidr === undefined || cidrBits === undefined) return errs;
  (block.except ?? []).forEach((except, i) => {
    const exceptPath = path.child('except').index(i);
    errs.push(...isValidCIDRForLegacyField(exceptPath, except, allowedCIDRs));
    const net = parseCIDR(except);
    const bits = parseCIDRSloppy(except)?.prefixBits;
    if (net === undefined || bits === undefined) return;
    // IPNet.Contains of the except's network address, and the two masks' lengths as Go counts them.
    if (!cidrContains(cidr, { family: net.family, value: net.base }) || cidrBits >= bits)
      errs.push(FieldError.invalid(exceptPath, except, 'must be a strict subset of `cidr`'));
  });
  return errs;
}

/** The CIDR warnings of one ipBlock at `at` (built only for a warning). */
function ipBlockWarnings(block: IPBlock, at: () => FieldPath): string[] {
  const warnings = warningsForCIDR(() => at().child('cidr'), block.cidr);
  (block.except ?? []).forEach((except, k) => {
    warnings.push(...warningsForCIDR(() => at().child('except').index(k), except));
  });
  return warnings;
}

/** networkPolicyWarnings: the CIDR warnings of every ipBlock, ingress peers first. */
export function networkPolicyWarnings(np: NetworkPolicy): string[] {
  const warnings: string[] = [];
  const rules = [
    { field: 'ingress', peerField: 'from', list: (np.spec?.ingress ?? []).map((r) => r.from ?? []) },
    { field: 'egress', peerField: 'to', list: (np.spec?.egress ?? []).map((r) => r.to ?? []) },
  ] as const;
  for (const { field, peerField, list } of rules)
    for (const [i, peers] of list.entries())
      for (const [j, peer] of peers.entries()) {
        if (peer.ipBlock === undefined) continue;
        const at = (): FieldPath =>
          FieldPath.of('spec', field).index(i).child(peerField).index(j).child('ipBlock');
        warnings.push(...ipBlockWarnings(peer.ipBlock, at));
      }
  return warnings;
}
