// IP and CIDR validation of k8s.io/apimachinery/pkg/util/validation/ip.go (v0.33): the strict forms
// new fields (ServiceCIDR, IPAddress, IPv6 EndpointSlice addresses) are held to, and the legacy
// fields' check: whatever netutils.ParseIPSloppy / ParseCIDRSloppy reads (leading zeros, IPv4-mapped
// IPv6; never a zone), as kube runs it with StrictIPCIDRValidation off (its 1.33 default, a gate
// Capstan does not model). Values an old object already held pass an update unchecked.
import { is4In6, maskedAddr, parseAddr, parsePrefix } from '../../machinery/netip/parse.js';
import {
  ipNetString,
  isIPSloppy,
  isV4Mapped,
  maskIP,
  netIPString,
  parseCIDRSloppy,
  parseIPSloppy,
} from '../../machinery/netip/sloppy.js';
import { FieldError, goQuote, type ErrorList, type FieldPath } from '../../machinery/validation/index.js';

const invalidIP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
const invalidCIDR = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';
const canonical = (form: string): string => `must be in canonical form (${goQuote(form)})`;

/** IsValidIPForLegacyField (strictValidation off): an error unless ParseIPSloppy reads the value. */
export function isValidIPForLegacyField(
  path: FieldPath,
  value: string,
  validOldIPs?: readonly string[],
): ErrorList {
  if (isIPSloppy(value) || validOldIPs?.includes(value) === true) return [];
  return [FieldError.invalid(path, value, invalidIP)];
}

/** IsValidIP: what netip.ParseAddr reads without a zone, not IPv4-mapped, in canonical form. */
export function isValidIP(path: FieldPath, value: string): ErrorList {
  const ip = parseIPSloppy(value);
  if (ip === undefined) return [FieldError.invalid(path, value, invalidIP)];
  const strict = parseAddr(value);
  // ParseIPSloppy read it and ParseAddr did not: leading zeros.
  if (!strict.ok) return [FieldError.invalid(path, value, 'must not have leading 0s')];
  if (is4In6(strict.value))
    return [FieldError.invalid(path, value, 'must not be an IPv4-mapped IPv6 address')];
  const text = netIPString(ip);
  return text === value ? [] : [FieldError.invalid(path, value, canonical(text))];
}

/** IsValidCIDRForLegacyField (strictValidation off): an error unless ParseCIDRSloppy reads the value. */
export function isValidCIDRForLegacyField(
  path: FieldPath,
  value: string,
  validOldCIDRs?: readonly string[],
): ErrorList {
  if (parseCIDRSloppy(value) !== undefined || validOldCIDRs?.includes(value) === true) return [];
  return [FieldError.invalid(path, value, invalidCIDR)];
}

/** IsValidCIDR: a netip.ParsePrefix subnet (no host bits), not IPv4-mapped, in canonical form. */
export function isValidCIDR(path: FieldPath, value: string): ErrorList {
  const sloppy = parseCIDRSloppy(value);
  if (sloppy === undefined) return [FieldError.invalid(path, value, invalidCIDR)];
  const prefix = parsePrefix(value);
  if (!prefix.ok) return [FieldError.invalid(path, value, 'must not have leading 0s in IP or prefix length')];
  if (is4In6(prefix.value.addr))
    return [FieldError.invalid(path, value, 'must not have an IPv4-mapped IPv6 address')];
  if (maskedAddr(prefix.value).value !== prefix.value.addr.value)
    return [FieldError.invalid(path, value, 'must not have bits set beyond the prefix length')];
  const text = ipNetString(sloppy);
  return text === value ? [] : [FieldError.invalid(path, value, canonical(text))];
}

/** netutils.IPFamilyOfCIDRString: 'IPv4', 'IPv6' or '' when the value is no CIDR. */
export function cidrFamily(value: string): 'IPv4' | 'IPv6' | '' {
  const cidr = parseCIDRSloppy(value);
  if (cidr === undefined) return '';
  return isV4Mapped(maskIP(cidr.ip, cidr)) ? 'IPv4' : 'IPv6';
}
