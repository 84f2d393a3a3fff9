// --service-cluster-ip-range (cmd/kube-apiserver/app/options: getServiceIPAndRanges, ServiceIPRange
// and validateClusterIPFlags): one CIDR, or two of different families for dual stack, with kube's
// errors. The first address of the primary range is the `kubernetes` service's.
import { parseCIDR, rangeSize, type IPNet } from './ip-net.js';

/** kube's DefaultServiceIPCIDR. */
export const defaultServiceClusterIPRange = '10.0.0.0/24';

export interface ServiceIPRanges {
  readonly primary: IPNet;
  readonly secondary?: IPNet;
}

// The bitmap lives in one stored object: kube refuses ranges of more than 2^20 addresses.
const maxCIDRBits = 20;

function maxRangeError(net: IPNet, flag: string): string | undefined {
  if (net.bits - net.ones <= maxCIDRBits) return undefined;
  return `specified ${flag} is too large; for ${net.bits}-bit addresses, the mask must be >= ${net.bits - maxCIDRBits}`;
}

/** The ranges, or kube's errors for the flag value. */
export function parseServiceClusterIPRange(value: string): { ranges?: ServiceIPRanges; errors: string[] } {
  const list = value === '' ? [defaultServiceClusterIPRange] : value.split(',');
  const errors: string[] = [];
  if (list.length > 2) errors.push('--service-cluster-ip-range must not contain more than two entries');
  const primary = parseCIDR(list[0] ?? '');
  if (primary === undefined)
    return { errors: [...errors, 'service-cluster-ip-range[0] is not a valid cidr'] };
  if (rangeSize(primary) < 8n) {
    errors.push(
      'error determining service IP ranges for primary service cidr: the service cluster IP range must be at least 8 IP addresses',
    );
  }
  const tooLarge = maxRangeError(primary, '--service-cluster-ip-range');
  if (tooLarge !== undefined) errors.push(tooLarge);
  let secondary: IPNet | undefined;
  if (list.length > 1) {
    secondary = parseCIDR(list[1] ?? '');
    if (secondary === undefined)
      return { errors: [...errors, 'service-cluster-ip-range[1] is not an ip net'] };
    if (secondary.family === primary.family) {
      errors.push(
        '--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family',
      );
    }
    const secondaryTooLarge = maxRangeError(secondary, '--service-cluster-ip-range[1]');
    if (secondaryTooLarge !== undefined) errors.push(secondaryTooLarge);
  }
  if (errors.length > 0) return { errors };
  return { ranges: secondary === undefined ? { primary } : { primary, secondary }, errors };
}
